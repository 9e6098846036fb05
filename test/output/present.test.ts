import {describe, expect, it} from 'vitest'
import {AmctlError, ApiError, NotLoggedInError, UsageError} from '../../src/core/errors.js'
import {errorLine, errorText, presentError} from '../../src/output/present.js'
import {palette} from '../../src/output/style.js'
import {fakeIO} from '../helpers/fake-io.js'
import {lines} from '../helpers/output.js'

const plain = palette(false)

describe('the one error presenter (contract 1.5)', () => {
  it('people: one error line, at most one hint line, on stderr; nothing on stdout', () => {
    const io = fakeIO()
    presentError(new UsageError('--limit must be from 1 to 200, got 0', 'see `amctl runs list --help`'), io, {json: false, style: plain})
    expect(io.out()).toBe('')
    const [error, hint, ...rest] = lines(io.err())
    expect(error).toBe('error: --limit must be from 1 to 200, got 0 (invalid_request)')
    expect(hint).toBe('hint: see `amctl runs list --help`')
    expect(rest).toEqual([])
  })

  it('a 401 and a missing token earn the login hint', () => {
    for (const error of [new ApiError('token revoked', {code: 'unauthorized', status: 401}), new NotLoggedInError('not logged in to x')]) {
      const io = fakeIO()
      presentError(error, io, {json: false, style: plain})
      expect(io.err().split('\n')[1]).toBe('hint: run `amctl auth login`')
    }
  })

  it('--json: the error document is the only output, on stdout', () => {
    const io = fakeIO()
    presentError(new ApiError('gone', {code: 'not_found', status: 404, requestId: 'req_1'}), io, {json: true, style: plain})
    expect(io.err()).toBe('')
    expect(JSON.parse(io.out())).toEqual({error: {code: 'not_found', message: 'gone', status: 404, requestId: 'req_1'}})
  })

  it('message, code and hint are made terminal-safe and folded to one line', () => {
    const io = fakeIO()
    const error = new AmctlError('bad\u001b]0;title\u0007\nnews', {code: 'x\u009b1m', exitCode: 1, hint: 'try\u001b[2J again'})
    presentError(error, io, {json: false, style: plain})
    expect(io.err()).toBe('error: bad\\u001b]0;title\\u0007 news (x\\u009b1m)\nhint: try\\u001b[2J again\n')
    expect(errorLine(error)).toBe('error: bad\\u001b]0;title\\u0007 news (x\\u009b1m)')
  })
})

describe('a server message and the context amctl knows, each said once', () => {
  const org = {text: 'organization "acme" not found', names: ['organization', 'acme']}
  const page = {text: 'page 2 (cursor cur_1) of the runs of acme not found', names: ['page']}
  const notFound = (message: string, context?: {text: string; names: string[]}) => {
    const error = new ApiError(message, {code: 'not_found', status: 404})
    error.context = context
    return error
  }

  // [server message, context, the human line's text]
  it.each([
    ['no such thing', undefined, 'no such thing'],
    ['not found', org, 'organization "acme" not found'],
    ['Not Found.', org, 'organization "acme" not found'],
    ['', org, 'organization "acme" not found'],
    ['Organization not found', org, 'Organization not found'],
    ['organization "acme" not found', org, 'organization "acme" not found'],
    ['acme is gone', org, 'acme is gone'],
    ['the thing you asked for is gone', org, 'organization "acme" not found: the thing you asked for is gone'],
    ['acmecorp is not here', org, 'organization "acme" not found: acmecorp is not here'],
    ['Cursor cur_1 has expired', page, 'page 2 (cursor cur_1) of the runs of acme not found: Cursor cur_1 has expired'],
    ['Page not found', page, 'Page not found'],
    ['not found', page, 'page 2 (cursor cur_1) of the runs of acme not found'],
    [
      'try later',
      {text: 'polling for the login approval failed 5 times in a row', names: []},
      'polling for the login approval failed 5 times in a row: try later',
    ],
  ])('%j with context %j → %j', (message, context, text) => {
    const error = notFound(message, context)
    expect(errorText(error)).toBe(text)
    const io = fakeIO()
    presentError(error, io, {json: false, style: plain})
    expect(io.err()).toBe(`error: ${text} (not_found, HTTP 404)\n`)
  })

  it("--json: the server's message unchanged, amctl's words in error.context", () => {
    const io = fakeIO()
    presentError(notFound('Cursor cur_1 has expired', page), io, {json: true, style: plain})
    expect(JSON.parse(io.out())).toEqual({
      error: {code: 'not_found', message: 'Cursor cur_1 has expired', status: 404, context: page.text},
    })
  })

  it('the context is made terminal-safe like the message', () => {
    const error = notFound('gone', {text: 'page 2 (cursor \u001b[2Jx) of GET /t not found', names: ['page']})
    expect(errorLine(error)).toBe('error: page 2 (cursor \\u001b[2Jx) of GET /t not found: gone (not_found, HTTP 404)')
  })
})
