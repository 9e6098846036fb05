import {afterAll, describe, expect, it} from 'vitest'
import {HttpClient, MAX_BODY_BYTES, type ClientOptions} from '../../../src/core/http/client.js'
import {routePath, withQuery} from '../../../src/core/http/path.js'
import {networkTransport} from '../../../src/core/http/transport.js'
import {failure} from '../../helpers/failure.js'
import {fakeClock} from '../../helpers/fake-clock.js'
import {useNock} from '../../helpers/nock.js'

// The client's loop over the real network transport (node:http), in process: nock answers below
// node:http, so these are the requests amctl writes and what it makes of the answers and failures
// nock can give (exit codes, retries), with no socket. The loop's own rules against made-up
// answers are client.test.ts's (the fake API); what needs a socket (a refused port, a connection
// reset or an answer cut off by a real server, timeouts, the server seeing a request given up)
// is client-network.integration.test.ts's.

const net = useNock()
const ORIGIN = 'https://api.test'
const API = `${ORIGIN}/api/v1`
const TOKEN = 'svc_network_token_5678'
const UA = 'amctl/1.2.3 node/v20.20.2 linux'
const network = networkTransport({})
afterAll(() => network.close())

let clock = fakeClock()
function client(opts: Partial<ClientOptions> = {}): HttpClient {
  clock = fakeClock()
  return new HttpClient({
    baseUrl: ORIGIN,
    timeoutMs: 5000,
    userAgent: UA,
    token: async () => TOKEN,
    transport: network,
    clock,
    random: () => 0.5,
    ...opts,
  })
}

const JSON_TYPE = {'Content-Type': 'application/json'}
const coded = (code: string, message: string) => Object.assign(new Error(message), {code})
const reset = () => coded('ECONNRESET', 'socket hang up')
const refused = () => coded('ECONNREFUSED', 'connect ECONNREFUSED 203.0.113.7:443')
/** the headers of the requests sent, without the ones node:http and nock's stand-in agent add */
const headersSent = () => net.sent().map(({headers: {host, connection, ...rest}}) => rest)

describe('the request on the wire', () => {
  it('a GET: accept, User-Agent and the bearer token to the configured host; path and query as the api layer encodes them', async () => {
    const path = withQuery(routePath('getVariantContent', {org: 'ac/me', experimentId: 'exp 1', variantId: 'vär?#'}), {
      cursor: 'a b&c=d',
      limit: 5,
    })
    const wire = '/api/v1/orgs/ac%2Fme/experiments/exp%201/variants/v%C3%A4r%3F%23/content?cursor=a+b%26c%3Dd&limit=5'
    net.origin(ORIGIN).get(wire).reply(200, {ok: true}, JSON_TYPE)
    expect(await client().json({method: 'GET', path})).toEqual({ok: true})
    expect(net.sent().map((r) => [r.method, r.url, r.body])).toEqual([['GET', `${ORIGIN}${wire}`, '']])
    expect(headersSent()).toEqual([{accept: 'application/json', 'user-agent': UA, authorization: `Bearer ${TOKEN}`}])
  })

  it('a POST: the JSON body as UTF-8, its length in bytes and its content type', async () => {
    net.origin(ORIGIN).post('/api/v1/tokens').reply(201, {id: 'tok_1'}, JSON_TYPE)
    await client().json({method: 'POST', path: '/tokens', body: {name: 'ümlaut ✓', expiresIn: '30d'}})
    const body = '{"name":"ümlaut ✓","expiresIn":"30d"}'
    expect(net.sent().map((r) => r.body)).toEqual([body])
    expect(headersSent()).toEqual([
      {
        accept: 'application/json',
        'user-agent': UA,
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
    ])
  })

  it('auth: false (the one unauthenticated endpoint): no Authorization, and the token is never asked for', async () => {
    net.origin(ORIGIN).post('/api/v1/cli/token').reply(200, {status: 'pending'}, JSON_TYPE)
    const c = client({
      token: async () => {
        throw new Error('the token must not be resolved for an unauthenticated request')
      },
    })
    await c.json({method: 'POST', path: '/cli/token', body: {}, auth: false})
    expect(headersSent()[0]).not.toHaveProperty('authorization')
  })

  it('a base URL with a path prefix keeps it before /api/v1', async () => {
    net.origin(ORIGIN).get('/prefix/api/v1/me').reply(200, {}, JSON_TYPE)
    await client({baseUrl: `${ORIGIN}/prefix`}).json({method: 'GET', path: '/me'})
    expect(net.sent()[0].url).toBe(`${ORIGIN}/prefix/api/v1/me`)
  })
})

describe('redirects (node:http follows none; the client follows them within its origin only)', () => {
  it('a same-origin 307 is followed with its method, body and token', async () => {
    net
      .origin(ORIGIN)
      .post('/api/v1/old')
      .reply(307, '', {Location: '/api/v1/new'})
      .post('/api/v1/new')
      .reply(201, {moved: true}, JSON_TYPE)
    expect(await client().json({method: 'POST', path: '/old', body: {a: 1}})).toEqual({moved: true})
    expect(net.sent().map((r) => [r.method, r.url, r.body, r.headers.authorization])).toEqual([
      ['POST', `${API}/old`, '{"a":1}', `Bearer ${TOKEN}`],
      ['POST', `${API}/new`, '{"a":1}', `Bearer ${TOKEN}`],
    ])
  })

  it.each([301, 302, 307, 308])('a %i to another host is not followed: that host gets no request, so never the token', async (status) => {
    // (no interceptor for the other host: a request there would fail the test as unmatched)
    net.origin(ORIGIN).get('/api/v1/me').reply(status, '', {Location: 'https://evil.test/steal'})
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(e.message).toContain('another origin')
    expect(net.sent().map((r) => r.url)).toEqual([`${API}/me`])
  })
})

describe('failures → exit codes and retries (contract 1.6)', () => {
  it('a GET reset (ECONNRESET) is retried, and the next answer is used', async () => {
    net.origin(ORIGIN).get('/api/v1/me').replyWithError(reset()).get('/api/v1/me').reply(200, {n: 2}, JSON_TYPE)
    expect(await client().json({method: 'GET', path: '/me'})).toEqual({n: 2})
    expect(net.sent()).toHaveLength(2)
    expect(clock.sleeps).toEqual([250])
  })

  it('a POST reset after it was sent: exit 9 outcome_unknown, and it is never sent again', async () => {
    // (one interceptor: a second POST would fail the test as unmatched)
    net.origin(ORIGIN).post('/api/v1/orgs/acme/eval-sets/es_1/run').replyWithError(reset())
    const e = await failure(client().json({method: 'POST', path: '/orgs/acme/eval-sets/es_1/run', body: {}}))
    expect(e).toMatchObject({code: 'outcome_unknown', exitCode: 9})
    expect(e.message).toContain(`POST ${API}/orgs/acme/eval-sets/es_1/run`)
    expect(e.message).toContain('ECONNRESET')
    expect(net.sent()).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
  })

  it.each(['GET', 'POST'] as const)(
    'a %s refused (ECONNREFUSED: nothing was sent) is retried 3 times, then exit 1 network_error',
    async (method) => {
      const scope = net.origin(ORIGIN)
      ;(method === 'GET' ? scope.get('/api/v1/tokens') : scope.post('/api/v1/tokens')).times(4).replyWithError(refused())
      const e = await failure(client().json({method, path: '/tokens', body: method === 'POST' ? {} : undefined}))
      expect(e).toMatchObject({code: 'network_error', exitCode: 1})
      expect(e.message).toContain('ECONNREFUSED')
      expect(net.sent()).toHaveLength(4)
      expect(clock.sleeps).toEqual([250, 500, 1000])
    },
  )

  it('an unknown host (ENOTFOUND) is not retried: exit 1 network_error', async () => {
    net.origin(ORIGIN).get('/api/v1/me').replyWithError(coded('ENOTFOUND', 'getaddrinfo ENOTFOUND api.test'))
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'network_error', exitCode: 1})
    expect(net.sent()).toHaveLength(1)
  })

  it('a 503 with Retry-After: retried after the time it says', async () => {
    net
      .origin(ORIGIN)
      .get('/api/v1/me')
      .reply(503, {error: {code: 'unavailable', message: 'busy'}}, {...JSON_TYPE, 'Retry-After': '2'})
      .get('/api/v1/me')
      .reply(200, {}, JSON_TYPE)
    await client().json({method: 'GET', path: '/me'})
    expect(clock.sleeps).toEqual([2000])
  })
})

describe('answers read over the wire', () => {
  it('an error envelope: its code and message, the status, the request id, the exit code of the status', async () => {
    net
      .origin(ORIGIN)
      .delete('/api/v1/orgs/acme/tags/t1')
      .reply(409, {error: {code: 'conflict', message: 'tag is in use'}}, {...JSON_TYPE, 'X-Request-Id': 'req_abc'})
    const e = await failure(client().json({method: 'DELETE', path: '/orgs/acme/tags/t1'}))
    expect(e).toMatchObject({code: 'conflict', message: 'tag is in use', status: 409, requestId: 'req_abc', exitCode: 6})
  })

  it.each([
    ['truncated JSON', '{"id":"run_1","status":"que'],
    ['invalid JSON', '{"items": [1, 2'],
    ['an empty body', ''],
  ])('%s in a 200: bad_response, exit 1, not retried', async (_, body) => {
    net.origin(ORIGIN).get('/api/v1/me').reply(200, body, JSON_TYPE)
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(net.sent()).toHaveLength(1)
  })

  it('an answer announced over 32 MiB: bad_response, exit 1, not retried', async () => {
    net
      .origin(ORIGIN)
      .get('/api/v1/me')
      .reply(200, '{}', {...JSON_TYPE, 'Content-Length': String(MAX_BODY_BYTES + 1)})
    const e = await failure(client().json({method: 'GET', path: '/me'}))
    expect(e).toMatchObject({code: 'bad_response', exitCode: 1})
    expect(e.message).toContain('larger than 32 MiB')
    expect(net.sent()).toHaveLength(1)
  })
})

describe('requests amctl could not send (contract 1.6: exit 1, never 9, not retried; nothing goes out)', () => {
  // (no interceptor in these: a request that went out would fail the test as unmatched)
  it('a header undici refuses (Upgrade) on a POST', async () => {
    const e = await failure(client().json({method: 'POST', path: '/tokens', body: {}, headers: {upgrade: 'websocket'}}))
    expect(e).toMatchObject({code: 'network_error', exitCode: 1})
    expect(e.message).toContain('invalid upgrade header')
    expect(clock.sleeps).toEqual([])
  })

  it.each([
    ['Expect: 100-continue (not supported)', 'POST', {expect: '100-continue'}, 'UND_ERR_NOT_SUPPORTED'],
    ['Expect: 100-continue on a GET', 'GET', {expect: '100-continue'}, 'UND_ERR_NOT_SUPPORTED'],
    ["a Content-Length that is not the body's", 'POST', {'content-length': '3'}, 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH'],
  ] as const)('%s', async (_, method, headers, code) => {
    const e = await failure(client().json({method, path: '/tokens', body: method === 'POST' ? {a: 1} : undefined, headers}))
    expect(e).toMatchObject({code: 'network_error', exitCode: 1})
    expect(e.message).toContain(code)
    expect(clock.sleeps).toEqual([])
  })
})

describe('a request the caller gives up (RequestSpec.signal: a wait’s Ctrl-C)', () => {
  it('while it is out: rejects with the reason at once, not retried', async () => {
    const giveUp = new AbortController()
    net
      .origin(ORIGIN)
      .get('/api/v1/runs')
      .reply(() => {
        giveUp.abort(new Error('Ctrl-C'))
        return [503, '']
      })
    await expect(client().json({method: 'GET', path: '/runs', signal: giveUp.signal})).rejects.toThrow('Ctrl-C')
    expect(clock.sleeps).toEqual([])
  })

  it('during the back-off before a retry: the back-off is given the signal, and no other attempt is sent', async () => {
    net.origin(ORIGIN).get('/api/v1/runs').reply(503, '')
    const giveUp = new AbortController()
    const backOffs: Array<AbortSignal | undefined> = []
    const sleep = async (_ms: number, signal?: AbortSignal) => {
      backOffs.push(signal)
      giveUp.abort(new Error('Ctrl-C'))
    }
    const c = client({clock: {...fakeClock(), sleep}})
    await expect(c.json({method: 'GET', path: '/runs', signal: giveUp.signal})).rejects.toThrow('Ctrl-C')
    expect(backOffs).toEqual([giveUp.signal])
    expect(net.sent()).toHaveLength(1)
  })

  it('already given up: nothing is sent', async () => {
    const giveUp = new AbortController()
    giveUp.abort(new Error('Ctrl-C'))
    await expect(client().json({method: 'GET', path: '/runs', signal: giveUp.signal})).rejects.toThrow('Ctrl-C')
  })
})
