import {describe, expect, it} from 'vitest'
import {CONNECTIONS, EVAL_SETS, MCP_SERVERS, SKILLS, TAGS} from '../../src/devserver/seed.js'
import {expectError, useSeededServer} from './helpers.js'

const f = useSeededServer()

const checkout = `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}`
const patch = (body: unknown, path = checkout) => f.server.api('PATCH', path, {token: f.ada, body})

describe('PATCH /orgs/{org}/eval-sets/{evalSetId}', () => {
  it('updates the given members, keeps the others, and answers the whole eval set', async () => {
    const answer = await patch({cadence: 'WEEKLY', samplesPerTarget: 12, connectionIds: [CONNECTIONS.acmeStripe, CONNECTIONS.acmeGithub]})
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      id: EVAL_SETS.acmeCheckout,
      name: 'Checkout flow',
      cadence: 'WEEKLY',
      samplesPerTarget: 12,
      connectionIds: [CONNECTIONS.acmeStripe, CONNECTIONS.acmeGithub],
      skillIds: [SKILLS.acmeCheckout, SKILLS.acmeRefunds],
    })
    expect(answer.body.updatedAt > answer.body.createdAt).toBe(true)

    const second = await patch({samplesPerTarget: 1})
    expect(second.body).toMatchObject({
      cadence: 'WEEKLY',
      samplesPerTarget: 1,
      connectionIds: [CONNECTIONS.acmeStripe, CONNECTIONS.acmeGithub],
    })
  })

  it('stores a member named __proto__ as a member, as it stores any other (the answer, later reads, nothing else changed)', async () => {
    const raw = '{"__proto__":{"owner":"ada"},"constructor":1,"cadence":"DAILY"}'
    const answer = await f.server.api('PATCH', checkout, {token: f.ada, raw})
    expect(answer.status).toBe(200)
    // JSON.parse makes "__proto__" an own member, as the server sent it
    expect(Object.hasOwn(answer.body, '__proto__')).toBe(true)
    expect(Object.getOwnPropertyDescriptor(answer.body, '__proto__')?.value).toEqual({owner: 'ada'})
    expect(answer.text).toContain('"__proto__":{"owner":"ada"}')
    expect(answer.body).toMatchObject({constructor: 1, cadence: 'DAILY'})
    const later = await patch({})
    expect(later.text).toContain('"__proto__":{"owner":"ada"}')
    // the stored eval set took no prototype from it: no member of it shows through
    expect(later.text).not.toContain('"owner":"ada","')
    expect(Object.keys(later.body)).not.toContain('owner')
  })

  it('accepts the bounds and every cadence', async () => {
    for (const cadence of ['NONE', 'DAILY', 'WEEKLY', 'MONTHLY']) expect((await patch({cadence})).body.cadence).toBe(cadence)
    expect((await patch({samplesPerTarget: 50})).body.samplesPerTarget).toBe(50)
    expect((await patch({samplesPerTarget: 1})).body.samplesPerTarget).toBe(1)
  })

  it('clears connections with [] and replaces any other array', async () => {
    expect((await patch({connectionIds: []})).body.connectionIds).toEqual([])
    const answer = await patch({skillIds: ['sk_new'], targets: [{agent: 'codex', model: 'gpt-5'}], notes: {owner: 'ada'}})
    expect(answer.body).toMatchObject({skillIds: ['sk_new'], targets: [{agent: 'codex', model: 'gpt-5'}], notes: {owner: 'ada'}})
    await patch({
      targets: [
        {agent: 'claude-code', model: 'claude-sonnet-4-5'},
        {agent: 'codex', model: 'gpt-5'},
      ],
    })
  })

  it.each([
    [{cadence: 'daily'}, 'cadence'],
    [{cadence: 'HOURLY'}, 'cadence'],
    [{cadence: 1}, 'cadence'],
    [{cadence: null}, 'cadence'],
    [{samplesPerTarget: 0}, 'samplesPerTarget'],
    [{samplesPerTarget: 51}, 'samplesPerTarget'],
    [{samplesPerTarget: 2.5}, 'samplesPerTarget'],
    [{samplesPerTarget: '5'}, 'samplesPerTarget'],
    [{connectionIds: 'conn_acme_github'}, 'connectionIds'],
    [{connectionIds: [42]}, 'connectionIds'],
    [{connectionIds: [CONNECTIONS.globexSlack]}, 'connectionIds'],
    [{connectionIds: ['conn_nope']}, 'connectionIds'],
    [{skillIds: 'sk_1'}, 'skillIds'],
    [{name: ''}, 'name'],
    [{id: 'es_other'}, 'id'],
  ])('refuses %j with 400 naming %s, and stores nothing', async (body, member) => {
    const before = (await patch({})).body
    const answer = await patch({samplesPerTarget: 7, ...body})
    expect(expectError(answer, 400, 'invalid_request')).toContain(member)
    expect((await patch({})).body).toEqual(before)
  })

  it.each([
    [{targets: [1]}, 'targets[0] must be a JSON object, got number 1'],
    [{targets: [{agent: 'codex'}]}, 'targets[0].model is required'],
    [{targets: [{agent: '', model: 'gpt-5'}]}, 'targets[0].agent must be a non-empty string, got string ""'],
    [{targets: {agent: 'codex', model: 'gpt-5'}}, 'targets must be an array, got an object'],
    [
      {mcpServerIds: [MCP_SERVERS.globexJira.id]},
      `mcpServerIds: MCP server "${MCP_SERVERS.globexJira.id}" does not exist in organization acme`,
    ],
    [{tagIds: ['tag_nope']}, 'tagIds: tag "tag_nope" does not exist in organization acme'],
    [{tagIds: [7]}, 'tagIds[0] must be a string, got number 7'],
  ])('checks the declared selections: %j is 400 "%s", nothing stored (issue 32 item 21)', async (body, message) => {
    const before = (await patch({})).body
    expect(expectError(await patch(body), 400, 'invalid_request')).toBe(message)
    expect((await patch({})).body).toEqual(before)
  })

  it('a launch after a targets update makes one run per target, each with its agent and model (issue 32 item 21)', async () => {
    const targets = [{agent: 'codex', model: 'gpt-5'}]
    expect((await patch({targets, mcpServerIds: [MCP_SERVERS.acmeFilesystem.id], tagIds: [TAGS.acmeFlaky]})).body).toMatchObject({
      targets,
      mcpServerIds: [MCP_SERVERS.acmeFilesystem.id],
      tagIds: [TAGS.acmeFlaky],
    })
    const launched = await f.server.api('POST', `${checkout}/run`, {token: f.ada, body: {}})
    const run = await f.server.api('GET', `/orgs/acme/runs?limit=1`, {token: f.ada})
    expect(launched.body.runIds).toEqual([run.body.items[0].id])
    expect(run.body.items[0]).toMatchObject({agent: 'codex', model: 'gpt-5'})
  })

  it('a member the document does not declare is stored as given, whatever was stored before (an array too) (issue 32 item 21)', async () => {
    expect((await patch({notes: ['a', 'b']})).body.notes).toEqual(['a', 'b'])
    expect((await patch({notes: 'one line'})).body.notes).toBe('one line')
    expect((await patch({notes: {owner: 'ada'}})).body.notes).toEqual({owner: 'ada'})
  })

  it('names the foreign connection and the organization', async () => {
    const message = expectError(await patch({connectionIds: [CONNECTIONS.globexSlack]}), 400, 'invalid_request')
    expect(message).toBe(`connectionIds: connection "${CONNECTIONS.globexSlack}" does not exist in organization acme`)
  })

  it('answers 404 for a missing eval set and 403 for one of another organization', async () => {
    expectError(await patch({}, '/orgs/acme/eval-sets/es_missing'), 404, 'not_found')
    expectError(await patch({}, `/orgs/acme/eval-sets/${EVAL_SETS.globexOnboarding}`), 403, 'forbidden')
  })
})

describe('POST /orgs/{org}/eval-sets/{evalSetId}/run', () => {
  it('creates one batch and 1-3 queued runs that head the run list', async () => {
    const answer = await f.server.api('POST', `${checkout}/run`, {token: f.ada, body: {}})
    expect(answer.status).toBe(200)
    expect(answer.body.batchIds).toHaveLength(1)
    expect(answer.body.runIds.length).toBeGreaterThanOrEqual(1)
    expect(answer.body.runIds.length).toBeLessThanOrEqual(3)
    const list = await f.server.api('GET', `/orgs/acme/runs?limit=${answer.body.runIds.length}`, {token: f.ada})
    expect(list.body.items.map((run: any) => run.id).sort()).toEqual([...answer.body.runIds].sort())
    for (const run of list.body.items)
      expect(run).toMatchObject({status: 'queued', evalSetId: EVAL_SETS.acmeCheckout, batchId: answer.body.batchIds[0]})
  })

  it('launches three runs for the three-target eval', async () => {
    const answer = await f.server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}/run`, {token: f.ada, body: {}})
    expect(answer.body.runIds).toHaveLength(3)
  })

  it('answers 402 insufficient_credits at zero credits, and 403/404 for foreign/missing eval sets', async () => {
    await f.server.call('PATCH', '/_dev/orgs/acme', {body: {credits: 0}})
    try {
      expectError(await f.server.api('POST', `${checkout}/run`, {token: f.ada, body: {}}), 402, 'insufficient_credits')
    } finally {
      await f.server.call('PATCH', '/_dev/orgs/acme', {body: {credits: 1000}})
    }
    expectError(
      await f.server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.globexOnboarding}/run`, {token: f.ada, body: {}}),
      403,
      'forbidden',
    )
    expectError(await f.server.api('POST', '/orgs/acme/eval-sets/es_nope/run', {token: f.ada, body: {}}), 404, 'not_found')
    expectError(await f.server.api('POST', `${checkout}/run`, {token: f.ada, raw: '[]'}), 400, 'invalid_request')
  })
})
