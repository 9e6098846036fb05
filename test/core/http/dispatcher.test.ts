import {createServer, type IncomingMessage} from 'node:http'
import {connect, type AddressInfo, type Socket} from 'node:net'
import {MockAgent} from 'undici'
import {afterEach, describe, expect, it} from 'vitest'
import {HttpClient} from '../../../src/core/http/client.js'
import {closeDispatcher, dispatcherFor, setDispatcher} from '../../../src/core/http/dispatcher.js'
import {sendJson, startServer} from '../../helpers/http-server.js'

afterEach(async () => {
  setDispatcher(undefined)
  delete process.env.HTTP_PROXY
  await closeDispatcher()
})

describe('dispatcher', () => {
  it('is one shared agent per process until closed', async () => {
    const first = dispatcherFor('https://api.test')
    expect(dispatcherFor('https://other.test')).toBe(first)
    await closeDispatcher()
    expect(dispatcherFor('https://api.test')).not.toBe(first)
  })

  it('setDispatcher routes every client request through the given dispatcher', async () => {
    const mock = new MockAgent()
    mock.disableNetConnect()
    mock.get('https://api.test').intercept({path: '/api/v1/me', method: 'GET'}).reply(200, {via: 'mock'}, {headers: {'content-type': 'application/json'}})
    setDispatcher(mock)
    expect(dispatcherFor('https://api.test')).toBe(mock)
    const client = new HttpClient({baseUrl: 'https://api.test', timeoutMs: 1000, userAgent: 'amctl/test'})
    expect(await client.json({method: 'GET', path: '/me'})).toEqual({via: 'mock'})
    mock.assertNoPendingInterceptors()
    await mock.close()
  })

  it('honours HTTP_PROXY (the request goes through a CONNECT tunnel of the proxy)', async () => {
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
    try {
      process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
      await closeDispatcher()
      const client = new HttpClient({
        baseUrl: 'http://api.proxied.test',
        timeoutMs: 2000,
        userAgent: 'amctl/test',
        token: async () => 'svc_p',
        sleep: async () => {},
      })
      expect(await client.json({method: 'GET', path: '/me'})).toEqual({via: 'proxy'})
      expect(tunnels).toEqual(['api.proxied.test:80'])
      expect(upstream.requests).toHaveLength(1)
      expect(upstream.requests[0].path).toBe('/api/v1/me')
      expect(upstream.requests[0].headers.host).toBe('api.proxied.test')
    } finally {
      await closeDispatcher()
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
      await upstream.close()
    }
  })
})
