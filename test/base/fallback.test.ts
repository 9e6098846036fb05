import {describe, expect, it} from 'vitest'
import {commandNotFound} from '../../src/base/fallback.js'
import {UsageError} from '../../src/core/errors.js'

// An unknown command: a usage error with the nearest command as a hint (bin/run.cjs ends it
// through src/base/failure.ts, tested in failure.test.ts).

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
