import {describe, expect, it} from 'vitest'
import {toAmctlError} from '../../src/base/parse-errors.js'
import {AmctlError, NetworkError, UsageError} from '../../src/core/errors.js'

// oclif's parse errors as one line naming what is wrong (contract 1.1), read from the parser's
// own input and output rather than its wording.
const parseError = (fields: Record<string, unknown>, message = 'Parsing --help\nSee more help with --help') =>
  Object.assign(new Error(message), {oclif: {exit: 2}, ...fields})

describe('toAmctlError', () => {
  it('keeps an AmctlError as it is', () => {
    const e = new NetworkError('down')
    expect(toAmctlError(e)).toBe(e)
  })

  it('names a missing argument the way the help shows it', () => {
    const e = toAmctlError(parseError({parse: {input: {args: {run_id: {required: true}}}, output: {args: {}}}}))
    expect(e).toBeInstanceOf(UsageError)
    expect(e).toMatchObject({message: 'missing argument RUN_ID', exitCode: 2})
  })

  it('names missing required flags, and not the ones given', () => {
    const e = toAmctlError(
      parseError({
        parse: {input: {flags: {name: {required: true}, expires: {required: true}, org: {}}}, output: {flags: {name: 'ci'}}},
      }),
    )
    expect(e.message).toBe('missing required flag --expires')
  })

  it('names unknown flags and unexpected arguments', () => {
    expect(toAmctlError(parseError({flags: ['--colour']})).message).toBe('unknown flag --colour')
    expect(toAmctlError(parseError({args: ['extra', 'a b']})).message).toBe('unexpected argument "extra", "a b"')
  })

  it("otherwise keeps oclif's message without colour or its help footer", () => {
    const e = toAmctlError(
      parseError({}, 'The following error occurred:\n  \u001b[31m--limit\u001b[39m must be an integer\nSee more help with --help'),
    )
    expect(e).toBeInstanceOf(UsageError)
    expect(e.message).not.toMatch(/\u001b|See more help/)
    expect(e.message).toContain('--limit must be an integer')
  })

  it('an oclif error with another exit code keeps it', () => {
    const e = toAmctlError(Object.assign(new Error('boom'), {oclif: {exit: 3}}))
    expect(e).toBeInstanceOf(AmctlError)
    expect(e).toMatchObject({code: 'internal', exitCode: 3, message: 'boom'})
  })

  it('anything else is an unexpected failure, exit 1, keeping the cause', () => {
    const cause = new TypeError('x is undefined')
    expect(toAmctlError(cause)).toMatchObject({code: 'internal', exitCode: 1, message: 'unexpected failure: x is undefined', cause})
    expect(toAmctlError('text').message).toBe('unexpected failure: text')
  })
})
