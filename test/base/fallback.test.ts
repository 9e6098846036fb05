import {Errors} from '@oclif/core'
import {afterEach, describe, expect, it} from 'vitest'
import {commandNotFound, reportFailure} from '../../src/base/fallback.js'
import {NetworkError, UsageError} from '../../src/core/errors.js'
import {setIO} from '../../src/output/io.js'
import {fakeIO} from '../helpers/fake-io.js'

// What happens outside a command: an unknown command, and a failure that reaches bin/run.js.
afterEach(() => setIO(undefined))

const config = {
  commandIDs: ['runs:list', 'runs:watch', 'runs:fork', 'evals:run', 'auth:login'],
  topics: [{name: 'runs'}, {name: 'evals'}, {name: 'auth'}],
}

async function notFound(id: string): Promise<UsageError> {
  try {
    await commandNotFound.call({} as never, {id, config, argv: []} as never)
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    return error as UsageError
  }
  throw new Error('expected a usage error')
}

describe('commandNotFound', () => {
  it('exit 2 naming the command, with the nearest one as a hint', async () => {
    const e = await notFound('runs:lst')
    expect(e).toMatchObject({
      message: 'unknown command "runs lst"',
      exitCode: 2,
      hint: 'did you mean `amctl runs list`? (see `amctl --help`)',
    })
    expect((await notFound('evl')).hint).toBe('did you mean `amctl evals`? (see `amctl --help`)')
  })

  it('without a near one, points to --help', async () => {
    expect((await notFound('completely-different')).hint).toBe('see `amctl --help` for the commands')
  })
})

describe('reportFailure', () => {
  it('presents the error (one line, or the JSON document with --json) and returns its exit code', () => {
    const io = fakeIO()
    setIO(io)
    expect(reportFailure(new NetworkError('GET x: down'), ['orgs', 'summary'])).toBe(1)
    expect(io.err()).toBe('error: GET x: down (network_error)\n')
    const json = fakeIO()
    setIO(json)
    expect(reportFailure(new UsageError('bad'), ['x', '--json'])).toBe(2)
    expect(JSON.parse(json.out())).toEqual({error: {code: 'invalid_request', message: 'bad'}})
  })

  it('--jq shows errors as without --json', () => {
    const io = fakeIO()
    setIO(io)
    reportFailure(new UsageError('bad'), ['x', '--json', '--jq', '.'])
    expect([io.out(), io.err()]).toEqual(['', 'error: bad (invalid_request)\n'])
  })

  it('an exit a command already presented keeps its code and prints nothing', () => {
    const io = fakeIO()
    setIO(io)
    expect(reportFailure(new Errors.ExitError(9), ['evals', 'run'])).toBe(9)
    expect(io.out() + io.err()).toBe('')
  })

  it('anything else is an unexpected failure, exit 1, without a stack trace', () => {
    const io = fakeIO()
    setIO(io)
    expect(reportFailure(new TypeError('x is undefined'), [])).toBe(1)
    expect(io.err()).toMatch(/^error: unexpected failure: x is undefined \(internal\)\n/)
    expect(io.err()).not.toMatch(/\n\s+at /)
  })
})
