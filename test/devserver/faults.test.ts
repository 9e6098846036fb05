import {afterEach, describe, expect, it} from 'vitest'
import {EVAL_SETS} from '../../src/devserver/seed.js'
import {expectError, useSeededServer} from './helpers.js'

const f = useSeededServer()
afterEach(async () => {
  await f.server.call('DELETE', '/_dev/faults')
})

const fault = async (rule: unknown) => {
  const answer = await f.server.call('POST', '/_dev/faults', {body: rule})
  expect(answer.status, answer.text).toBe(200)
  return answer.body
}
const raw = (method: string, path: string, body?: unknown) =>
  fetch(`${f.server.url}/api/v1${path}`, {
    method,
    headers: {authorization: `Bearer ${f.ada}`, 'content-type': 'application/json'},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const runCount = async () => (await f.server.call('GET', '/_dev/orgs/acme')).body.runCount as number
const launch = () => raw('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {})
const LAUNCH_PATH = '/eval-sets/*/run$'

describe('status faults', () => {
  it('answer the next N matching requests with the status and the default envelope, then stop', async () => {
    const rule = await fault({
      match: {method: 'get', path: '^/api/v1/me$'},
      count: 2,
      actions: [{type: 'status', status: 503, headers: {'Retry-After': '1'}}],
    })
    expect(rule).toMatchObject({match: {method: 'GET', path: '^/api/v1/me$'}, remaining: 2, probability: 1})
    for (let i = 0; i < 2; i += 1) {
      const res = await raw('GET', '/me')
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('1')
      expect(res.headers.get('x-request-id')).toMatch(/^req_/)
      expect(await res.json()).toEqual({error: {code: 'service_unavailable', message: 'injected fault: HTTP 503'}})
    }
    expect((await raw('GET', '/me')).status).toBe(200)
    expect((await f.server.call('GET', '/_dev/faults')).body.items).toEqual([])
  })

  it.each([
    [400, 'invalid_request'],
    [402, 'insufficient_credits'],
    [409, 'conflict'],
    [429, 'rate_limited'],
    [418, 'i_m_a_teapot'],
    [504, 'gateway_timeout'],
  ])('answer %i with the code the vocabulary gives that status (%s), else its HTTP name', async (status, code) => {
    await fault({match: {path: '^/api/v1/me$'}, count: 1, actions: [{type: 'status', status}]})
    expect(await (await raw('GET', '/me')).json()).toEqual({error: {code, message: `injected fault: HTTP ${status}`}})
  })

  it('do not do the work', async () => {
    await fault({match: {path: LAUNCH_PATH}, count: 1, actions: [{type: 'status', status: 500}]})
    const before = await runCount()
    const res = await launch()
    expect(res.status).toBe(500)
    expect(((await res.json()) as {error: {code: string}}).error.code).toBe('internal_server_error')
    expect(await runCount()).toBe(before)
  })

  it("can carry a code and message, or a raw body such as a proxy's HTML page", async () => {
    await fault({
      match: {path: '/summary$'},
      count: 1,
      actions: [{type: 'status', status: 429, code: 'rate_limited', message: 'slow down'}],
    })
    expect(await (await raw('GET', '/orgs/acme/summary')).json()).toEqual({error: {code: 'rate_limited', message: 'slow down'}})
    const page = '<html><body><h1>502 Bad Gateway</h1></body></html>'
    await fault({match: {path: '/summary$'}, count: 1, actions: [{type: 'status', status: 502, body: page}]})
    const res = await raw('GET', '/orgs/acme/summary')
    expect(res.status).toBe(502)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await res.text()).toBe(page)
  })

  it('never apply to the /_dev hooks (a match-everything rule can still be cleared)', async () => {
    await fault({actions: [{type: 'status', status: 503}]})
    expect((await raw('GET', '/me')).status).toBe(503)
    expect((await f.server.call('GET', '/_dev/faults')).status).toBe(200)
  })
})

describe('probability and seed', () => {
  const statuses = async (): Promise<number[]> => {
    const seen: number[] = []
    for (let i = 0; i < 24; i += 1) seen.push((await raw('GET', '/me')).status)
    return seen
  }

  it('hit a deterministic share of requests, and pick among actions deterministically', async () => {
    const rule = {
      match: {path: '^/api/v1/me$'},
      probability: 0.5,
      seed: 42,
      actions: [
        {type: 'status', status: 502},
        {type: 'status', status: 504},
      ],
    }
    await fault(rule)
    const first = await statuses()
    await f.server.call('DELETE', '/_dev/faults')
    await fault(rule)
    expect(await statuses()).toEqual(first)
    expect(new Set(first)).toEqual(new Set([200, 502, 504]))
    const hits = (await f.server.call('GET', '/_dev/faults')).body.items[0].hits
    expect(hits).toBe(first.filter((status) => status !== 200).length)
  })
})

describe('latency', () => {
  it('delays, then handles the request normally', async () => {
    await fault({match: {path: '^/api/v1/me$'}, count: 1, actions: [{type: 'latency', ms: 300}]})
    const started = performance.now()
    const res = await raw('GET', '/me')
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    expect(res.status).toBe(200)
  })
})

describe('connection faults', () => {
  it('drop-before: the connection is cut and the work is not done', async () => {
    await fault({match: {method: 'POST', path: LAUNCH_PATH}, count: 1, actions: [{type: 'drop-before'}]})
    const before = await runCount()
    await expect(launch()).rejects.toThrow()
    expect(await runCount()).toBe(before)
  })

  it('drop-after: the work is done and committed, then the connection is cut', async () => {
    await fault({match: {method: 'POST', path: LAUNCH_PATH}, count: 1, actions: [{type: 'drop-after'}]})
    const before = await runCount()
    await expect(launch()).rejects.toThrow()
    expect(await runCount()).toBeGreaterThan(before)
  })

  it('truncate: the work is done, status and headers arrive, the body is cut in half', async () => {
    await fault({match: {method: 'POST', path: LAUNCH_PATH}, count: 1, actions: [{type: 'truncate'}]})
    const before = await runCount()
    const res = await launch()
    expect(res.status).toBe(200)
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(10)
    await expect(res.text()).rejects.toThrow()
    expect(await runCount()).toBeGreaterThan(before)
  })
})

describe('fault rules', () => {
  it.each([
    [{actions: []}, 'actions'],
    [{actions: [{type: 'explode'}]}, 'actions[0].type'],
    [{actions: [{type: 'status', status: 700}]}, 'actions[0].status'],
    [{actions: [{type: 'latency'}]}, 'actions[0].ms'],
    [{actions: [{type: 'status', status: 503, headers: {'Retry-After': 1}}]}, 'actions[0].headers.Retry-After'],
    [{match: {path: '('}, actions: [{type: 'drop-before'}]}, 'match.path'],
    [{match: {path: '(a+)+$'}, actions: [{type: 'drop-before'}]}, 'match.path is a path pattern, not a regular expression'],
    [{match: {path: 'x'.repeat(501)}, actions: [{type: 'drop-before'}]}, 'match.path must be at most 500 characters'],
    [{count: 0, actions: [{type: 'drop-before'}]}, 'count'],
    [{probability: 2, actions: [{type: 'drop-before'}]}, 'probability'],
  ])('refuses %j with 400 naming %s', async (rule, member) => {
    expect(expectError(await f.server.call('POST', '/_dev/faults', {body: rule}), 400, 'invalid_request')).toContain(member)
  })

  it('are listed and cleared', async () => {
    await fault({actions: [{type: 'latency', ms: 1}]})
    await fault({count: 3, actions: [{type: 'truncate'}]})
    expect((await f.server.call('GET', '/_dev/faults')).body.items).toHaveLength(2)
    await f.server.call('DELETE', '/_dev/faults')
    expect((await f.server.call('GET', '/_dev/faults')).body.items).toHaveLength(0)
  })
})

describe('the request log', () => {
  it('records method, path with query, status, fault and whether a token came, never the token', async () => {
    await f.server.call('DELETE', '/_dev/requests')
    await f.server.api('GET', '/orgs/acme/runs?limit=2', {token: f.ada})
    await f.server.api('GET', '/me')
    await fault({match: {path: '/summary$'}, count: 1, actions: [{type: 'drop-before'}]})
    await expect(raw('GET', '/orgs/acme/summary')).rejects.toThrow()
    await f.server.call('GET', '/_dev/orgs/acme')

    const log = await f.server.call('GET', '/_dev/requests')
    expect(log.body.items.map(({seq, at, ...rest}: any) => rest)).toEqual([
      {method: 'GET', path: '/api/v1/orgs/acme/runs?limit=2', status: 200, fault: null, authorization: 'present'},
      {method: 'GET', path: '/api/v1/me', status: 401, fault: null, authorization: 'absent'},
      {method: 'GET', path: '/api/v1/orgs/acme/summary', status: null, fault: 'drop-before', authorization: 'present'},
    ])
    const seqs = log.body.items.map((entry: any) => entry.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
    expect(log.text).not.toContain(f.ada)
    expect(log.text).not.toContain('svc_')
  })

  it('filters by method and path pattern, and refuses a regular expression', async () => {
    await f.server.call('DELETE', '/_dev/requests')
    await f.server.api('GET', '/me', {token: f.ada})
    await f.server.api('POST', '/tokens', {token: f.ada, body: {name: 'x', expiresIn: '1d'}})
    const posts = await f.server.call('GET', '/_dev/requests?method=post')
    expect(posts.body.items.map((entry: any) => entry.path)).toEqual(['/api/v1/tokens'])
    const me = await f.server.call('GET', `/_dev/requests?path=${encodeURIComponent('^/api/v1/me')}`)
    expect(me.body.items).toHaveLength(1)
    expectError(await f.server.call('GET', '/_dev/requests?path=%28'), 400, 'invalid_request')
    const regex = await f.server.call('GET', `/_dev/requests?path=${encodeURIComponent('/me/.*')}`)
    expect(expectError(regex, 400, 'invalid_request')).toContain('path is a path pattern')
    const all = await f.server.call('GET', '/_dev/requests')
    expect(all.text).not.toContain('svc_')
  })
})
