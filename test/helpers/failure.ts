import {expect} from 'vitest'
import {type AmctlError, isAmctlError} from '../../src/core/errors.js'

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
