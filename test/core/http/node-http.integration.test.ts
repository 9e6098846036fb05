import {createServer, type Socket} from 'node:net'
import type {AddressInfo} from 'node:net'
import {Agent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {AttemptTimeout} from '../../../src/core/http/attempt.js'
import {closeAgents, sendWithNodeHttp} from '../../../src/core/http/node-http.js'
import {sendWithUndici} from '../../../src/core/http/transport.js'
import {thrown} from '../../helpers/failure.js'
import {sendJson, startServer} from '../../helpers/http-server.js'

// The node:http way, against real sockets: the same bytes on the wire as undici's, one
// kept-alive connection per process, the connect timeout and "sent" as undici has them. What
// node:http writes and makes of an answer or an error, in process: node-http.test.ts (nock).

afterEach(() => closeAgents())

const get = (url: string, more: {timeoutMs?: number; connectTimeoutMs?: number} = {}) =>
  sendWithNodeHttp(new URL(url), {url, method: 'GET', headers: {accept: 'application/json'}, body: undefined, timeoutMs: 2000, ...more})

/** A TCP server that takes connections and says nothing (a TLS handshake never ends). */
async function silent(): Promise<{url: (scheme: string) => string; close: () => Promise<void>}> {
  const sockets: Socket[] = []
  const server = createServer((socket) => sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  return {
    url: (scheme) => `${scheme}://127.0.0.1:${port}/x`,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

describe('sendWithNodeHttp', () => {
  it('puts on the wire what undici puts there: method, path and query, headers, body, its length', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {}))
    const undici = new Agent()
    try {
      const headers = {accept: 'application/json', 'user-agent': 'amctl/test', authorization: 'Bearer svc_wire'}
      const sent = []
      for (const [method, body, more] of [
        ['GET', undefined, {}],
        ['POST', '{"name":"ümlaut"}', {'content-type': 'application/json'}],
        ['POST', undefined, {}],
        ['DELETE', undefined, {}],
      ] as const) {
        for (const way of ['node:http', 'undici']) {
          const url = `${server.url}/api/v1/x?q=1&b=%2F`
          const attempt = {url, method, headers: {...headers, ...more}, body, timeoutMs: 2000}
          if (way === 'undici') await sendWithUndici(new URL(url), attempt, {}, undici)
          else await sendWithNodeHttp(new URL(url), attempt)
          const {method: m, path, headers: h, body: b} = server.requests.at(-1) ?? {headers: {}}
          const {host, connection, ...rest} = h
          sent.push({way, m, path, rest, b})
        }
      }
      for (let i = 0; i < sent.length; i += 2) expect({...sent[i], way: ''}).toEqual({...sent[i + 1], way: ''})
      expect(sent[2]).toMatchObject({m: 'POST', b: '{"name":"ümlaut"}', rest: {'content-length': '18'}})
      expect(sent[4]).toMatchObject({m: 'POST', b: '', rest: {'content-length': '0'}})
    } finally {
      await undici.close()
      await server.close()
    }
  })

  it('keeps the connection alive: two requests, one connection; closeAgents ends it', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, {ok: true}, {'x-request-id': 'req_1'}))
    let connections = 0
    server.server.on('connection', () => connections++)
    try {
      const first = await get(`${server.url}/a`)
      expect(first).toMatchObject({status: 200, statusText: 'OK', text: '{"ok":true}'})
      expect(first.headers).toMatchObject({'content-type': 'application/json', 'x-request-id': 'req_1'})
      // (node:http hands the socket back to the agent on a later tick than the answer's end)
      await new Promise((resolve) => setImmediate(resolve))
      await get(`${server.url}/b`)
      expect(connections).toBe(1)
      expect(server.requests.map((r) => r.headers.connection)).toEqual(['keep-alive', 'keep-alive'])
      closeAgents()
      await get(`${server.url}/c`)
      expect(connections).toBe(2)
    } finally {
      await server.close()
    }
  })

  it('a TLS handshake that never ends: the connect timeout, UND_ERR_CONNECT_TIMEOUT, as undici says it', async () => {
    const server = await silent()
    try {
      const error = await thrown(get(server.url('https'), {connectTimeoutMs: 100}))
      expect(error.code).toBe('UND_ERR_CONNECT_TIMEOUT')
      expect(error.message).toMatch(/^Connect Timeout Error \(attempted address: 127\.0\.0\.1:\d+, timeout: 100ms\)$/)
    } finally {
      await server.close()
    }
  })

  it('the attempt timeout before the connection is made: not sent; after it: sent', async () => {
    const server = await silent()
    try {
      const secure = await thrown(get(server.url('https'), {timeoutMs: 100}))
      expect(secure).toBeInstanceOf(AttemptTimeout)
      expect((secure as unknown as AttemptTimeout).sent).toBe(false)
      // plain http: connected at once, the request written, no answer
      const plain = await thrown(get(server.url('http'), {timeoutMs: 100}))
      expect(plain).toBeInstanceOf(AttemptTimeout)
      expect((plain as unknown as AttemptTimeout).sent).toBe(true)
    } finally {
      await server.close()
    }
  })
})
