import {errorLine} from '../../../src/output/present.js'
import {beforeEach, describe, expect, it} from 'vitest'
import {dropConnection, refused, type Route, type StubOptions, timedOut, unchecked, useFakeApi} from '../../helpers/fake-api.js'
import {failure} from '../../helpers/failure.js'
import {HttpClient, MAX_BODY_BYTES, type ClientOptions, type Method} from '../../../src/core/http/client.js'
import {systemClock} from '../../../src/core/clock.js'
import {FAKE_WALL_START} from '../../helpers/fake-clock.js'

const ORIGIN = 'https://api.test'
const EVIL = 'https://evil.test'
const TOKEN = 'svc_client_secret_token_9876'
const UA = 'amctl/1.2.3 node/v20.20.2 linux'
const JSON_HEADERS = {'content-type': 'application/json'}

// the fake API as the client's transport; answers a test does not use, and requests none matched, fail it
const fake = useFakeApi({}, {me: false})
let waits: number[]
let logs: string[]

beforeEach(() => {
  waits = []
  logs = []
})

function client(opts: Partial<ClientOptions> = {}): HttpClient {
  return new HttpClient({
    baseUrl: ORIGIN,
    timeoutMs: 5000,
    userAgent: UA,
    token: async () => TOKEN,
    transport: fake.transport,
    clock: {
      ...systemClock,
      wall: () => FAKE_WALL_START,
      sleep: async (ms) => {
        waits.push(ms)
      },
    },
    random: () => 0.5,
    log: (line) => logs.push(line),
    ...opts,
  })
}

/** `key`'s answers, in order, one per request (made-up ones: these tests are of the client loop, not of the API) */
const on = (key: string, routes: readonly Route[], opts: StubOptions = {}) => fake.answers(key, routes, {origin: ORIGIN, ...opts})
const raw = (status: number, body?: unknown, headers?: Record<string, string>) =>
  unchecked('a test of the client loop, with made-up answers', status, body, headers)
const calls = () => fake.requests().map((r) => ({...r, fullUrl: `${r.origin}${r.path}`}))

function envelope(code: string, message: string) {
  return JSON.stringify({error: {code, message}})
}

describe('request headers', () => {
  it('sends User-Agent, accept and the bearer token', async () => {
    on('GET /me', [raw(200, {email: 'a@b.c'}, JSON_HEADERS)])
    expect(await client().json({method: 'GET', path: '/me'})).toEqual({email: 'a@b.c'})
    const [call] = calls()
    expect(call.method).toBe('GET')
    expect(call.fullUrl).toBe(`${ORIGIN}/api/v1/me`)
    expect(call.headers['user-agent']).toBe(UA)
    expect(call.headers.accept).toBe('application/json')
    expect(call.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(call.body).toBe('')
  })

  it('keeps a path prefix of the base URL before /api/v1', async () => {
    on('GET /me', [raw(200, {}, JSON_HEADERS)], {prefix: '/prefix/api/v1'})
    await client({baseUrl: `${ORIGIN}/prefix`}).json({method: 'GET', path: '/me'})
    expect(calls()[0].fullUrl).toBe(`${ORIGIN}/prefix/api/v1/me`)
  })

  it('sends a JSON body with its content type', async () => {
    on('POST /tokens', [raw(201, {id: 't'}, JSON_HEADERS)])
    await client().json({method: 'POST', path: '/tokens', body: {name: 'ci', expiresIn: '30d'}})
    const [call] = calls()
    expect(call.body).toBe('{"name":"ci","expiresIn":"30d"}')
    expect(call.headers['content-type']).toBe('application/json')
  })

  it('sends no Authorization header with auth:false, and never asks for the token', async () => {
    on('POST /cli/token', [raw(200, {token: 'svc_new'}, JSON_HEADERS)])
    const c = client({
      token: async () => {
        throw new Error('the token must not be resolved for an unauthenticated request')
      },
    })
    expect(await c.json({method: 'POST', path: '/cli/token', body: {}, auth: false})).toEqual({token: 'svc_new'})
    const [call] = calls()
    expect(call.headers.authorization).toBeUndefined()
    expect(call.body).toBe('{}')
  })
})

describe('retries', () => {
  it('GET 503 ×4 → 4 attempts, then exit 1 with the last error', async () => {
    for (let i = 1; i <= 4; i++) {
      on('GET /me', [raw(503, envelope('unavailable', `busy ${i}`), JSON_HEADERS)])
    }
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(calls()).toHaveLength(4)
    expect(waits).toHaveLength(3)
    expect(e).toMatchObject({code: 'unavailable', status: 503, exitCode: 1, message: 'busy 4'})
  })

  it('GET 429 ×4 → exit 7 rate_limited', async () => {
    on('GET /me', Array(4).fill(raw(429, envelope('rate_limited', 'slow down'), JSON_HEADERS)))
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(calls()).toHaveLength(4)
    expect(e).toMatchObject({code: 'rate_limited', status: 429, exitCode: 7})
  })

  it.each([
    ['GET', 502],
    ['GET', 504],
    ['PUT', 503],
    ['PATCH', 502],
    ['DELETE', 504],
    ['PUT', 429],
  ] as [Method, number][])('%s %i is retried and then succeeds', async (method, status) => {
    on(`${method} /thing`, [raw(status, envelope('x', 'y'), JSON_HEADERS)])
    on(`${method} /thing`, [raw(200, {ok: true}, JSON_HEADERS)])
    const withBody = method !== 'DELETE' && method !== 'GET'
    expect(await client().json({method, path: '/thing', body: withBody ? {a: 1} : undefined})).toEqual({ok: true})
    expect(calls()).toHaveLength(2)
    // the body goes again with the retry
    if (withBody) expect(calls().map((c) => c.body)).toEqual(['{"a":1}', '{"a":1}'])
  })

  it.each([502, 503, 504])('POST %i is not retried (the server may have done the work)', async (status) => {
    on('POST /tokens', [raw(status, envelope('unavailable', 'upstream'), JSON_HEADERS)])
    const e = await failure(client().json({method: 'POST', path: '/tokens', body: {}}))
    expect(calls()).toHaveLength(1)
    expect(waits).toEqual([])
    expect(e).toMatchObject({status, exitCode: 1})
  })

  it('POST 429 is retried, then succeeds', async () => {
    on('POST /tokens', [raw(429, envelope('rate_limited', 'later'), JSON_HEADERS)])
    on('POST /tokens', [raw(201, {id: 'tok_1'}, JSON_HEADERS)])
    expect(await client().json({method: 'POST', path: '/tokens', body: {name: 'x'}})).toEqual({id: 'tok_1'})
    expect(calls()).toHaveLength(2)
  })

  it('POST refused before sending is retried, then succeeds', async () => {
    on('POST /tokens', [refused()])
    on('POST /tokens', [refused()])
    on('POST /tokens', [raw(201, {id: 'tok_2'}, JSON_HEADERS)])
    expect(await client().json({method: 'POST', path: '/tokens', body: {}})).toEqual({id: 'tok_2'})
    expect(calls()).toHaveLength(3)
    expect(waits).toEqual([250, 500])
  })

  it('POST refused 4 times → exit 1 network_error (it could not be sent: not outcome-unknown)', async () => {
    on('POST /tokens', Array(4).fill(refused()))
    const e = await failure(client().json({method: 'POST', path: '/tokens', body: {}}))
    expect(calls()).toHaveLength(4)
    expect(e).toMatchObject({code: 'network_error', exitCode: 1})
    expect(e.message).toContain('ECONNREFUSED')
  })

  it('POST reset after it was sent → exit 9 outcome_unknown, exactly one request', async () => {
    on('POST /orgs/acme/eval-sets/es_1/run', [dropConnection()])
    const e = await failure(client().json({method: 'POST', path: '/orgs/acme/eval-sets/es_1/run', body: {}}))
    expect(calls()).toHaveLength(1)
    expect(e).toMatchObject({code: 'outcome_unknown', exitCode: 9})
    expect(e.message).toContain('the server may have accepted the request; check before retrying')
    expect(e.message).toContain(`POST ${ORIGIN}/api/v1/orgs/acme/eval-sets/es_1/run`)
  })

  it('GET reset and GET refused are retried', async () => {
    on('GET /me', [dropConnection()])
    on('GET /me', [refused()])
    on('GET /me', [raw(200, {ok: 1}, JSON_HEADERS)])
    expect(await client().json({method: 'GET', path: '/me'})).toEqual({ok: 1})
    expect(calls()).toHaveLength(3)
  })

  it('GET failing at the network 4 times → exit 1 network_error', async () => {
    on('GET /me', Array(4).fill(dropConnection()))
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(calls()).toHaveLength(4)
    expect(e).toMatchObject({code: 'network_error', exitCode: 1})
  })

  it('an unknown host is not retried', async () => {
    on('GET /me', [Object.assign(new Error('getaddrinfo ENOTFOUND api.test'), {code: 'ENOTFOUND'})])
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(calls()).toHaveLength(1)
    expect(e).toMatchObject({code: 'network_error', exitCode: 1})
  })

  it.each(['GET', 'PUT', 'PATCH', 'DELETE', 'POST'] as Method[])('%s 500 is never retried', async (method) => {
    on(`${method} /x`, [raw(500, envelope('internal', 'kaput'), JSON_HEADERS)])
    const e = await failure(client().json({method, path: '/x'}))
    expect(calls()).toHaveLength(1)
    expect(e).toMatchObject({code: 'internal', status: 500, exitCode: 1, message: 'kaput'})
  })

  it.each([400, 401, 403, 404, 409])('%i is not retried', async (status) => {
    on('GET /x', [raw(status, envelope('whatever', 'no'), JSON_HEADERS)])
    await failure(client().json({method: 'GET', path: '/x'}))
    expect(calls()).toHaveLength(1)
  })
})

describe('waiting between attempts', () => {
  it('uses exponential backoff with full jitter when no Retry-After comes', async () => {
    on('GET /me', Array(3).fill(raw(503, '', {})))
    on('GET /me', [raw(200, {}, JSON_HEADERS)])
    await client().json({method: 'GET', path: '/me'})
    // random() = 0.5 of 500, 1000, 2000 ms
    expect(waits).toEqual([250, 500, 1000])
  })

  it('honours Retry-After in seconds', async () => {
    on('GET /me', [raw(429, envelope('rate_limited', 'x'), {...JSON_HEADERS, 'retry-after': '3'})])
    on('GET /me', [raw(200, {}, JSON_HEADERS)])
    await client().json({method: 'GET', path: '/me'})
    expect(waits).toEqual([3000])
  })

  it("honours Retry-After as an HTTP date, against the clock's time of day", async () => {
    const at = new Date(FAKE_WALL_START + 10_000).toUTCString()
    on('GET /me', [raw(503, '', {'retry-after': at})])
    on('GET /me', [raw(200, {}, JSON_HEADERS)])
    await client().json({method: 'GET', path: '/me'})
    expect(waits).toEqual([10_000])
  })

  it('caps a long Retry-After at 60 s', async () => {
    on('POST /t', [raw(429, '', {'retry-after': '3600'})])
    on('POST /t', [raw(201, {}, JSON_HEADERS)])
    await client().json({method: 'POST', path: '/t', body: {}})
    expect(waits).toEqual([60_000])
  })

  it('waits the backoff when it is larger than Retry-After', async () => {
    on('GET /me', Array(3).fill(raw(429, '', {'retry-after': '0'})))
    on('GET /me', [raw(200, {}, JSON_HEADERS)])
    await client().json({method: 'GET', path: '/me'})
    expect(waits).toEqual([250, 500, 1000])
  })
})

describe('per-request timeout', () => {
  it('GET: each attempt times out, is retried, then exit 1 network_error', async () => {
    on('GET /me', Array(4).fill(timedOut()))
    const e = await failure(client({timeoutMs: 40}).json({method: 'GET', path: '/me'}))
    expect(calls()).toHaveLength(4)
    expect(e).toMatchObject({code: 'network_error', exitCode: 1})
    expect(e.message).toContain('no answer within 0.04 s')
  })

  it('GET: a slow first attempt is retried and the second answer is used', async () => {
    on('GET /me', [timedOut()])
    on('GET /me', [raw(200, {n: 2}, JSON_HEADERS)])
    expect(await client({timeoutMs: 200}).json({method: 'GET', path: '/me'})).toEqual({n: 2})
  })

  it('POST: no answer in time → exit 9 after one attempt', async () => {
    on('POST /tokens', [timedOut()])
    const e = await failure(client({timeoutMs: 40}).json({method: 'POST', path: '/tokens', body: {}}))
    expect(calls()).toHaveLength(1)
    expect(e).toMatchObject({code: 'outcome_unknown', exitCode: 9})
  })
})

describe('error responses', () => {
  it('parses the envelope into code, message, status and request id', async () => {
    on('DELETE /orgs/acme/tags/t1', [raw(409, envelope('conflict', 'tag is in use'), {...JSON_HEADERS, 'x-request-id': 'req_abc'})])
    const e = await failure(client().json({method: 'DELETE', path: '/orgs/acme/tags/t1'}))
    expect(e).toMatchObject({name: 'ApiError', code: 'conflict', message: 'tag is in use', status: 409, requestId: 'req_abc', exitCode: 6})
    expect(e.hint).toBeUndefined()
    expect(e.toDocument()).toEqual({error: {code: 'conflict', message: 'tag is in use', status: 409, requestId: 'req_abc'}})
  })

  it('401 is unauthorized, exit 3 (the presenter adds the login hint)', async () => {
    on('GET /me', [raw(401, envelope('unauthorized', 'token revoked'), JSON_HEADERS)])
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'unauthorized', status: 401, exitCode: 3})
  })

  it('a retired route keeps the server message verbatim', async () => {
    const msg = 'Presets were replaced by eval sets; upgrade amctl (see https://example.test/upgrade)'
    on('GET /orgs/acme/presets', [raw(403, envelope('forbidden', msg), JSON_HEADERS)])
    const e = await failure(client().json({method: 'GET', path: '/orgs/acme/presets'}))
    expect(e).toMatchObject({code: 'forbidden', exitCode: 4, message: msg})
  })

  it('an HTML 502 page → bad_response with the status and ≤200 chars of the body on one line', async () => {
    const html = `<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n${'<p>upstream is down</p>\n'.repeat(30)}</body></html>`
    on('GET /me', Array(4).fill(raw(502, html, {'content-type': 'text/html'})))
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(calls()).toHaveLength(4)
    expect(e).toMatchObject({code: 'bad_response', status: 502, exitCode: 1})
    expect(e.message).toContain('<title>502 Bad Gateway</title>')
    expect(e.message).not.toMatch(/[\r\n]/)
    const quoted = e.message.slice(e.message.indexOf('<html>'))
    expect(quoted.length).toBeLessThanOrEqual(200)
    expect(errorLine(e)).toMatch(/^error: .* \(bad_response, HTTP 502\)$/)
  })

  it.each([
    [400, 2],
    [401, 3],
    [402, 8],
    [403, 4],
    [404, 5],
    [409, 6],
    [418, 1],
  ])('a non-envelope %i body → bad_response, exit by status (%i)', async (status, exit) => {
    on('POST /x', [raw(status, 'Request rejected by the firewall', {'content-type': 'text/plain'})])
    const e = await failure(client().json({method: 'POST', path: '/x', body: {}}))
    expect(e).toMatchObject({code: 'bad_response', status, exitCode: exit})
    expect(e.message).toContain('Request rejected by the firewall')
  })

  it('JSON that is not the envelope is bad_response too', async () => {
    on('GET /x', [raw(404, {message: 'nope'}, JSON_HEADERS)])
    const e = await failure(client().json({method: 'GET', path: '/x'}))
    expect(e).toMatchObject({code: 'bad_response', status: 404, exitCode: 5})
  })
})

describe('malformed success responses', () => {
  it.each([
    ['an empty body', '', JSON_HEADERS],
    ['invalid JSON', '{"items": [1, 2', JSON_HEADERS],
    ['truncated JSON', '{"id":"run_1","status":"que', JSON_HEADERS],
    ['a JSON array', '[{"id":1}]', JSON_HEADERS],
    ['a JSON number', '42', JSON_HEADERS],
    ['JSON null', 'null', JSON_HEADERS],
    ['a JSON string', '"ok"', JSON_HEADERS],
    ['an HTML page', '<html><body>Sign in</body></html>', {'content-type': 'text/html; charset=utf-8'}],
    ['JSON with the wrong content type', '{"id":1}', {'content-type': 'text/html'}],
    ['no content type', '{"id":1}', {}],
  ])('%s → bad_response, exit 1', async (_name, body, headers) => {
    on('GET /me', [raw(200, body, headers as Record<string, string>)])
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(errorLine(e)).not.toMatch(/[\r\n]/)
    expect(calls()).toHaveLength(1)
  })

  // (the limit itself, announced and while reading, and a body of exactly the limit: the network's
  // two ways in test/core/http/transport.integration.test.ts; announced, in process: transport.test.ts)
  it('a body over MAX_BODY_BYTES (32 MiB), refused by the transport: bad_response, exit 1, not retried', async () => {
    on('GET /me', [raw(200, '{}', {...JSON_HEADERS, 'content-length': String(MAX_BODY_BYTES + 1)})])
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(e.message).toContain('larger than 32 MiB')
    expect(calls()).toHaveLength(1)
  })

  it("expect:'any' returns text as text and JSON as JSON", async () => {
    on('GET /doc', [raw(200, '# Title\nbody', {'content-type': 'text/markdown'})])
    on('GET /list', [raw(200, '[1,2]', JSON_HEADERS)])
    expect(await client().json({method: 'GET', path: '/doc', expect: 'any'})).toBe('# Title\nbody')
    expect(await client().json({method: 'GET', path: '/list', expect: 'any'})).toEqual([1, 2])
  })

  it('204 → {}', async () => {
    on('DELETE /orgs/acme/tags/t1', [raw(204, '')])
    const res = await client().send({method: 'DELETE', path: '/orgs/acme/tags/t1'})
    expect(res.status).toBe(204)
    expect(res.data).toEqual({})
  })

  it('returns status, headers and request id with the data', async () => {
    on('GET /me', [raw(200, {a: 1}, {...JSON_HEADERS, 'x-request-id': 'req_9'})])
    const res = await client().send({method: 'GET', path: '/me'})
    expect(res).toMatchObject({status: 200, data: {a: 1}, requestId: 'req_9', contentType: 'application/json'})
  })
})

describe('redirects', () => {
  it('follows a same-origin 307 keeping method, body and token', async () => {
    on('POST /old', [raw(307, '', {location: '/api/v1/new'})])
    on('POST /new', [raw(201, {moved: true}, JSON_HEADERS)])
    expect(await client().json({method: 'POST', path: '/old', body: {a: 1}})).toEqual({moved: true})
    const [first, second] = calls()
    expect(second.fullUrl).toBe(`${ORIGIN}/api/v1/new`)
    expect(second.method).toBe('POST')
    expect(second.body).toBe('{"a":1}')
    expect(second.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(first.fullUrl).toBe(`${ORIGIN}/api/v1/old`)
  })

  it.each([301, 302, 307, 308])('does not follow a %i to another origin, which never sees the token', async (status) => {
    // no stub for the other origin: a request there would fail the test as unmatched
    on('GET /me', [raw(status, '', {location: `${EVIL}/steal`})])
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(e.message).toContain('another origin')
    expect(calls().map((c) => c.origin)).toEqual([ORIGIN])
  })

  it('treats http:// on the same host as another origin', async () => {
    on('GET /me', [raw(302, '', {location: 'http://api.test/api/v1/me'})])
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e.code).toBe('bad_response')
    expect(calls()).toHaveLength(1)
  })

  it('does not turn a POST into a GET on a 302/303', async () => {
    on('POST /x', [raw(303, '', {location: '/api/v1/y'})])
    const e = await failure(client().json({method: 'POST', path: '/x', body: {}}))
    expect(e.code).toBe('bad_response')
    expect(calls()).toHaveLength(1)
  })

  it('a Location that is not a URL is bad_response (exit 1), not an unexpected failure', async () => {
    on('GET /me', [raw(302, '', {location: 'http://[::1'})])
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1, status: 302})
    expect(e.message).toBe('the server answered 302 with a Location that is not a URL: "http://[::1"')
  })

  it('stops a redirect loop', async () => {
    fake.stub('GET /loop', raw(302, '', {location: '/api/v1/loop'}), {origin: ORIGIN})
    const e = await failure(client().json({method: 'GET', path: '/loop'}))
    expect(e).toMatchObject({code: 'bad_response'})
    expect(e.message).toContain('redirects')
    expect(calls().length).toBeLessThanOrEqual(7)
  })
})

describe('answers a renderer could not walk', () => {
  it('JSON nested deeper than 512 levels is bad_response (exit 1), never a stack overflow later', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    on('GET /me', [raw(200, `{"x":${deep}}`, JSON_HEADERS)])
    on('GET /raw', [raw(200, deep, JSON_HEADERS)])
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(e.message).toMatch(/^the response nests arrays and objects deeper than 512 levels/)
    const any = await failure(client().send({method: 'GET', path: '/raw', expect: 'any'}))
    expect(any).toMatchObject({code: 'bad_response', exitCode: 1})
  })

  it('512 levels are fine', async () => {
    const ok = `{"x":${'['.repeat(511)}${']'.repeat(511)}}`
    on('GET /me', [raw(200, ok, JSON_HEADERS)])
    expect(await client().json({method: 'GET', path: '/me'})).toHaveProperty('x')
  })
})

describe('verbose log', () => {
  it('shows method, URL, status, ms and attempt, never the token', async () => {
    on('GET /me', [raw(503, '', {})])
    on('GET /me', [raw(200, {}, {...JSON_HEADERS, 'x-request-id': 'req_7'})])
    await client().json({method: 'GET', path: '/me'})
    const text = logs.join('\n')
    expect(text).not.toContain(TOKEN)
    expect(text).toContain('authorization: Bearer [redacted]')
    const answers = logs.filter((l) => l.startsWith('←'))
    expect(answers).toHaveLength(2)
    expect(answers[0]).toMatch(new RegExp(`^← 503 GET ${ORIGIN}/api/v1/me \\d+ ms attempt 1$`))
    expect(answers[1]).toMatch(new RegExp(`^← 200 GET ${ORIGIN}/api/v1/me \\d+ ms attempt 2 request-id req_7$`))
  })

  it('logs nothing without a log sink', async () => {
    on('GET /me', [raw(200, {}, JSON_HEADERS)])
    await client({log: undefined}).json({method: 'GET', path: '/me'})
    expect(logs).toEqual([])
  })

  it('shows a deviceCode query value as [redacted], in the log and in errors', async () => {
    const code = 'dev_SECRET_code_123'
    on('POST /cli/token', [raw(200, {status: 'pending'}, JSON_HEADERS)])
    on('POST /cli/token', [raw(200, '<html>oops</html>', {'content-type': 'text/html'})])
    on('POST /cli/token', [dropConnection()])
    const c = client()
    const spec = {method: 'POST' as const, path: `/cli/token?deviceCode=${code}`, body: {}, auth: false}
    await c.json(spec)
    const bad = await failure(c.json(spec))
    const unknown = await failure(c.json(spec))
    expect(logs.join('\n')).toContain('deviceCode=[redacted]')
    for (const text of [logs.join('\n'), bad.message, unknown.message]) expect(text).not.toContain(code)
  })
})

describe('redactUrl', () => {
  it('hides the device code (and token-like members) of a query, whatever their case, and nothing else', async () => {
    const {redactUrl} = await import('../../../src/core/http/client.js')
    expect(redactUrl('https://h.example/api/v1/cli/token?deviceCode=AB12-secret&x=1')).toBe(
      'https://h.example/api/v1/cli/token?deviceCode=[redacted]&x=1',
    )
    expect(redactUrl('/device?x=1&DEVICECODE=abc#frag')).toBe('/device?x=1&DEVICECODE=[redacted]#frag')
    expect(redactUrl('/a?access_token=t1&token=t2')).toBe('/a?access_token=[redacted]&token=[redacted]')
    expect(redactUrl('/orgs/acme/runs?limit=5')).toBe('/orgs/acme/runs?limit=5')
  })
})
