// The failure modes that need a real socket: a refused port, a reset after the request was
// written, a body cut off mid-way, a server that does not answer in time, a server that sees a
// request given up end. What the client writes and makes of the answers and errors nock can
// give (in process, no socket) is client-network.test.ts's.
import {createServer} from 'node:net'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {HttpClient} from '../../../src/core/http/client.js'
import {closeDispatcher} from '../../../src/core/http/dispatcher.js'
import {systemClock} from '../../../src/core/clock.js'
import {sendJson, startServer, type Recorded, type TestServer} from '../../helpers/http-server.js'
import type {ServerResponse} from 'node:http'
import {failure} from '../../helpers/failure.js'
import {startIdleServer} from '../../helpers/idle-server.js'
import {networkTransport, sendWithUndici} from '../../../src/core/http/transport.js'

let server: TestServer
let answer: (req: Recorded, res: ServerResponse) => void
let waits: number[]

beforeAll(async () => {
  server = await startServer((req, res) => answer(req, res))
})
afterAll(async () => {
  await closeDispatcher()
  await server.close()
})
beforeEach(() => {
  server.requests.length = 0
  waits = []
})

function client(baseUrl = server.url, timeoutMs = 2000): HttpClient {
  return new HttpClient({
    baseUrl,
    timeoutMs,
    userAgent: 'amctl/test',
    token: async () => 'svc_net',
    transport: networkTransport({}),
    clock: {
      ...systemClock,
      sleep: async (ms) => {
        waits.push(ms)
      },
    },
    random: () => 0,
  })
}

/** A port on 127.0.0.1 with nothing listening. */
async function closedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const {port} = s.address() as AddressInfo
  await new Promise((resolve) => s.close(resolve))
  return port
}

/** Headers promising 1000 bytes, 10 of them, then the connection dropped. */
function cutOff(_req: Recorded, res: ServerResponse): void {
  res.writeHead(200, {'content-type': 'application/json', 'content-length': '1000'})
  res.write('{"items":[')
  setTimeout(() => res.socket?.destroy(), 10)
}

describe('real network failures', () => {
  it('connection refused: GET and POST are retried, then exit 1 network_error', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const get = await failure(client(url).json({method: 'GET', path: '/me'}))
    expect(get).toMatchObject({code: 'network_error', exitCode: 1})
    expect(waits).toHaveLength(3)
    waits = []
    const post = await failure(client(url).json({method: 'POST', path: '/tokens', body: {}}))
    expect(post).toMatchObject({code: 'network_error', exitCode: 1})
    expect(waits).toHaveLength(3)
  })

  it('connection refused on localhost (several addresses tried) is still "refused": a POST is retried', async () => {
    const url = `http://localhost:${await closedPort()}`
    const post = await failure(client(url).json({method: 'POST', path: '/tokens', body: {}}))
    expect(post).toMatchObject({code: 'network_error', exitCode: 1})
    expect(waits).toHaveLength(3)
  })

  it('POST whose connection is reset after sending → exit 9, exactly one request', async () => {
    answer = (_req, res) => res.socket?.destroy()
    const e = await failure(client().json({method: 'POST', path: '/orgs/acme/eval-sets/es_1/run', body: {}}))
    expect(e).toMatchObject({code: 'outcome_unknown', exitCode: 9})
    expect(server.requests).toHaveLength(1)
  })

  it('POST whose body is cut off → exit 9, exactly one request', async () => {
    answer = cutOff
    const e = await failure(client().json({method: 'POST', path: '/tokens', body: {}}))
    expect(e).toMatchObject({code: 'outcome_unknown', exitCode: 9})
    expect(server.requests).toHaveLength(1)
  })

  it('GET whose body is cut off is retried', async () => {
    answer = (req, res) => (server.requests.length === 1 ? cutOff(req, res) : sendJson(res, 200, {items: []}))
    expect(await client().json({method: 'GET', path: '/runs'})).toEqual({items: []})
    expect(server.requests).toHaveLength(2)
  })

  it('a server that never answers: GET retried then exit 1, POST exit 9 after one attempt', async () => {
    // a server of its own, so that no kept-alive connection of another test is reused: each
    // attempt is then a connection of its own (a timed-out one is destroyed), counted as the
    // server accepts it, which on a loaded machine may come after the client's 50 ms are up
    const silent = await startServer(() => {}) // holds every request
    let connections = 0
    silent.server.on('connection', () => {
      connections++
    })
    const accepted = async (n: number) => {
      while (connections < n) await new Promise((resolve) => setTimeout(resolve, 5))
      return connections
    }
    try {
      const get = await failure(client(silent.url, 50).json({method: 'GET', path: '/me'}))
      expect(get).toMatchObject({code: 'network_error', exitCode: 1})
      expect(waits).toHaveLength(3)
      expect(await accepted(4)).toBe(4)
      connections = 0
      // (long enough for the connection to be made even on a loaded machine: a POST that never
      // got one was not sent, exit 1, and that is not what this case is about)
      const post = await failure(client(silent.url, 500).json({method: 'POST', path: '/tokens', body: {}}))
      expect(post).toMatchObject({code: 'outcome_unknown', exitCode: 9})
      expect(post.message).toContain('the server may have accepted the request; check before retrying')
      expect(waits).toHaveLength(3)
      expect(await accepted(1)).toBe(1)
    } finally {
      await silent.close()
    }
  })
})

describe('a request the caller gives up (RequestSpec.signal: a wait’s Ctrl-C)', () => {
  /** Holds every request and resolves, per request, when its connection closes. */
  function holdAndWatchClose(): Promise<void>[] {
    const closed: Promise<void>[] = []
    answer = (_req, res) => {
      closed.push(new Promise((resolve) => res.once('close', () => resolve())))
    }
    return closed
  }
  const arrived = async (count: number) => {
    while (server.requests.length < count) await new Promise((resolve) => setImmediate(resolve))
  }

  it.each([
    ['node:http', undefined],
    ['undici', 'undici'],
  ])('%s: the attempt in flight is destroyed at once, rejects with the reason, and is not retried', async (_, way) => {
    const closed = holdAndWatchClose()
    const {Agent} = await import('undici')
    const dispatcher = way === 'undici' ? new Agent() : undefined
    const c = new HttpClient({
      baseUrl: server.url,
      timeoutMs: 60_000,
      userAgent: 'amctl/test',
      transport:
        dispatcher === undefined
          ? networkTransport({})
          : {send: (attempt) => sendWithUndici(new URL(attempt.url), attempt, {}, dispatcher), close: () => dispatcher.close()},
      clock: {...systemClock, sleep: async (ms) => void waits.push(ms)},
    })
    const giveUp = new AbortController()
    const pending = c.json({method: 'GET', path: '/runs', signal: giveUp.signal})
    await arrived(1)
    giveUp.abort(new Error('Ctrl-C'))
    await expect(pending).rejects.toThrow('Ctrl-C')
    await closed[0] // the server sees the connection end (before: only at the 60 s timeout)
    expect(server.requests).toHaveLength(1)
    expect(waits).toEqual([])
    await dispatcher?.close()
  })
})

describe('a kept-alive connection the server closed while amctl was busy', () => {
  it('a launch after a long computation (the event loop blocked past the server’s idle timeout) is sent on a new connection and answered: not exit 9', async () => {
    // (the gate judging a large step takes seconds of CPU between two requests)
    const idle = await startIdleServer({idleMs: 50})
    try {
      await client(idle.url).json({method: 'GET', path: '/orgs/acme/runs'})
      idle.pauseUntilClosed(1)
      const launched = await client(idle.url).json({method: 'POST', path: '/orgs/acme/eval-sets/es_1/run', body: {}})
      expect(launched).toEqual({method: 'POST', path: '/api/v1/orgs/acme/eval-sets/es_1/run'})
      expect([idle.posts(), idle.connections(), waits]).toEqual([1, 2, []])
    } finally {
      await idle.close()
    }
  })
})
