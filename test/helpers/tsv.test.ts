import {describe, expect, it} from 'vitest'
import {fieldCounts, GATE_FIELDS, GROUP_FIELDS, LIST_FIELDS, RUN_FIELDS, rowOf, rowsIn} from './tsv.js'

// The documented fields the tests build their expected rows from (docs/scripting.md), and the
// rows by name.

describe('the fields of a wait’s rows, from docs/scripting.md', () => {
  it('a run’s row is its `runs list` row, then the gate’s fields; a group’s ends with the same gate’s fields', () => {
    expect(LIST_FIELDS.length).toBeGreaterThan(0)
    expect(RUN_FIELDS.slice(0, LIST_FIELDS.length)).toEqual(LIST_FIELDS)
    expect(GATE_FIELDS[0]).toBe('verdict')
    expect(GROUP_FIELDS.slice(-GATE_FIELDS.length)).toEqual(GATE_FIELDS)
    expect(new Set(RUN_FIELDS).size, 'no name twice').toBe(RUN_FIELDS.length)
  })

  it('a row: the values given, every other field empty; a name the docs do not give is refused', () => {
    expect(rowOf(['ID', 'score', 'verdict'], {ID: 'r1', score: 0.9})).toEqual({ID: 'r1', score: '0.9', verdict: ''})
    expect(() => rowOf(['ID', 'score'], {ID: 'r1', scroe: 0.9})).toThrow(/not a documented field .*: scroe/)
  })

  it('rows by name, one a line; a field past the names is left out for fieldCounts to see; output without its last newline is refused', () => {
    const stdout = 'r1\t0.9\tpassed\nr2\t\tfailed\textra\n'
    expect(rowsIn(['ID', 'score', 'verdict'], stdout)).toEqual([
      {ID: 'r1', score: '0.9', verdict: 'passed'},
      {ID: 'r2', score: '', verdict: 'failed'},
    ])
    expect(fieldCounts(stdout)).toEqual([3, 4])
    expect(rowsIn(['ID', 'score', 'verdict'], 'r1\t0.9\n')).toEqual([{ID: 'r1', score: '0.9'}])
    expect(rowsIn(['ID'], '')).toEqual([])
    expect(() => rowsIn(['ID'], 'r1')).toThrow(/do not end with a newline/)
  })
})
