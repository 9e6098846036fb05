import {errorLine} from '../../src/output/present.js'
import {describe, expect, it} from 'vitest'
import {
  AmctlError,
  ApiError,
  BadResponseError,
  exitCodeFor,
  exitCodeForStatus,
  isAmctlError,
  NetworkError,
  NotLoggedInError,
  OUTCOME_UNKNOWN_MESSAGE,
  OutcomeUnknownError,
  UsageError,
} from '../../src/core/errors.js'

describe('exit codes', () => {
  it.each([
    ['invalid_request', 2],
    ['unauthorized', 3],
    ['forbidden', 4],
    ['not_found', 5],
    ['conflict', 6],
    ['rate_limited', 7],
    ['insufficient_credits', 8],
    ['needs_provider_key', 8],
  ])('envelope code %s → exit %i, whatever the status', (code, exit) => {
    expect(exitCodeFor(code)).toBe(exit)
    // the code decides even when the status would say otherwise
    expect(exitCodeFor(code, 500)).toBe(exit)
    expect(new ApiError('m', {code, status: 418}).exitCode).toBe(exit)
  })

  it.each([
    [400, 2],
    [401, 3],
    [402, 8],
    [403, 4],
    [404, 5],
    [409, 6],
    [429, 7],
    [405, 1],
    [422, 1],
    [500, 1],
    [502, 1],
    [503, 1],
    [200, 1],
  ])('a code that is not in the table falls back to the status: %i → exit %i', (status, exit) => {
    expect(exitCodeForStatus(status)).toBe(exit)
    expect(exitCodeFor('something_new', status)).toBe(exit)
    expect(new ApiError('m', {code: 'something_new', status}).exitCode).toBe(exit)
  })

  it('an unknown code without a status is exit 1', () => {
    expect(exitCodeFor('something_new')).toBe(1)
  })

  it('the local error classes carry their fixed codes and exits', () => {
    expect(new UsageError('bad')).toMatchObject({code: 'invalid_request', exitCode: 2, status: undefined})
    expect(new NotLoggedInError()).toMatchObject({code: 'unauthorized', exitCode: 3, hint: 'run `amctl auth login`'})
    expect(new NetworkError('down')).toMatchObject({code: 'network_error', exitCode: 1})
    const unknown = new OutcomeUnknownError('POST /x was sent')
    expect(unknown).toMatchObject({code: 'outcome_unknown', exitCode: 9})
    expect(unknown.message).toContain(OUTCOME_UNKNOWN_MESSAGE)
  })

  it('bad_response keeps the meaning of a 4xx status and is exit 1 otherwise', () => {
    expect(new BadResponseError('x').exitCode).toBe(1)
    expect(new BadResponseError('x', {status: 502}).exitCode).toBe(1)
    expect(new BadResponseError('x', {status: 404}).exitCode).toBe(5)
    expect(new BadResponseError('x', {status: 429}).exitCode).toBe(7)
    expect(new BadResponseError('x', {status: 404}).code).toBe('bad_response')
  })
})

describe('errorLine', () => {
  it('is `error: <message> (<code>, HTTP <status>)` for server errors', () => {
    const e = new ApiError('eval set "es_1" not found', {code: 'not_found', status: 404})
    expect(errorLine(e)).toBe('error: eval set "es_1" not found (not_found, HTTP 404)')
  })

  it('has no HTTP part for local errors', () => {
    expect(errorLine(new UsageError('--limit must be a whole number'))).toBe('error: --limit must be a whole number (invalid_request)')
    expect(errorLine(new NetworkError('could not reach the server'))).toBe('error: could not reach the server (network_error)')
  })

  it('folds newlines (and the space around them) into single spaces', () => {
    const e = new ApiError('first line\n  second line\r\nthird\n\n', {code: 'conflict', status: 409})
    expect(e.message).toBe('first line second line third')
    expect(errorLine(e)).toBe('error: first line second line third (conflict, HTTP 409)')
    expect(errorLine(e)).not.toMatch(/[\r\n]/)
  })
})

describe('toDocument', () => {
  it('has code, message and status for server errors', () => {
    const e = new ApiError('nope', {code: 'forbidden', status: 403})
    expect(e.toDocument()).toEqual({error: {code: 'forbidden', message: 'nope', status: 403}})
    expect(JSON.parse(JSON.stringify(e.toDocument()))).toEqual(e.toDocument())
  })

  it('leaves status out for local errors', () => {
    const doc = new UsageError('bad\ninput').toDocument()
    expect(doc).toEqual({error: {code: 'invalid_request', message: 'bad input'}})
    expect('status' in doc.error).toBe(false)
  })

  it('carries the request id when the server sent one', () => {
    const e = new ApiError('boom', {code: 'conflict', status: 409, requestId: 'req_42'})
    expect(e.toDocument()).toEqual({error: {code: 'conflict', message: 'boom', status: 409, requestId: 'req_42'}})
  })
})

describe('isAmctlError', () => {
  it('recognises every subclass and nothing else', () => {
    expect(isAmctlError(new UsageError('x'))).toBe(true)
    expect(isAmctlError(new AmctlError('x', {code: 'c'}))).toBe(true)
    expect(isAmctlError(new Error('x'))).toBe(false)
    expect(isAmctlError({code: 'not_found', exitCode: 5})).toBe(false)
    expect(isAmctlError(null)).toBe(false)
  })
})
