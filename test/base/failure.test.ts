import {Errors} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import {reportFailure} from '../../src/base/failure.js'
import {NetworkError, UsageError} from '../../src/core/errors.js'
import {loadColors} from '../../src/output/style.js'
import {runArgv} from '../helpers/cli.js'
import {fakeIO} from '../helpers/fake-io.js'

// The one way amctl ends on an error: inside a command (BaseCommand.catch) and outside one (an
// unknown command, a failure before a command ran: bin/run.cjs calls reportFailure). Both routes
// decide the same way whether the error is the JSON document, and colour it the same way.

/** What each form of the arguments must give, whichever route the error takes. */
const FORMS: {args: string[]; json: boolean}[] = [
  {args: [], json: false},
  {args: ['--json'], json: true},
  // --jq implies --json for data only: errors show as without --json (inside a command, where
  // the engine starts: test/base/base-command.test.ts)
  // after `--` nothing is a flag
  {args: ['--', '--json'], json: false},
]
/** --jq's forms, for the route outside a command (which never starts the engine) */
const JQ_FORMS: {args: string[]; json: boolean}[] = [
  {args: ['--json', '--jq', '.'], json: false},
  {args: ['--jq=.', '--json'], json: false},
]

/** The error's form on stdout and stderr. */
function form(out: {stdout: string; stderr: string}): 'json' | 'line' {
  if (out.stderr === '' && JSON.parse(out.stdout).error.code === 'invalid_request') return 'json'
  expect(out.stdout).toBe('')
  expect(out.stderr).toMatch(/^error: .*\(invalid_request\)\n/)
  return 'line'
}

describe('reportFailure (outside a command: bin/run.cjs)', () => {
  it.each([...FORMS, ...JQ_FORMS])('$args: the JSON document exactly when it says so', async ({args, json}) => {
    const io = fakeIO()
    expect(await reportFailure(new UsageError('unknown command "x"'), ['x', ...args], {io, env: {}})).toBe(2)
    expect(form({stdout: io.out(), stderr: io.err()})).toBe(json ? 'json' : 'line')
  })

  it('presents the error (one line) and returns its exit code', async () => {
    const io = fakeIO()
    expect(await reportFailure(new NetworkError('GET x: down'), ['orgs', 'summary'], {io, env: {}})).toBe(1)
    expect(io.err()).toBe('error: GET x: down (network_error)\n')
  })

  it('coloured on a terminal that takes colour, as inside a command', async () => {
    await loadColors()
    const io = {...fakeIO({stderrTTY: true}), stderrColor: true}
    await reportFailure(new UsageError('bad'), ['x'], {io, env: {}})
    expect(io.err()).toBe('\u001b[31merror: bad (invalid_request)\u001b[39m\n')
  })

  it('an exit a command already presented keeps its code and prints nothing', async () => {
    const io = fakeIO()
    expect(await reportFailure(new Errors.ExitError(9), ['evals', 'run'], {io, env: {}})).toBe(9)
    expect(io.out() + io.err()).toBe('')
  })

  it('anything else is an unexpected failure, exit 1, without a stack trace', async () => {
    const io = fakeIO()
    expect(await reportFailure(new TypeError('x is undefined'), [], {io, env: {}})).toBe(1)
    expect(io.err()).toMatch(/^error: unexpected failure: x is undefined \(internal\)\n/)
    expect(io.err()).not.toMatch(/\n\s+at /)
  })

  it('the stack too with AMCTL_DEBUG=1 in the environment it is given', async () => {
    const io = fakeIO()
    await reportFailure(new TypeError('x is undefined'), [], {io, env: {AMCTL_DEBUG: '1'}})
    expect(io.err()).toMatch(/^error: unexpected failure: x is undefined \(internal\)\nTypeError: x is undefined\n\s+at /)
  })
})

describe('inside a command (BaseCommand.catch): the same forms', () => {
  it.each(FORMS)('$args', async ({args, json}) => {
    // an unknown key: a usage error of the command, no request
    const r = await runArgv(['config', 'get', 'no-such-key', ...args])
    expect(r.exitCode).toBe(2)
    expect(form(r)).toBe(json ? 'json' : 'line')
  })

  it('coloured on a terminal that takes colour', async () => {
    const r = await runArgv(['config', 'get', 'no-such-key'], {
      stderrTTY: true,
      color: true,
      env: {NO_COLOR: undefined, FORCE_COLOR: undefined},
    })
    expect(r.stderr).toMatch(/^\u001b\[31merror: .*\(invalid_request\)\u001b\[39m\n/)
  })
})
