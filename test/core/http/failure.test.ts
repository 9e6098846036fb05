import {describe, expect, it} from 'vitest'
import {classifyFailure, errorCode} from '../../../src/core/http/failure.js'
import {AttemptTimeout} from '../../../src/core/http/transport.js'

// What a failed attempt means (contract 1.6): sent or not (a POST sent without an answer has an
// unknown outcome), worth retrying or not, and one line to say it.
const coded = (message: string, code: string, cause?: unknown) => Object.assign(new Error(message), {code, cause})

describe('classifyFailure', () => {
  it('a timeout after the connection: sent, retryable, "no answer within"', () => {
    expect(classifyFailure(new AttemptTimeout(true), 1500)).toMatchObject({
      failure: {kind: 'timeout'},
      sent: true,
      permanent: false,
      message: 'no answer within 1.5 s',
    })
  })

  it('a timeout before any connection: not sent, "no connection within"', () => {
    expect(classifyFailure(new AttemptTimeout(false), 1000)).toMatchObject({
      failure: {kind: 'network', refused: false},
      sent: false,
      message: 'no connection within 1 s',
    })
  })

  it.each([
    ['ECONNREFUSED', false, false, true],
    ['ENOTFOUND', false, true, false],
    ['EAI_AGAIN', false, false, false],
    ['EHOSTUNREACH', false, false, false],
    ['UND_ERR_CONNECT_TIMEOUT', false, false, false],
    ['CERT_HAS_EXPIRED', false, true, false],
    ['ERR_TLS_CERT_ALTNAME_INVALID', false, true, false],
    ['ECONNRESET', true, false, false],
    ['EPIPE', true, false, false],
  ])('%s: sent %s, permanent %s, refused %s', (code, sent, permanent, refused) => {
    const failed = classifyFailure(coded(`boom ${code}`, code), 1000)
    expect(failed).toMatchObject({sent, permanent, failure: {kind: 'network', refused}})
    expect(failed.message).toBe(`boom ${code}`)
  })

  it('finds the code of a socket error undici wraps, and names it when the message does not', () => {
    const wrapped = coded('other side closed', 'UND_ERR_SOCKET', coded('read ECONNRESET', 'ECONNRESET'))
    expect(errorCode(wrapped)).toBe('ECONNRESET')
    expect(classifyFailure(wrapped, 1000)).toMatchObject({sent: true, message: 'other side closed (ECONNRESET)'})
    const many = Object.assign(new Error('connect failed'), {errors: [coded('x', 'ECONNREFUSED')]})
    expect(classifyFailure(many, 1000)).toMatchObject({sent: false, failure: {refused: true}})
  })

  it('an error without a code counts as sent (the safe side for a POST)', () => {
    expect(classifyFailure(new Error('weird'), 1000)).toMatchObject({sent: true, permanent: false, message: 'weird'})
    expect(classifyFailure('text', 1000)).toMatchObject({sent: true, message: 'text'})
    expect(classifyFailure(new Error(''), 1000).message).toBe('connection failed')
  })

  it('a proxy refusing CONNECT: not sent; 407 is permanent and says credentials', () => {
    expect(classifyFailure(new Error('Proxy response (502) !== 200 when HTTP Tunneling'), 1000)).toMatchObject({
      sent: false,
      permanent: false,
      message: 'the proxy refused the connection (HTTP 502)',
    })
    expect(classifyFailure(new Error('Proxy response (407) !== 200 when HTTP Tunneling'), 1000)).toMatchObject({
      sent: false,
      permanent: true,
      message: 'the proxy refused the connection (HTTP 407: it needs credentials)',
    })
  })

  it('keeps the message on one line', () => {
    expect(classifyFailure(coded('line one\nline two', 'ECONNRESET'), 1000).message).not.toMatch(/\n/)
  })
})
