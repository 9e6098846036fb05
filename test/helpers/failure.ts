import {expect} from 'vitest'
import {type AmctlError, isAmctlError, UsageError} from '../../src/core/errors.js'

/** Awaits `promise` and returns the AmctlError it must fail with (the test fails otherwise). */
export async function failure(promise: Promise<unknown>): Promise<AmctlError> {
  try {
    await promise
  } catch (error) {
    expect(isAmctlError(error), String(error)).toBe(true)
    return error as AmctlError
  }
  throw new Error('expected a failure')
}

/** Runs `fn` (or awaits a promise) and returns the message of the UsageError (exit 2) it must fail with. */
export async function usageError(fn: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof fn === 'function' ? fn() : fn)
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(UsageError)
    expect((error as UsageError).exitCode).toBe(2)
    return (error as UsageError).message
  }
  throw new Error('expected a usage error')
}

/** Awaits `promise` and returns what it rejects with, whatever it is (the test fails if it resolves). */
export async function thrown(promise: Promise<unknown>): Promise<Error & {code?: string}> {
  return promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (error: Error & {code?: string}) => error,
  )
}
