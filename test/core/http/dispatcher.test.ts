import {createServer, type IncomingMessage} from 'node:http'
import {connect, type AddressInfo, type Socket} from 'node:net'
import {afterEach, describe, expect, it} from 'vitest'
import {HttpClient} from '../../../src/core/http/client.js'
import {closeDispatcher, dispatcherFor, proxyOptions} from '../../../src/core/http/dispatcher.js'
import {networkTransport} from '../../../src/core/http/transport.js'
import {systemClock} from '../../../src/core/clock.js'
import {fakeClock} from '../../helpers/fake-clock.js'
import {sendJson, startServer} from '../../helpers/http-server.js'

afterEach(async () => {
  await closeDispatcher()
})

describe('dispatcher', () => {
  it('is one shared agent per process until closed', async () => {
    const first = await dispatcherFor('https://api.test', {})
    expect(await dispatcherFor('https://other.test', {})).toBe(first)
    await closeDispatcher()
    expect(await dispatcherFor('https://api.test', {})).not.toBe(first)
  })

  it("takes the proxy variables from the run's environment, as undici reads them (lower case first, empty is none)", () => {
    expect(proxyOptions({})).toEqual({httpProxy: '', httpsProxy: '', noProxy: ''})
    expect(proxyOptions({HTTP_PROXY: 'http://a:1', https_proxy: 'http://b:1', HTTPS_PROXY: 'http://c:1', NO_PROXY: 'x.test'})).toEqual({
      httpProxy: 'http://a:1',
      httpsProxy: 'http://b:1',
      noProxy: 'x.test',
    })
    expect(proxyOptions({https_proxy: '', HTTPS_PROXY: 'http://c:1', no_proxy: '', NO_PROXY: 'x.test'})).toEqual({
      httpProxy: '',
      httpsProxy: '',
      noProxy: '',
    })
  })

  it("honours HTTP_PROXY of the run's environment, and nothing of process.env (the request goes through a CONNECT tunnel of the proxy)", async () => {
    const upstream = await startServer((_req, res) => sendJson(res, 200, {via: 'proxy'}))
    const tunnels: string[] = []
    const proxy = createServer()
    proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '')
      const up = connect(Number(new URL(upstream.url).port), '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        up.write(head)
        up.pipe(client)
        client.pipe(up)
      })
      up.on('error', () => client.destroy())
      client.on('error', () => up.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const ambient = process.env.NO_PROXY
    // what the process's environment says is not the run's: undici would go direct for every host
    process.env.NO_PROXY = '*'
    try {
      await closeDispatcher()
      const client = new HttpClient({
        baseUrl: 'http://api.proxied.test',
        timeoutMs: 2000,
        userAgent: 'amctl/test',
        token: async () => 'svc_p',
        transport: networkTransport({HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`}),
        clock: fakeClock(),
      })
      expect(await client.json({method: 'GET', path: '/me'})).toEqual({via: 'proxy'})
      expect(tunnels).toEqual(['api.proxied.test:80'])
      expect(upstream.requests).toHaveLength(1)
      expect(upstream.requests[0].path).toBe('/api/v1/me')
      expect(upstream.requests[0].headers.host).toBe('api.proxied.test')
    } finally {
      if (ambient === undefined) delete process.env.NO_PROXY
      else process.env.NO_PROXY = ambient
      await closeDispatcher()
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
      await upstream.close()
    }
  })

  it('never sends a loopback request through a proxy, whatever HTTP_PROXY and NO_PROXY say (contract 1.6)', async () => {
    const trap = createServer((_req, res) => res.writeHead(502).end())
    const seen: string[] = []
    trap.on('request', (req: IncomingMessage) => seen.push(`${req.method} ${req.url}`))
    trap.on('connect', (req: IncomingMessage, client: Socket) => {
      seen.push(`CONNECT ${req.url}`)
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')
    })
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve))
    const upstream = await startServer((_req, res) => sendJson(res, 200, {direct: true}))
    try {
      const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`
      await closeDispatcher()
      const port = new URL(upstream.url).port
      for (const base of [upstream.url, `http://localhost:${port}`]) {
        const client = new HttpClient({
          baseUrl: base,
          timeoutMs: 2000,
          userAgent: 'amctl/test',
          token: async () => 'svc_loop',
          transport: networkTransport({HTTP_PROXY: trapUrl, HTTPS_PROXY: trapUrl}),
          clock: fakeClock(),
        })
        expect(await client.json({method: 'GET', path: '/me'})).toEqual({direct: true})
      }
      expect(upstream.requests).toHaveLength(2)
      expect(seen).toEqual([])
    } finally {
      await closeDispatcher()
      trap.closeAllConnections()
      await new Promise((resolve) => trap.close(resolve))
      await upstream.close()
    }
  })

  it('a proxy that refuses the tunnel (407): a POST is "not sent", exit 1, and is not retried', async () => {
    const connects: string[] = []
    const proxy = createServer()
    proxy.on('connect', (req: IncomingMessage, client: Socket) => {
      connects.push(req.url ?? '')
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n')
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    try {
      await closeDispatcher()
      const waits: number[] = []
      const client = new HttpClient({
        baseUrl: 'https://api.remote.test',
        timeoutMs: 2000,
        userAgent: 'amctl/test',
        token: async () => 'svc_407',
        transport: networkTransport({HTTPS_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`}),
        clock: {...systemClock, sleep: async (ms) => void waits.push(ms)},
      })
      const e = await client.json({method: 'POST', path: '/tokens', body: {}}).catch((error: unknown) => error)
      expect(e).toMatchObject({code: 'network_error', exitCode: 1})
      expect((e as Error).message).toContain('the proxy refused the connection (HTTP 407: it needs credentials)')
      expect(connects).toEqual(['api.remote.test:443'])
      expect(waits).toEqual([])
    } finally {
      await closeDispatcher()
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
  })
})
