import {describe, expect, it} from 'vitest'
import {ApiError, BadResponseError} from '../../../src/core/errors.js'
import {jsonDepth, MAX_JSON_DEPTH, parseBody, parseEnvelope, snippet, statusError} from '../../../src/core/http/response.js'
import type {RawResponse} from '../../../src/core/http/transport.js'

// Reading an answer: the error envelope, success bodies, what is refused as bad_response.
const raw = (status: number, text: string, headers: Record<string, string> = {'content-type': 'application/json'}): RawResponse => ({
  status,
  statusText: '',
  headers,
  text,
})

function bad(fn: () => unknown): BadResponseError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(BadResponseError)
    return error as BadResponseError
  }
  throw new Error('expected bad_response')
}

describe('statusError', () => {
  it('the envelope gives code, message, status and request id', () => {
    const e = statusError(raw(409, '{"error":{"code":"conflict","message":"taken"}}', {'x-request-id': 'req_1'}))
    expect(e).toBeInstanceOf(ApiError)
    expect(e).toMatchObject({code: 'conflict', message: 'taken', status: 409, requestId: 'req_1', exitCode: 6})
  })

  it("a code the contract's table does not have keeps it, and the status decides the exit code: 501 (the dev server's not_implemented) is 1", () => {
    const e = statusError(raw(501, '{"error":{"code":"not_implemented","message":"the dev server has no handler for listRunLogs"}}'))
    expect(e).toMatchObject({code: 'not_implemented', status: 501, exitCode: 1, message: 'the dev server has no handler for listRunLogs'})
  })

  it('anything else is bad_response quoting up to 200 characters of the body on one line', () => {
    const e = statusError(raw(502, `<html>\n${'x'.repeat(500)}`, {'content-type': 'text/html'}))
    expect(e).toMatchObject({code: 'bad_response', status: 502})
    expect(e.message).toMatch(/^HTTP 502 with a body that is not the error envelope: <html> x+$/)
    expect(e.message.length).toBeLessThan(280)
    expect(statusError(raw(500, '')).message).toBe('HTTP 500 with a body that is not the error envelope: (empty)')
  })

  it('parseEnvelope wants string code and message', () => {
    expect(parseEnvelope('{"error":{"code":"x","message":"y"}}')).toEqual({code: 'x', message: 'y'})
    expect(parseEnvelope('{"error":{"code":1,"message":"y"}}')).toBeUndefined()
    expect(parseEnvelope('null')).toBeUndefined()
    expect(parseEnvelope('not json')).toBeUndefined()
  })

  it('snippet is one line of at most 200 characters', () => {
    expect(snippet(`a\r\nb\t${'c'.repeat(300)}`)).toHaveLength(200)
    expect(snippet('a\nb')).not.toMatch(/\n/)
  })
})

describe('parseBody', () => {
  it("'object': a JSON object (also +json types); 204 is {}", () => {
    expect(parseBody(raw(200, '{"a":1}'), 'object', 'GET /x')).toEqual({a: 1})
    expect(parseBody(raw(200, '{"a":1}', {'content-type': 'application/problem+json; charset=utf-8'}), 'object', 'GET /x')).toEqual({a: 1})
    expect(parseBody(raw(204, ''), 'object', 'DELETE /x')).toEqual({})
  })

  it.each([
    ['an empty body', raw(200, ''), 'HTTP 200 with an empty body where a JSON object was expected (GET /x)'],
    ['another content type', raw(200, '{}', {'content-type': 'text/html'}), 'expected a JSON response, got text/html: {} (GET /x)'],
    ['no content type', raw(200, '{}', {}), 'expected a JSON response, got no content type: {} (GET /x)'],
    ['an array', raw(200, '[1]'), 'expected a JSON object, got an array (GET /x)'],
    ['a number', raw(200, '42'), 'expected a JSON object, got 42 (GET /x)'],
  ])('%s is bad_response naming the request', (_name, response, message) => {
    expect(bad(() => parseBody(response, 'object', 'GET /x')).message).toBe(message)
  })

  it('invalid JSON quotes the parser and the body', () => {
    expect(bad(() => parseBody(raw(200, '{"a":'), 'object', 'GET /x')).message).toMatch(/^the response is not valid JSON \(.+\): \{"a":/)
  })

  it("'any': JSON as JSON, other types as text, a broken JSON body refused", () => {
    expect(parseBody(raw(200, '[1,2]'), 'any', 'GET /x')).toEqual([1, 2])
    expect(parseBody(raw(200, '# doc', {'content-type': 'text/markdown'}), 'any', 'GET /x')).toBe('# doc')
    expect(parseBody(raw(200, ''), 'any', 'GET /x')).toBe('')
    expect(bad(() => parseBody(raw(200, '[1,'), 'any', 'GET /x')).message).toMatch(/^the response says it is JSON but is not valid JSON/)
  })

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels; ${MAX_JSON_DEPTH} is fine`, () => {
    const nested = (n: number) => `{"x":${'['.repeat(n - 1)}${']'.repeat(n - 1)}}`
    expect(parseBody(raw(200, nested(MAX_JSON_DEPTH)), 'object', 'GET /x')).toHaveProperty('x')
    expect(bad(() => parseBody(raw(200, nested(MAX_JSON_DEPTH + 1)), 'object', 'GET /x')).message).toMatch(/deeper than 512 levels/)
  })

  it('jsonDepth skips brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[[\\"]]"}')).toBe(1)
    expect(jsonDepth('[[{}],[]]')).toBe(3)
    expect(jsonDepth('"just a string"')).toBe(0)
  })
})
