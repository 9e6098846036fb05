import {Agent} from 'undici'
import {describe, expect, it} from 'vitest'
import {headerRecord, refusal} from '../../../src/core/http/attempt.js'

// What both ways of sending refuse, as undici refuses it: the same codes and messages.

/**
 * What undici itself throws for these headers: it checks them before it connects, so a request
 * it lets through fails only then, at a connector that makes no connection (NOT_CONNECTED).
 */
async function undiciRefusal(method: string, headers: Record<string, string>, body?: string): Promise<{code?: string; message: string}> {
  const agent = new Agent({
    connect: (_options, done) => done(Object.assign(new Error('no connection in a unit test'), {code: 'NOT_CONNECTED'}), null),
  })
  try {
    await agent.request({origin: 'http://api.example', path: '/x', method: method as 'GET', headers, body})
    return {message: 'answered'}
  } catch (error) {
    const e = error as {code?: string; message: string}
    return {code: e.code, message: e.message}
  } finally {
    await agent.close()
  }
}

describe('refusal: the requests amctl does not send', () => {
  it.each([
    ['upgrade', {upgrade: 'websocket'}],
    ['transfer-encoding', {'transfer-encoding': 'chunked'}],
    ['keep-alive', {'keep-alive': 'timeout=5'}],
    ['expect', {expect: '100-continue'}],
    ['a connection header that is not tokens', {connection: 'close, ()'}],
    ['a header name that is not a token', {'x y': '1'}],
    ['a value with a line break', {'x-a': 'one\r\ntwo'}],
    ['a value with NUL', {'x-a': 'a\u0000b'}],
    ['a content-length that is not a number', {'content-length': '1e3'}],
  ])('%s: undici refuses it, with the same code and message', async (_, headers) => {
    const theirs = await undiciRefusal('POST', headers, '{}')
    expect(theirs.code).toMatch(/^UND_ERR_/)
    const ours = refusal({method: 'POST', headers, body: '{}'})
    expect({code: (ours as {code?: string})?.code, message: ours?.message}).toEqual(theirs)
  })

  it('a Content-Length that is not the body’s, where a length is sent: UND_ERR_REQ_CONTENT_LENGTH_MISMATCH', () => {
    expect(refusal({method: 'POST', headers: {'content-length': '3'}, body: '{"a":1}'})).toMatchObject({
      code: 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
      message: 'Request body length does not match content-length header',
    })
    expect(refusal({method: 'POST', headers: {'content-length': '7'}, body: '{"a":1}'})).toBeUndefined()
    expect(refusal({method: 'GET', headers: {'content-length': '3'}, body: '{"a":1}'})).toBeUndefined()
  })

  it('what amctl sends every day passes, as undici lets it', async () => {
    const headers = {accept: 'application/json', 'user-agent': 'amctl/0.1.0 node/v20 linux', authorization: 'Bearer svc_x', 'x-a': 'ümlaut'}
    expect(refusal({method: 'GET', headers, body: undefined})).toBeUndefined()
    expect(
      refusal({method: 'POST', headers: {...headers, connection: 'keep-alive', 'content-type': 'application/json'}, body: '{}'}),
    ).toBeUndefined()
    expect((await undiciRefusal('GET', headers)).code).toBe('NOT_CONNECTED')
  })
})

describe('headerRecord', () => {
  it('lower-case names; a repeated header joined with ", " in the order it came, as undici gives it', () => {
    expect(headerRecord(['Content-Type', 'application/json', 'X-A', '1', 'x-a', '2', 'Content-Type', 'text/plain'])).toEqual({
      'content-type': 'application/json, text/plain',
      'x-a': '1, 2',
    })
  })
})
