import {afterAll, describe, expect, it} from 'vitest'
import {BadResponseError} from '../../../src/core/errors.js'
import {type Attempt, MAX_BODY_BYTES, networkTransport, throughUndici} from '../../../src/core/http/transport.js'
import {thrown} from '../../helpers/failure.js'
import {useNock} from '../../helpers/nock.js'

// The network transport a run's world hands down, in process: which way a request takes, what it
// refuses to send, and the answer's size limit, with nock answering below node:http (no socket).
// The undici way (a proxy) and what needs a socket (timeouts) are in transport.integration.test.ts.

const net = useNock()
const ORIGIN = 'https://api.test'
const network = networkTransport({})
afterAll(() => network.close())

const get = (url: string, more: Partial<Attempt> = {}) =>
  network.send({url, method: 'GET', headers: {accept: 'application/json'}, body: undefined, timeoutMs: 5000, ...more})

describe('which way', () => {
  it('undici when a proxy variable is set and the host is not loopback; node:http otherwise', () => {
    const remote = new URL('https://api.example.com/x')
    expect(throughUndici(remote, {})).toBe(false)
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) {
      expect(throughUndici(remote, {[name]: 'http://proxy:3128'}), name).toBe(true)
      expect(throughUndici(new URL('http://127.0.0.1:4010/x'), {[name]: 'http://proxy:3128'}), name).toBe(false)
      expect(throughUndici(new URL('http://localhost:4010/x'), {[name]: 'http://proxy:3128'}), name).toBe(false)
      expect(throughUndici(new URL('http://[::1]:4010/x'), {[name]: 'http://proxy:3128'}), name).toBe(false)
    }
    expect(throughUndici(remote, {HTTPS_PROXY: ''})).toBe(false)
  })

  it('no proxy variable: node:http sends it (nock answers there)', async () => {
    net.origin(ORIGIN).get('/api/v1/me').reply(200, '{}')
    expect(await get(`${ORIGIN}/api/v1/me`)).toMatchObject({status: 200, text: '{}'})
    expect(net.sent()).toHaveLength(1)
  })

  it('a loopback host with a proxy variable set: node:http still, no proxy asked', async () => {
    net.origin('http://127.0.0.1:4010').get('/api/v1/me').reply(200, '{}')
    const proxied = networkTransport({HTTPS_PROXY: 'http://proxy.test:3128', HTTP_PROXY: 'http://proxy.test:3128'})
    const url = 'http://127.0.0.1:4010/api/v1/me'
    expect(await proxied.send({url, method: 'GET', headers: {}, body: undefined, timeoutMs: 5000})).toMatchObject({status: 200})
    expect(net.sent().map((r) => r.url)).toEqual([url])
    await proxied.close()
  })
})

describe('what amctl does not send (as undici refuses it): nothing goes out', () => {
  // (no interceptor: a request that went out would fail the test as unmatched)
  it.each([
    ['Expect: 100-continue', 'GET', {expect: '100-continue'}, undefined, 'UND_ERR_NOT_SUPPORTED'],
    ['Upgrade', 'POST', {upgrade: 'websocket'}, '{}', 'UND_ERR_INVALID_ARG'],
    ['a header value with a line break', 'GET', {'x-a': 'one\r\ntwo'}, undefined, 'UND_ERR_INVALID_ARG'],
    ["a Content-Length that is not the body's", 'POST', {'content-length': '3'}, '{"a":1}', 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH'],
  ])('%s: refused with %s, %s', async (_, method, headers, body, code) => {
    expect(await thrown(get(`${ORIGIN}/api/v1/x`, {method, headers, body}))).toMatchObject({code})
  })
})

describe('the answer read up to MAX_BODY_BYTES (32 MiB)', () => {
  // (a body read past the limit, and one of exactly the limit: transport.integration.test.ts, a
  // capacity at full size, half a second of 32 MiB through nock)
  it('a body announced larger: refused by its Content-Length, before it is read', async () => {
    net
      .origin(ORIGIN)
      .get('/api/v1/announced')
      .reply(200, '{}', {'Content-Length': String(MAX_BODY_BYTES + 1)})
    const error = await thrown(get(`${ORIGIN}/api/v1/announced`))
    expect(error).toBeInstanceOf(BadResponseError)
    expect(error).toMatchObject({message: 'the response body is larger than 32 MiB; refusing to read it'})
  })
})
