import {describe, expect, it} from 'vitest'
import {evalSetPatch} from '../../../../src/commands/evals/shared/patch.js'
import {usageError} from '../../../helpers/failure.js'

// The PATCH body of `evals update`, checked before any request.
describe('evalSetPatch', () => {
  it('holds only what was given: cadence upper-cased, samples as a number, connections in order', async () => {
    expect(evalSetPatch({cadence: ' weekly ', samples: '5'})).toEqual({cadence: 'WEEKLY', samplesPerTarget: 5})
    expect(evalSetPatch({connection: ['c1', 'c2']})).toEqual({connectionIds: ['c1', 'c2']})
    expect(evalSetPatch({'clear-connections': true})).toEqual({connectionIds: []})
  })

  it('--set KEY=JSON adds members as JSON values, any name an own member', async () => {
    const patch = evalSetPatch({set: ['name="Checkout"', 'meta={"a":[1]}', '__proto__=1']}) as Record<string, unknown>
    expect(patch).toEqual({name: 'Checkout', meta: {a: [1]}, ['__proto__']: 1})
    expect(Object.hasOwn(patch, '__proto__')).toBe(true)
  })

  it.each([
    [{}, 'nothing to change: give --cadence, --samples, --connection, --clear-connections or --set'],
    [{cadence: 'hourly'}, '--cadence must be one of'],
    [{samples: '0'}, '--samples'],
    [{connection: ['c1'], 'clear-connections': true}, '--connection and --clear-connections contradict each other; give one of them'],
    [{set: ['novalue']}, '--set expects KEY=JSON, got "novalue"'],
    [{set: ['cadence="DAILY"']}, '--set cadence is not allowed: use --cadence'],
    [{set: ['connectionIds=[]']}, '--set connectionIds is not allowed: use --connection/--clear-connections'],
    [{set: ['a=1', 'a=2']}, '--set a is given twice'],
    [{set: ['name=Checkout']}, `--set name: the value is not valid JSON`],
  ])('%j → exit 2: %s', async (flags, message) => {
    expect(await usageError(() => evalSetPatch(flags))).toContain(message)
  })

  it('tells how to quote a string given to --set', async () => {
    expect(await usageError(() => evalSetPatch({set: ['name=Checkout']}))).toMatch(/quote strings, e\.g\. name='"text"'$/)
  })
})
