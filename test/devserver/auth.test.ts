import {describe, expect, it} from 'vitest'
import {EVAL_SETS, ORGS, USERS} from '../../src/devserver/seed.js'
import {doc, expectError, useSeededServer} from './helpers.js'

const f = useSeededServer()

describe('authentication', () => {
  it('answers JSON with a request id, and /me names the user and its organizations', async () => {
    const answer = await f.server.api('GET', '/me', {token: f.ada})
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(answer.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/)
    expect(answer.body).toEqual({...USERS.ada, orgs: [ORGS.acme, ORGS.globex]})
    const me = await f.server.api('GET', '/me', {token: f.grace})
    expect(me.body.orgs).toEqual([ORGS.globex])
  })

  it.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Basic YWRhOnB3'],
    ['a token without the svc_ prefix', 'Bearer abc123'],
    ['the bare prefix', 'Bearer svc_'],
    ['an unknown token', 'Bearer svc_thisTokenWasNeverIssued'],
  ])('refuses %s with 401 unauthorized', async (_, header) => {
    const answer = await f.server.api('GET', '/me', {headers: header === undefined ? {} : {authorization: header}})
    expectError(answer, 401, 'unauthorized')
  })

  it('needs a token on every /api/v1 route but POST /cli/token and GET /openapi.json', async () => {
    expectError(await f.server.api('GET', '/orgs/acme/runs'), 401, 'unauthorized')
    expectError(await f.server.api('POST', '/tokens', {body: {}}), 401, 'unauthorized')
    expect((await f.server.api('POST', '/cli/token', {body: {}})).status).toBe(200)
    expect((await f.server.api('GET', '/openapi.json')).status).toBe(200)
  })
})

describe('organizations and membership', () => {
  it('accepts {org} as slug or public ID', async () => {
    const bySlug = await f.server.api('GET', `/orgs/${ORGS.acme.slug}/runs?limit=3`, {token: f.ada})
    const byId = await f.server.api('GET', `/orgs/${ORGS.acme.publicId}/runs?limit=3`, {token: f.ada})
    expect(bySlug.status).toBe(200)
    expect(byId.body.items).toEqual(bySlug.body.items)
  })

  it('answers 404 for an organization that does not exist, 403 for one the caller is not in', async () => {
    expect(expectError(await f.server.api('GET', '/orgs/initech/summary', {token: f.ada}), 404, 'not_found')).toContain('initech')
    expectError(await f.server.api('GET', '/orgs/acme/summary', {token: f.grace}), 403, 'forbidden')
    expectError(await f.server.api('GET', `/orgs/${ORGS.acme.publicId}/summary`, {token: f.grace}), 403, 'forbidden')
  })

  it('answers 403 for a resource of another organization and 404 for a missing one, naming it', async () => {
    const other = await f.server.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.globexOnboarding}`, {token: f.ada, body: {}})
    expect(expectError(other, 403, 'forbidden')).toContain(EVAL_SETS.globexOnboarding)
    const missing = await f.server.api('PATCH', '/orgs/acme/eval-sets/es_x', {token: f.ada, body: {}})
    expect(expectError(missing, 404, 'not_found')).toBe('eval set "es_x" not found')
  })

  it('checks membership on every request: removing it revokes access at once, restoring it gives it back', async () => {
    expect((await f.server.api('GET', '/orgs/globex/summary', {token: f.grace})).status).toBe(200)
    expect((await f.server.call('DELETE', `/_dev/orgs/globex/members/${USERS.grace.email}`)).status).toBe(200)
    // f.grace has no membership left at all: her token no longer authenticates
    expectError(await f.server.api('GET', '/orgs/globex/summary', {token: f.grace}), 401, 'unauthorized')
    expectError(await f.server.api('GET', '/me', {token: f.grace}), 401, 'unauthorized')
    await f.server.call('POST', `/_dev/orgs/globex/members/${USERS.grace.email}`)
    expect((await f.server.api('GET', '/orgs/globex/summary', {token: f.grace})).status).toBe(200)

    // f.ada keeps acme when she leaves globex: 403 there, 200 in acme
    await f.server.call('DELETE', `/_dev/orgs/globex/members/${USERS.ada.email}`)
    try {
      expectError(await f.server.api('GET', '/orgs/globex/runs', {token: f.ada}), 403, 'forbidden')
      expect((await f.server.api('GET', '/orgs/acme/runs?limit=1', {token: f.ada})).status).toBe(200)
      expect((await f.server.api('GET', '/me', {token: f.ada})).body.orgs).toEqual([ORGS.acme])
    } finally {
      await f.server.call('POST', `/_dev/orgs/globex/members/${USERS.ada.email}`)
    }
  })

  it('answers 404 for hook calls about unknown organizations or users', async () => {
    expectError(await f.server.call('DELETE', '/_dev/orgs/nope/members/ada@example.com'), 404, 'not_found')
    expectError(await f.server.call('DELETE', '/_dev/orgs/acme/members/nobody@example.com'), 404, 'not_found')
    expectError(await f.server.call('POST', '/_dev/tokens', {body: {email: 'nobody@example.com'}}), 404, 'not_found')
  })
})

describe('routing and bodies', () => {
  it('answers 404 not_found for an unknown route, under /api/v1 and elsewhere', async () => {
    expect(expectError(await f.server.api('GET', '/orgs/acme/widgets', {token: f.ada}), 404, 'not_found')).toContain(
      '/api/v1/orgs/acme/widgets',
    )
    expectError(await f.server.api('DELETE', '/orgs/acme/runs', {token: f.ada}), 404, 'not_found')
    expectError(await f.server.call('GET', '/nothing-here'), 404, 'not_found')
    expectError(await f.server.call('GET', '/_dev/nothing-here'), 404, 'not_found')
  })

  it('answers 400 for malformed JSON and for a body that is not an object', async () => {
    const path = `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}`
    expect(expectError(await f.server.api('PATCH', path, {token: f.ada, raw: '{"cadence": '}), 400, 'invalid_request')).toContain(
      'malformed JSON',
    )
    for (const raw of ['[]', '"DAILY"', '42', 'null', 'true']) {
      expect(expectError(await f.server.api('PATCH', path, {token: f.ada, raw}), 400, 'invalid_request')).toContain('must be a JSON object')
    }
    expectError(
      await f.server.api('POST', '/orgs/acme/experiments/exp_acme_onboarding/launch', {token: f.ada, raw: '[1]'}),
      400,
      'invalid_request',
    )
  })

  it('answers HEAD like GET, without a body', async () => {
    const res = await fetch(`${f.server.url}/api/v1/me`, {method: 'HEAD', headers: {authorization: `Bearer ${f.ada}`}})
    expect(res.status).toBe(200)
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0)
    expect(await res.text()).toBe('')
  })

  it('answers 400 for a path with broken percent-encoding', async () => {
    expectError(await f.server.api('GET', '/orgs/%E0%A4%A/runs', {token: f.ada}), 400, 'invalid_request')
  })
})

describe('retired routes', () => {
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
  // spec endpoint rule 4; the upgrade messages are the document's
  const RETIRED_ROUTES = ['presets', 'cycles', 'scenarios', 'schedules'].map((segment) => ({
    segment,
    message: doc.paths[`/orgs/{org}/${segment}`].description,
  }))
  const paths = RETIRED_ROUTES.flatMap(({segment}) => [
    `/orgs/acme/${segment}`,
    `/orgs/acme/${segment}/x1`,
    `/${segment}`,
    `/${segment}/x1/deeper`,
  ])

  it('need a valid token first (401)', async () => {
    for (const path of paths) for (const method of methods) expectError(await f.server.api(method, path), 401, 'unauthorized')
  })

  it('answer every method with 403 forbidden and the upgrade message', async () => {
    for (const {segment, message} of RETIRED_ROUTES) {
      expect(message).toMatch(/retired in API 0\.14/)
      for (const path of paths.filter((p) => p.includes(`/${segment}`))) {
        for (const method of [...methods, 'OPTIONS']) {
          const answer = await f.server.call(method, `/api/v1${path}`, {token: f.ada, unchecked: method === 'OPTIONS'})
          expect(expectError(answer, 403, 'forbidden')).toBe(message)
        }
      }
    }
  })

  it('leave scenarios under a preference prompt alone', async () => {
    const answer = await f.server.api('POST', '/orgs/acme/visibility-prompts/vp_missing/scenarios', {
      token: f.ada,
      body: {repository: 'a/b', persona: 'p'},
    })
    expectError(answer, 404, 'not_found')
  })
})
