import {describe, expect, it} from 'vitest'
import {ROUTES} from '../../src/contract/routes.js'
import {MAX_BODY_DEPTH} from '../../src/devserver/validate.js'
import {RequestBodies, SchemaSet} from '../../src/devserver/schema.js'
import {CONNECTIONS, EVAL_SETS, OPTIMIZATIONS, VISIBILITY_PROMPTS} from '../../src/devserver/seed.js'
import {doc, expectError, operations, useSeededServer} from './helpers.js'

const f = useSeededServer()

const checkout = `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}`
const nested = (depth: number): string => `${'['.repeat(depth - 1)}{}${']'.repeat(depth - 1)}`

describe('request bodies are checked against the OpenAPI document', () => {
  it('compiles a check for every operation the document gives a JSON body, and only those', () => {
    const bodies = new RequestBodies(new SchemaSet())
    const withBody = operations.filter(({operation}) => operation.requestBody !== undefined).map(({operation}) => operation.operationId)
    expect(withBody.length).toBeGreaterThan(5)
    for (const id of Object.keys(ROUTES)) expect(bodies.has(id), id).toBe(withBody.includes(id))
  })

  it.each([
    ['PATCH', checkout, {samplesPerTarget: 51}, 'samplesPerTarget must be an integer from 1 to 50, got number 51'],
    ['PATCH', checkout, {samplesPerTarget: 2.5}, 'samplesPerTarget must be an integer, got number 2.5'],
    ['PATCH', checkout, {cadence: 'HOURLY'}, 'cadence must be one of NONE, DAILY, WEEKLY, MONTHLY, got string "HOURLY"'],
    ['PATCH', checkout, {connectionIds: [CONNECTIONS.acmeGithub, 42]}, 'connectionIds[1] must be a string, got number 42'],
    ['PATCH', checkout, {connectionIds: ['']}, 'connectionIds[0] must be a non-empty string, got string ""'],
    ['PATCH', checkout, {name: ''}, 'name must be a non-empty string, got string ""'],
    ['PATCH', checkout, {updatedAt: '2030-01-01'}, 'updatedAt is read-only'],
    ['PATCH', checkout, [], 'request body must be a JSON object, got an array'],
    ['POST', '/tokens', {expiresIn: '30d'}, 'name is required'],
    ['POST', '/tokens', {name: 'ci', expiresIn: '2w'}, 'expiresIn must be <N>d with N from 1 to 3650 (days), got string "2w"'],
    ['POST', '/tokens', {name: 'ci', expiresIn: '3651d'}, 'expiresIn must be <N>d with N from 1 to 3650 (days), got string "3651d"'],
    ['POST', `/orgs/acme/visibility-prompts/${VISIBILITY_PROMPTS.acmePreference}/scenarios`, {repository: 'a/b'}, 'persona is required'],
    ['POST', `/orgs/acme/optimizations/${OPTIMIZATIONS.acmeCheckout}/chat`, {message: 7}, 'message must be a string, got number 7'],
  ])('%s %s %j: 400 "%s"', async (method, path, body, message) => {
    expect(expectError(await f.server.api(method, path, {token: f.ada, body}), 400, 'invalid_request')).toBe(message)
  })

  it('refuses a missing body where the document requires one, and takes none where it is optional', async () => {
    expect(expectError(await f.server.api('PUT', '/orgs/acme/implementation-doc', {token: f.ada}), 400, 'invalid_request')).toBe(
      'request body is required: send a JSON object',
    )
    expect(doc.paths['/orgs/{org}/implementation-doc'].put.requestBody.required).toBe(true)
    expect((await f.server.api('POST', `/orgs/acme/optimizations/${OPTIMIZATIONS.acmeCheckout}/propose`, {token: f.ada})).status).toBe(200)
  })

  it.each(['  ', '\n', ' \r\n\t '])(
    'a body of only whitespace (%j) with Content-Type: application/json is a 400, not no body (issue 32 item 23)',
    async (raw) => {
      const before = (await f.server.api('GET', '/orgs/acme/runs?limit=1', {token: f.ada})).body.items[0].id
      const fork = await f.server.api('POST', `/runs/${before}/fork`, {token: f.ada, raw})
      expect(expectError(fork, 400, 'invalid_request')).toBe('malformed JSON body: only whitespace (send {} or no body at all)')
      // nothing forked
      expect((await f.server.api('GET', '/orgs/acme/runs?limit=1', {token: f.ada})).body.items[0].id).toBe(before)
      const hook = await f.server.call('POST', '/_dev/orgs/acme/outcomes', {raw})
      expect(expectError(hook, 400, 'invalid_request')).toBe('malformed JSON body: only whitespace (send {} or no body at all)')
    },
  )

  it('no body at all (zero bytes) where the body is optional: taken as none', async () => {
    expect(
      (await f.server.api('POST', `/orgs/acme/optimizations/${OPTIMIZATIONS.acmeCheckout}/propose`, {token: f.ada, raw: ''})).status,
    ).toBe(200)
  })

  it('keeps the rules the document cannot state: the connection must exist in this organization', async () => {
    const answer = await f.server.api('PATCH', checkout, {token: f.ada, body: {connectionIds: [CONNECTIONS.globexSlack]}})
    const message = `connectionIds: connection "${CONNECTIONS.globexSlack}" does not exist in organization acme`
    expect(expectError(answer, 400, 'invalid_request')).toBe(message)
  })

  it('checks the token first: without one the answer is 401 whatever the body', async () => {
    expectError(await f.server.api('PATCH', checkout, {body: {samplesPerTarget: 99}}), 401, 'unauthorized')
  })
})

describe('deeply nested bodies', () => {
  it(`accept ${MAX_BODY_DEPTH} levels and refuse ${MAX_BODY_DEPTH + 1}, on the API and on the hooks`, async () => {
    const at = (depth: number) => `{"notes":${nested(depth - 1)}}`
    expect((await f.server.api('PATCH', checkout, {token: f.ada, raw: at(MAX_BODY_DEPTH)})).status).toBe(200)
    const message = expectError(await f.server.api('PATCH', checkout, {token: f.ada, raw: at(MAX_BODY_DEPTH + 1)}), 400, 'invalid_request')
    expect(message).toBe(`request body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels`)
    expectError(await f.server.call('POST', '/_dev/faults', {raw: `{"match":${nested(MAX_BODY_DEPTH + 1)}}`}), 400, 'invalid_request')
  })

  it('a 20,000-deep PATCH is refused and every later write still works', async () => {
    expectError(await f.server.api('PATCH', checkout, {token: f.ada, raw: `{"notes":${nested(20_000)}}`}), 400, 'invalid_request')
    const after = await f.server.api('PATCH', checkout, {token: f.ada, body: {samplesPerTarget: 4}})
    expect(after.body.samplesPerTarget).toBe(4)
    expect((await f.server.api('PUT', '/orgs/acme/implementation-doc', {token: f.ada, body: {steps: ['a']}})).status).toBe(200)
  })
})
