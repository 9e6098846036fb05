import {beforeAll, describe, expect, it} from 'vitest'
import {COLUMNS, ROWS, table} from './fixtures.js'
import type {Column} from '../../src/output/format.js'
import {loadColors, palette} from '../../src/output/style.js'
import {columnWidths, fitWidths, renderTable, type TableColumn, truncate} from '../../src/output/table.js'

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
    expect(fitWidths(columns, [4, 30, 20], 24)).toEqual([4, 8, 8])
    expect(fitWidths(columns, [4, 30, 20], undefined)).toEqual([4, 30, 20])
    expect(fitWidths(columns, [4, 30, 20], 200)).toEqual([4, 30, 20])
  })

  it('then leaves out free-text columns cut to their minimum, the rightmost first (width 0)', () => {
    const columns: TableColumn[] = [{header: 'ID'}, {header: 'A', flexible: true}, {header: 'B', flexible: true}, {header: 'C'}]
    // 4 + 8 + 8 + 10 and three gutters = 36
    // B left out, and the room it freed goes back to A (up to A's own width)
    expect(fitWidths(columns, [4, 30, 20, 10], 30)).toEqual([4, 12, 0, 10])
    expect(fitWidths(columns, [4, 10, 20, 10], 30)).toEqual([4, 10, 0, 10])
    expect(fitWidths(columns, [4, 30, 20, 10], 20)).toEqual([4, 0, 0, 10])
  })

  it('then cuts the other columns but the first, the widest first, down to 5; the first only at last', () => {
    const columns: TableColumn[] = [{header: 'ID'}, {header: 'STATUS'}, {header: 'EVAL SET'}]
    expect(fitWidths(columns, [12, 9, 16], 37)).toEqual([12, 9, 12])
    expect(fitWidths(columns, [12, 9, 16], 26)).toEqual([12, 5, 5])
    expect(fitWidths(columns, [12, 9, 16], 20)).toEqual([6, 5, 5])
  })

  it('no line is ever wider than the terminal (from 3 columns a column up), whatever the table', () => {
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 48271) % 2147483647
      return seed % n
    }
    for (let t = 0; t < 300; t++) {
      const n = 1 + random(7)
      const columns: TableColumn[] = Array.from({length: n}, (_, i) => ({header: `C${i}`, flexible: random(2) === 0}))
      const rows = Array.from({length: 1 + random(4)}, () => columns.map(() => ({text: 'x'.repeat(random(40))})))
      const maxWidth = 3 * n + random(120)
      const out = renderTable(columns, rows, plain, maxWidth)
      for (const line of out.trimEnd().split('\n'))
        expect(line.length, `${n} columns at ${maxWidth}: ${line}`).toBeLessThanOrEqual(maxWidth)
    }
  })

  it('measures display width: wide characters count twice', () => {
    expect(columnWidths([{header: 'N'}], [[{text: '日本語'}]])).toEqual([6])
    expect(truncate('日本語テキスト', 7)).toBe('日本語…')
    expect(truncate('abcdef', 6)).toBe('abcdef')
    expect(truncate('abcdefg', 6)).toBe('abcde…')
  })
})
