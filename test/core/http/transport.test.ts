import {getGlobalDispatcher} from 'undici'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {BadResponseError} from '../../../src/core/errors.js'
import {setDispatcher} from '../../../src/core/http/dispatcher.js'
import {AttemptTimeout, MAX_BODY_BYTES, sendAttempt, throughUndici} from '../../../src/core/http/transport.js'
import {ORIGIN, useFakeApi} from '../../helpers/fake-api.js'

// One attempt: sent, given up at the timeout, the body read up to MAX_BODY_BYTES; the same
// through node:http (every request without a proxy) and through undici (with one), both
// answered by nock.
const api = useFakeApi({}, {me: false})
const attempt = (path: string, timeoutMs = 5000) =>
  sendAttempt({url: `${ORIGIN}${path}`, method: 'GET', headers: {accept: 'application/json'}, body: undefined, timeoutMs}, {})

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (error: unknown) => error,
  )
}

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
})

describe.each(['node:http', 'undici'])('sendAttempt through %s', (way) => {
  beforeEach(() => {
    // (nock answers undici through the global dispatcher)
    if (way === 'undici') setDispatcher(getGlobalDispatcher())
  })
  afterEach(() => setDispatcher(undefined))

  it('returns status, lower-cased headers and the body as text', async () => {
    api.scope().get('/api/v1/x?q=1').reply(201, 'héllo', {'Content-Type': 'text/plain; charset=utf-8', 'X-Request-Id': 'req_1'})
    const res = await attempt('/api/v1/x?q=1')
    expect(res).toMatchObject({status: 201, text: 'héllo'})
    expect(res.headers).toMatchObject({'content-type': 'text/plain; charset=utf-8', 'x-request-id': 'req_1'})
    expect(api.requests()[0]).toMatchObject({method: 'GET', path: '/api/v1/x?q=1', headers: {accept: 'application/json'}})
  })

  it('sends the body it is given', async () => {
    api.scope().post('/api/v1/t', '{"a":1}').reply(200, {})
    await sendAttempt(
      {
        url: `${ORIGIN}/api/v1/t`,
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: '{"a":1}',
        timeoutMs: 5000,
      },
      {},
    )
    expect(api.requests()[0].body).toBe('{"a":1}')
  })

  it('an answer that starts but does not finish in time: AttemptTimeout, sent', async () => {
    api.scope().get('/api/v1/slow').delay(60_000).reply(200, {})
    const error = await thrown(attempt('/api/v1/slow', 50))
    expect(error).toBeInstanceOf(AttemptTimeout)
    expect((error as AttemptTimeout).sent).toBe(true)
  })

  it('a request that never gets going ends at the timeout anyway: AttemptTimeout, not sent', async () => {
    // the reply never comes, so the request is never connected: undici only records the abort
    api
      .scope()
      .get('/api/v1/never')
      .reply(() => new Promise(() => {}))
    const error = await thrown(attempt('/api/v1/never', 50))
    expect(error).toBeInstanceOf(AttemptTimeout)
    expect((error as AttemptTimeout).sent).toBe(false)
  })

  it('refuses a body over MAX_BODY_BYTES (32 MiB) by its content-length, and while reading one without', async () => {
    const big = 'a'.repeat(MAX_BODY_BYTES + 1)
    api
      .scope()
      .get('/api/v1/announced')
      .reply(200, big, {'content-length': String(big.length)})
    api.scope().get('/api/v1/streamed').reply(200, big)
    for (const path of ['/api/v1/announced', '/api/v1/streamed']) {
      const error = await thrown(attempt(path))
      expect(error).toBeInstanceOf(BadResponseError)
      expect((error as BadResponseError).message).toBe('the response body is larger than 32 MiB; refusing to read it')
    }
  })

  it('refuses what undici refuses before anything is sent (UND_ERR_NOT_SUPPORTED for Expect)', async () => {
    const error = await thrown(
      sendAttempt({url: `${ORIGIN}/api/v1/t`, method: 'POST', headers: {expect: '100-continue'}, body: '{}', timeoutMs: 5000}, {}),
    )
    expect(error).toMatchObject({code: 'UND_ERR_NOT_SUPPORTED', message: 'expect header not supported'})
    expect(api.requests()).toEqual([])
  })

  it('reads a body of exactly MAX_BODY_BYTES', async () => {
    api.scope().get('/api/v1/max').reply(200, 'b'.repeat(MAX_BODY_BYTES))
    expect((await attempt('/api/v1/max')).text).toHaveLength(MAX_BODY_BYTES)
  })
})
