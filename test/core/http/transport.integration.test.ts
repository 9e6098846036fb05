import {createServer, type Socket} from 'node:net'
import type {AddressInfo} from 'node:net'
import {createServer as createHttpServer} from 'node:http'
import {Agent, EnvHttpProxyAgent} from 'undici'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi} from 'vitest'
import {BadResponseError} from '../../../src/core/errors.js'
import {type Attempt, AttemptTimeout, MAX_BODY_BYTES, networkTransport, sendWithUndici} from '../../../src/core/http/transport.js'
import {thrown} from '../../helpers/failure.js'
import {startServer, type TestServer} from '../../helpers/http-server.js'
import {blockThread, startIdleServer} from '../../helpers/idle-server.js'

// One attempt on the network, against real servers on this machine: given up at the timeout and
// the body read up to MAX_BODY_BYTES at full size, the same through node:http (every request
// without a proxy) and through undici (with one); and what the undici way sends and answers.
// node:http's wire, answers and refusals are tested in process, with nock: transport.test.ts and
// node-http.test.ts. (Commands send through the fake API's transport: test/helpers/fake-api.ts.)

let server: TestServer
const big = 'a'.repeat(MAX_BODY_BYTES + 1)
beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.path === '/api/v1/x?q=1') {
      res.writeHead(201, {'Content-Type': 'text/plain; charset=utf-8', 'X-Request-Id': 'req_1'})
      res.end('héllo')
    } else if (req.path === '/api/v1/slow') {
      // the answer starts, and never ends
      res.writeHead(200, {'content-type': 'application/json'})
      res.write('{')
    } else if (req.path === '/api/v1/announced') {
      res.writeHead(200, {'content-length': String(big.length)})
      res.end(big)
    } else if (req.path === '/api/v1/streamed') {
      res.writeHead(200)
      res.end(big)
    } else if (req.path === '/api/v1/max') {
      res.writeHead(200)
      res.end('b'.repeat(MAX_BODY_BYTES))
    } else {
      res.writeHead(200, {'content-type': 'application/json'})
      res.end('{}')
    }
  })
})
afterAll(() => server.close())

/** A TCP server that takes connections and says nothing (a TLS handshake never ends). */
async function silent(): Promise<{url: string; close: () => Promise<void>}> {
  const sockets: Socket[] = []
  const tcp = createServer((socket) => sockets.push(socket))
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve))
  const {port} = tcp.address() as AddressInfo
  return {
    url: `https://127.0.0.1:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => tcp.close(resolve))
    },
  }
}

describe.each(['node:http', 'undici'] as const)('one attempt through %s', (way) => {
  // (undici against a server on this machine: a dispatcher of the test's, as no proxy applies to loopback)
  const agent = new Agent()
  afterAll(async () => {
    await agent.close()
    await networkTransport({}).close()
  })
  const send = (attempt: Attempt) =>
    way === 'undici' ? sendWithUndici(new URL(attempt.url), attempt, {}, agent) : networkTransport({}).send(attempt)
  const get = (path: string, timeoutMs = 5000, origin = server.url) =>
    send({url: `${origin}${path}`, method: 'GET', headers: {accept: 'application/json'}, body: undefined, timeoutMs})

  it('an answer that starts but does not finish in time: AttemptTimeout, sent', async () => {
    const error = await thrown(get('/api/v1/slow', 100))
    expect(error).toBeInstanceOf(AttemptTimeout)
    expect((error as AttemptTimeout).sent).toBe(true)
  })

  it('a request that never gets going (a TLS handshake that never ends) ends at the timeout anyway: AttemptTimeout, not sent', async () => {
    const tcp = await silent()
    try {
      const error = await thrown(get('/api/v1/never', 100, tcp.url))
      expect(error).toBeInstanceOf(AttemptTimeout)
      expect((error as AttemptTimeout).sent).toBe(false)
    } finally {
      await tcp.close()
    }
  })

  it('the same when the event loop was busy as the attempt started, its timeout due before the request was handed on', async () => {
    const tcp = await silent()
    try {
      const pending = thrown(get('/api/v1/never', 1, tcp.url))
      // (a loaded machine, or the first request loading undici: the timeout fires in the next turn)
      blockThread(20)
      const error = await pending
      expect(error).toBeInstanceOf(AttemptTimeout)
      expect((error as AttemptTimeout).sent).toBe(false)
    } finally {
      await tcp.close()
    }
  })

  it('refuses a body over MAX_BODY_BYTES (32 MiB) by its content-length, and while reading one without', async () => {
    for (const path of ['/api/v1/announced', '/api/v1/streamed']) {
      const error = await thrown(get(path))
      expect(error).toBeInstanceOf(BadResponseError)
      expect((error as BadResponseError).message).toBe('the response body is larger than 32 MiB; refusing to read it')
    }
  })

  it('reads a body of exactly MAX_BODY_BYTES', async () => {
    expect((await get('/api/v1/max')).text).toHaveLength(MAX_BODY_BYTES)
  })
})

describe('one attempt through undici (what node:http sends and answers: transport.test.ts, in process)', () => {
  const agent = new Agent()
  afterAll(() => agent.close())
  const send = (attempt: Attempt) => sendWithUndici(new URL(attempt.url), attempt, {}, agent)

  it('returns status, lower-cased headers and the body as text', async () => {
    const res = await send({
      url: `${server.url}/api/v1/x?q=1`,
      method: 'GET',
      headers: {accept: 'application/json'},
      body: undefined,
      timeoutMs: 5000,
    })
    expect(res).toMatchObject({status: 201, text: 'héllo'})
    expect(res.headers).toMatchObject({'content-type': 'text/plain; charset=utf-8', 'x-request-id': 'req_1'})
    expect(server.requests.at(-1)).toMatchObject({method: 'GET', path: '/api/v1/x?q=1', headers: {accept: 'application/json'}})
  })

  it('sends the body it is given', async () => {
    const body = '{"a":1}'
    await send({url: `${server.url}/api/v1/t`, method: 'POST', headers: {'content-type': 'application/json'}, body, timeoutMs: 5000})
    expect(server.requests.at(-1)?.body).toBe(body)
  })

  it('refuses what undici refuses before anything is sent (UND_ERR_NOT_SUPPORTED for Expect)', async () => {
    const before = server.requests.length
    const error = await thrown(
      send({url: `${server.url}/api/v1/t`, method: 'POST', headers: {expect: '100-continue'}, body: '{}', timeoutMs: 5000}),
    )
    expect(error).toMatchObject({code: 'UND_ERR_NOT_SUPPORTED', message: 'expect header not supported'})
    expect(server.requests).toHaveLength(before)
  })
})

describe.each(['node:http', 'undici'] as const)('a kept-alive connection through %s, against a server that closes idle ones', (way) => {
  // amctl's own agents (undici's for loopback: the one a proxy variable would not change)
  afterEach(() => networkTransport({}).close())
  const send = (attempt: Attempt) =>
    way === 'undici' ? sendWithUndici(new URL(attempt.url), attempt, {}) : networkTransport({}).send(attempt)
  const request = (origin: string, method: 'GET' | 'POST', path: string) =>
    send({
      url: `${origin}${path}`,
      method,
      headers: {accept: 'application/json', ...(method === 'POST' ? {'content-type': 'application/json'} : {})},
      body: method === 'POST' ? '{}' : undefined,
      timeoutMs: 5000,
    })

  it.each([
    ['closes', false],
    ['resets', true],
  ])(
    'a connection the server %s while amctl was busy (its event loop blocked) is not used again: the next request gets a new one',
    async (_, reset) => {
      const server = await startIdleServer({idleMs: 50, reset})
      try {
        expect((await request(server.url, 'GET', '/api/v1/runs')).status).toBe(200)
        server.pauseUntilClosed(1)
        const launched = await request(server.url, 'POST', '/api/v1/orgs/acme/eval-sets/es_1/run')
        expect([launched.status, server.posts(), server.connections()]).toEqual([201, 1, 2])
      } finally {
        await server.close()
      }
    },
  )

  it('a connection idle longer than the Keep-Alive: timeout= the server announced, less a second, is not used again, even when amctl was busy', async () => {
    // the server announces 3 s and never closes on its own: amctl keeps a connection 2 s (long
    // enough that the second request reuses it even on a loaded machine)
    const server = await startIdleServer({idleMs: 0, keepAlive: 'timeout=3'})
    try {
      await request(server.url, 'GET', '/api/v1/runs')
      await request(server.url, 'GET', '/api/v1/runs')
      expect(server.connections()).toBe(1)
      blockThread(2100)
      await request(server.url, 'POST', '/api/v1/orgs/acme/eval-sets/es_1/run')
      expect([server.requests(), server.connections()]).toEqual([3, 2])
    } finally {
      await server.close()
    }
  })
})

describe('the undici way through a proxy that drops every CONNECT (undici asks it again at once, and acts on an abort only once connected)', () => {
  const url = new URL('https://api.example.com/api/v1/orgs/acme/summary')
  const get = (proxy: string, timeoutMs: number) =>
    sendWithUndici(
      url,
      {url: url.href, method: 'GET', headers: {accept: 'application/json'}, body: undefined, timeoutMs},
      {HTTPS_PROXY: proxy},
    )
  let proxy: {url: string; connects: () => number; close: () => Promise<void>}
  beforeEach(async () => {
    const server = createHttpServer((_req, res) => res.writeHead(502).end())
    let connects = 0
    server.on('connect', (_req, socket: Socket) => {
      connects += 1
      socket.destroy()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    proxy = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      connects: () => connects,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    }
  })
  afterEach(async () => {
    await networkTransport({}).close()
    await proxy.close()
  })

  it('ends at the timeout: AttemptTimeout, not sent', async () => {
    // (long enough for the proxy to be asked on a loaded machine)
    const error = await thrown(get(proxy.url, 500))
    expect(error).toBeInstanceOf(AttemptTimeout)
    expect((error as AttemptTimeout).sent).toBe(false)
    expect(proxy.connects()).toBeGreaterThan(0)
  })

  it('ends at the timeout when the event loop was busy as the attempt started (its timeout would have been due before the request was handed to undici)', async () => {
    // before the fix the abort came before anything listened for it; undici only recorded it,
    // and the attempt went on asking the proxy until killed
    const pending = thrown(get(proxy.url, 1))
    blockThread(20)
    const error = await pending
    expect(error).toBeInstanceOf(AttemptTimeout)
    expect((error as AttemptTimeout).sent).toBe(false)
  })

  it('ends at the timeout even when destroying the agent it gave up never settles', async () => {
    const stuck: EnvHttpProxyAgent[] = []
    const destroy = vi.spyOn(EnvHttpProxyAgent.prototype, 'destroy').mockImplementation(function (this: EnvHttpProxyAgent) {
      stuck.push(this)
      return new Promise<void>(() => {})
    } as EnvHttpProxyAgent['destroy'])
    try {
      const error = await thrown(get(proxy.url, 100))
      expect(error).toBeInstanceOf(AttemptTimeout)
      expect((error as AttemptTimeout).sent).toBe(false)
      expect(destroy).toHaveBeenCalledTimes(1)
    } finally {
      destroy.mockRestore()
      await Promise.all(stuck.map((agent) => agent.destroy()))
    }
  })
})
