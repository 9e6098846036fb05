import {describe, expect, it} from 'vitest'
import type {Attempt} from '../../../src/core/http/attempt.js'
import {sendWithNodeHttp} from '../../../src/core/http/node-http.js'
import {thrown} from '../../helpers/failure.js'
import {useNock} from '../../helpers/nock.js'

// The node:http way of one attempt, in process: nock answers below node:http (no socket), so what
// is checked is what node:http wrote and what amctl made of the answer. What needs a socket (one
// kept-alive connection, the connect timeout, the attempt timeout, a connection dropped or an
// answer cut off) is in node-http.integration.test.ts: nock 15 delays an answer by a timer of its
// own (node:timers, taken when it loads: a fake clock cannot move it) and holds back the
// connection with it, so a delayed answer would look like a connection never made.

const net = useNock()
const ORIGIN = 'https://api.test'

const send = (url: string, more: Partial<Attempt> = {}) =>
  sendWithNodeHttp(new URL(url), {url, method: 'GET', headers: {accept: 'application/json'}, body: undefined, timeoutMs: 5000, ...more})

describe('the request on the wire', () => {
  const headers = {accept: 'application/json', 'user-agent': 'amctl/1.2.3 node/v20 linux', authorization: 'Bearer svc_wire'}

  it.each(['https://api.test', 'http://127.0.0.1:4010'])(
    '%s: method, path and query as given, the headers given and no more, a body with its length in bytes',
    async (origin) => {
      // (a path and query already encoded, as src/core/http/path.ts makes them: written as they are)
      const path = '/api/v1/orgs/ac%2Fme/runs?q=a%20b&tag=%C3%BC&next=x%26y'
      net.origin(origin).get(path).reply(200, '{}').post(path).reply(201, '{}').delete(path).reply(204)
      await send(`${origin}${path}`, {headers})
      const body = '{"name":"ümlaut"}'
      await send(`${origin}${path}`, {method: 'POST', headers: {...headers, 'content-type': 'application/json'}, body})
      await send(`${origin}${path}`, {method: 'DELETE', headers})
      const host = new URL(origin).host
      // (connection: nock's stand-in agent says close; amctl's keep-alive is node-http.integration.test.ts's)
      const wire = net.sent().map(({headers: {connection, ...rest}, ...request}) => ({...request, headers: rest}))
      expect(wire).toEqual([
        {method: 'GET', url: `${origin}${path}`, headers: {...headers, host}, body: ''},
        {
          method: 'POST',
          url: `${origin}${path}`,
          headers: {...headers, host, 'content-type': 'application/json', 'content-length': '18'},
          body,
        },
        {method: 'DELETE', url: `${origin}${path}`, headers: {...headers, host}, body: ''},
      ])
    },
  )

  it('a POST without a body says so: content-length 0', async () => {
    net.origin(ORIGIN).post('/api/v1/x').reply(200, '{}')
    await send(`${ORIGIN}/api/v1/x`, {method: 'POST'})
    expect(net.sent()[0]).toMatchObject({method: 'POST', body: '', headers: {'content-length': '0'}})
  })
})

describe('the answer', () => {
  it('status, status text, headers by lower-case name (a repeated one joined in order), the body as UTF-8 text', async () => {
    net
      .origin(ORIGIN)
      .get('/api/v1/x')
      .reply(201, 'héllo ✓', ['Content-Type', 'text/plain; charset=utf-8', 'X-Request-Id', 'req_1', 'X-Warn', 'a', 'x-warn', 'b'])
    const res = await send(`${ORIGIN}/api/v1/x`)
    expect(res).toMatchObject({status: 201, statusText: 'Created', text: 'héllo ✓'})
    expect(res.headers).toMatchObject({'content-type': 'text/plain; charset=utf-8', 'x-request-id': 'req_1', 'x-warn': 'a, b'})
  })

  it('an answer without a body: the empty text', async () => {
    net.origin(ORIGIN).delete('/api/v1/x').reply(204)
    expect(await send(`${ORIGIN}/api/v1/x`, {method: 'DELETE'})).toMatchObject({status: 204, text: ''})
  })

  it('a redirect comes back as it came, not followed (the client decides: only within its origin)', async () => {
    // (no interceptor for the other host: a request there would fail the test as unmatched)
    net.origin(ORIGIN).get('/api/v1/x').reply(302, '', {Location: 'https://evil.test/steal'})
    const res = await send(`${ORIGIN}/api/v1/x`, {headers: {authorization: 'Bearer svc_secret'}})
    expect(res).toMatchObject({status: 302, headers: {location: 'https://evil.test/steal'}})
    expect(net.sent()).toHaveLength(1)
  })
})

describe('failures', () => {
  it.each([
    ['ECONNRESET', 'socket hang up'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 203.0.113.7:443'],
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND api.test'],
    ['EPIPE', 'write EPIPE'],
  ])('%s: thrown as node:http gives it, with its code (what failure.ts reads)', async (code, message) => {
    net
      .origin(ORIGIN)
      .get('/api/v1/x')
      .replyWithError(Object.assign(new Error(message), {code}))
    expect(await thrown(send(`${ORIGIN}/api/v1/x`))).toMatchObject({code, message})
  })

  it('the caller gives up while the request is out: it rejects at once with the reason', async () => {
    const giveUp = new AbortController()
    net
      .origin(ORIGIN)
      .get('/api/v1/x')
      .reply(() => {
        giveUp.abort(new Error('Ctrl-C'))
        return [200, '{}']
      })
    const error = await thrown(send(`${ORIGIN}/api/v1/x`, {signal: giveUp.signal}))
    expect(error).toBe(giveUp.signal.reason)
  })

  it('the caller gave up before: it rejects with the reason and nothing is sent', async () => {
    const giveUp = new AbortController()
    giveUp.abort(new Error('Ctrl-C'))
    // (no interceptor: a request sent would fail the test as unmatched)
    expect(await thrown(send(`${ORIGIN}/api/v1/x`, {signal: giveUp.signal}))).toBe(giveUp.signal.reason)
  })
})
