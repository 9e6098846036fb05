import {describe, expect, it} from 'vitest'
import {AmctlError, ApiError, NotLoggedInError, UsageError} from '../../src/core/errors.js'
import {errorLine, presentError} from '../../src/output/present.js'
import {palette} from '../../src/output/style.js'
import {fakeIO} from '../helpers/fake-io.js'

const plain = palette(false)

describe('the one error presenter (contract 1.5)', () => {
  it('people: one error line, at most one hint line, on stderr; nothing on stdout', () => {
    const io = fakeIO()
    presentError(new UsageError('--limit must be from 1 to 200, got 0', 'see `amctl runs list --help`'), io, {json: false, style: plain})
    expect(io.out()).toBe('')
    expect(io.err()).toBe('error: --limit must be from 1 to 200, got 0 (invalid_request)\nhint: see `amctl runs list --help`\n')
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
