import {describe, expect, it} from 'vitest'
import {jqInArgv} from '../../src/base/flags.js'

// --jq implies --json, and is looked for before the arguments parse (errors show without --json).
describe('jqInArgv', () => {
  it.each([
    [['runs', 'list', '--jq', '.items'], true],
    [['runs', 'list', '--jq=.items[]'], true],
    [['runs', 'list', '--json'], false],
    [['runs', 'list', '--jqx'], false],
    [['api', '/x', '--', '--jq'], false],
    [[], false],
  ])('%j → %s', (argv, found) => {
    expect(jqInArgv(argv)).toBe(found)
  })
})
