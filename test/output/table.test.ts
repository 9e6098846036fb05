import {beforeAll, describe, expect, it} from 'vitest'
import {COLUMNS, ROWS, table} from './fixtures.js'
import type {Column} from '../../src/output/format.js'
import {loadColors, palette} from '../../src/output/style.js'
import {columnWidths, fitWidths, type TableColumn, truncate} from '../../src/output/table.js'

// chalk is loaded on demand by commands that colour; these tests colour
beforeAll(loadColors)

const plain = palette(false)

/** Display columns of a line (ASCII and … only here). */
const width = (line: string) => [...line].length

describe('tables (TTY)', () => {
  it('has a header, aligned columns and arrays joined with ", "', () => {
    const out = table(ROWS, COLUMNS)
    const lines = out.trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^ID\s+NAME\s+HOSTS$/)
    expect(lines[1]).toMatch(/^conn_1\s+GitHub\s+api\.github\.com, github\.com$/)
    expect(lines[2]).toMatch(/^conn_22\s+Linear$/)
    // columns line up
    expect(lines[0].indexOf('NAME')).toBe(lines[1].indexOf('GitHub'))
    expect(lines[1].indexOf('GitHub')).toBe(lines[2].indexOf('Linear'))
    expect(out).not.toContain('\t')
    expect(out).not.toMatch(/\u001B\[/)
    expect(out.endsWith('\n')).toBe(true)
  })

  it('uses colour only through the palette it is given', () => {
    expect(table(ROWS, COLUMNS, palette(true))).toMatch(/^\u001B\[1mID {7}NAME {4}HOSTS\u001B\[22m\n/)
  })

  it('draws 80,000 rows in linear time (a quadratic layout took 66 s for 32,000)', () => {
    const many = Array.from({length: 80_000}, (_, i) => ({id: `conn_${i}`, name: `name ${i}`, allowedHosts: ['h.example']}))
    const out = table(many, COLUMNS)
    expect(out.split('\n')).toHaveLength(80_002)
  })
})

describe('fitting a terminal width', () => {
  interface Run {
    id: string
    agent: string
    model: string
    status: string
  }
  const RUN_COLUMNS: Column<Run>[] = [
    {header: 'ID', get: (r) => r.id},
    {header: 'AGENT', get: (r) => r.agent, flexible: true},
    {header: 'MODEL', get: (r) => r.model, flexible: true},
    {header: 'STATUS', get: (r) => r.status},
  ]
  const LONG: Run[] = [
    {
      id: 'run_0001',
      agent: `claude-code-enterprise-${'x'.repeat(140)}`,
      model: 'claude-sonnet-4-5-20250929-extended-thinking',
      status: 'running',
    },
    {id: 'run_0002', agent: 'codex', model: 'gpt-5', status: 'succeeded'},
  ]

  it.each([80, 160])('at %i columns no line is wider than the terminal, and the widest flexible column is cut with …', (cols) => {
    const lines = table(LONG, RUN_COLUMNS, plain, cols).trimEnd().split('\n')
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(cols)
    expect(lines[1]).toMatch(/^run_0001 {2}claude-code-enterprise-x+… {2}claude-sonnet-4-5-\S+ {2}running$/)
    // the fixed columns are whole
    expect(lines[1]).toContain('run_0001')
    expect(lines[2]).toMatch(/^run_0002 {2}codex {2,}gpt-5 {2,}succeeded$/)
  })

  it('cuts the widest flexible column first, then the next, never below 8 columns', () => {
    const columns: TableColumn[] = [{header: 'ID'}, {header: 'A', flexible: true}, {header: 'B', flexible: true}]
    expect(fitWidths(columns, [4, 30, 20], 40)).toEqual([4, 16, 16])
    expect(fitWidths(columns, [4, 30, 20], 10)).toEqual([4, 8, 8])
    expect(fitWidths(columns, [4, 30, 20], undefined)).toEqual([4, 30, 20])
    expect(fitWidths(columns, [4, 30, 20], 200)).toEqual([4, 30, 20])
  })

  it('never cuts a column that is not flexible (IDs stay whole even when the line cannot fit)', () => {
    const columns: TableColumn[] = [{header: 'ID'}, {header: 'NAME'}]
    expect(fitWidths(columns, [40, 40], 20)).toEqual([40, 40])
  })

  it('measures display width: wide characters count twice', () => {
    expect(columnWidths([{header: 'N'}], [[{text: '日本語'}]])).toEqual([6])
    expect(truncate('日本語テキスト', 7)).toBe('日本語…')
    expect(truncate('abcdef', 6)).toBe('abcdef')
    expect(truncate('abcdefg', 6)).toBe('abcde…')
  })
})
