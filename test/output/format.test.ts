import {beforeAll, describe, expect, it} from 'vitest'
import {COLUMNS, type Conn, ROWS, table} from './fixtures.js'
import {jsonText, keyValue, tsvObject, tsvRow, tsvRows, ttyCells, ttyColumns, type Column} from '../../src/output/format.js'
import {loadColors, palette} from '../../src/output/style.js'
import {RUN_COLUMNS} from '../../src/output/run-columns.js'
import type {Run} from '../../src/contract/types.js'
import {lines} from '../helpers/output.js'

// chalk is loaded on demand by commands that colour; these tests colour
beforeAll(loadColors)

const plain = palette(false)

const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

describe('text from the server on a terminal (contract 1.4)', () => {
  it('writes control characters visibly as \\u00XX in tables: no escape sequence, no broken row', () => {
    const evil: Conn[] = [{id: 'conn_x', name: 'red\u001b[31m\u0007bell\nline\u009b2J', allowedHosts: ['a\tb']}]
    const out = table(evil, COLUMNS)
    expect(out).not.toMatch(RAW_CONTROL)
    expect(out).toContain('red\\u001b[31m\\u0007bell\\u000aline\\u009b2J')
    expect(out).toContain('a\\u0009b')
    expect(out.trimEnd().split('\n')).toHaveLength(2)
  })

  it('does the same in key/value, keys included', () => {
    const out = keyValue({'na\u001bme': 'x\u001b]0;title\u0007y'}, plain)
    expect(out).not.toMatch(RAW_CONTROL)
    expect(out).toBe('na\\u001bme:  x\\u001b]0;title\\u0007y\n')
  })
})

describe('TSV lists (piped)', () => {
  it('one line per row, no header, columns in order (id first), tab-separated, arrays joined', () => {
    expect(tsvRows(ROWS, COLUMNS)).toBe('conn_1\tGitHub\tapi.github.com,github.com\nconn_22\tLinear\t\n')
  })

  it('is empty for no rows', () => {
    expect(tsvRows([], COLUMNS)).toBe('')
  })

  it('escapes backslash, tab, newline and CR as \\\\ \\t \\n \\r, other controls as \\u00XX: one record per line', () => {
    const row = tsvRow({id: 'c\t1', name: 'multi\nline\r\nname\\x', allowedHosts: ['a\u0001b']}, COLUMNS)
    expect(row).toBe('c\\t1\tmulti\\nline\\r\\nname\\\\x\ta\\u0001b\n')
    expect(row.split('\t')).toHaveLength(3)
    expect(row.match(/\n/g)).toHaveLength(1)
  })

  it('shows null/undefined as empty and nested objects as compact JSON', () => {
    const cols: Column<Conn>[] = [...COLUMNS, {header: 'META', get: (r) => r.meta}]
    const row = tsvRow({id: 'x', name: 'n', allowedHosts: null, meta: {a: {b: [1, 2]}, c: 'd'}}, cols)
    expect(row).toBe('x\tn\t\t{"a":{"b":[1,2]},"c":"d"}\n')
    const objects = tsvRow({id: 'x', name: 'n', allowedHosts: [{h: 1}, {h: 2}]}, COLUMNS)
    expect(objects).toBe('x\tn\t[{"h":1},{"h":2}]\n')
  })
})

describe('nested values in tab-separated output (contract 1.4)', () => {
  it('are compact JSON written as they are: not escaped again, and with no raw C1 or DEL', () => {
    const cols: Column<Conn>[] = [...COLUMNS, {header: 'META', get: (r) => r.meta}]
    const row = tsvRow({id: 'x', name: 'n', allowedHosts: null, meta: {path: 'a\\b', csi: '\u009b2J\u007f', nl: 'x\ny'}}, cols)
    expect(row).toBe('x\tn\t\t{"path":"a\\\\b","csi":"\\u009b2J\\u007f","nl":"x\\ny"}\n')
    expect(JSON.parse(row.trimEnd().split('\t')[3])).toEqual({path: 'a\\b', csi: '\u009b2J\u007f', nl: 'x\ny'})
    expect(tsvObject({batchIds: ['b\u009b2J']})).toBe('batchIds\t["b\\u009b2J"]\n')
  })
})

describe('key/value (TTY)', () => {
  it('shows a multi-line value as an indented block under its key, not folded into one line', () => {
    const out = keyValue({id: 'var_1', body: 'First line\nSecond line\r\n\n  indented\n'}, plain)
    expect(out).toBe('id:  var_1\nbody:\n  First line\n  Second line\n\n    indented\n')
  })

  it('shows a UTC timestamp to the second, with how long ago, when it knows the time (nested ones too)', () => {
    const now = Date.parse('2026-11-23T17:30:00Z')
    const out = keyValue(
      {id: 'o', createdAt: '2026-11-23T17:27:00.574Z', round: {at: '2025-11-23T17:30:00Z'}, note: '2026-11-23'},
      plain,
      '',
      now,
    )
    expect(lines(out)).toEqual([
      'id:         o',
      'createdAt:  2026-11-23 17:27:00 UTC (2 minutes ago)',
      'round:',
      '  at:  2025-11-23 17:30:00 UTC (1 year ago)',
      'note:       2026-11-23',
    ])
    // without the time, as it came
    expect(keyValue({createdAt: '2026-11-23T17:27:00.574Z'}, plain)).toBe('createdAt:  2026-11-23T17:27:00.574Z\n')
  })

  it('shows a nested object as aligned key/values, indented', () => {
    const out = keyValue({org: 'acme', counts: {runs: 20266, tags: 2}}, plain)
    expect(out).toBe('org:  acme\ncounts:\n  runs:  20266\n  tags:  2\n')
  })
})

describe('ttyCells: how a terminal shows a value', () => {
  it('a share as a whole percentage, never 0 % or 100 % for one that is not; the value itself piped', () => {
    const column: Column<{v: unknown}> = {header: 'V', get: (row) => row.v, show: 'share'}
    const shown = (v: unknown) => ttyCells({v}, [column], plain, 0)[0].text
    expect([0, 1, 0.5, 0.0196, 0.994, 0.996, 0.004, 0.999].map(shown)).toEqual(['0%', '100%', '50%', '2%', '99%', '>99%', '<1%', '>99%'])
    expect(shown(null)).toBe('')
    expect(tsvRow({v: 0.0196}, [column])).toBe('0.0196\n')
  })
})

describe('tsvObject', () => {
  it('escapes keys and string values, keeps nested values as compact JSON', () => {
    expect(tsvObject({'a\tb': 'x\ny', nested: {k: 'v\tw'}, n: 1})).toBe('a\\tb\tx\\ny\nnested\t{"k":"v\\tw"}\nn\t1\n')
  })
})

describe('jsonText', () => {
  it('holds no raw DEL or C1 control (JSON.stringify writes them raw): escaped, the same value', () => {
    expect(jsonText({s: '\u009b2J\u007f'}, false)).toBe('{"s":"\\u009b2J\\u007f"}\n')
    const coloured = jsonText({s: '\u0085'}, true, palette(true)).replace(/\u001b\[[0-9;]*m/g, '')
    expect(coloured).toBe('{\n  "s": "\\u0085"\n}\n')
  })

  it('is compact when piped and pretty on a TTY, one trailing newline', () => {
    expect(jsonText({a: [1, {b: 'c'}]}, false)).toBe('{"a":[1,{"b":"c"}]}\n')
    expect(jsonText({a: 1}, true)).toBe('{\n  "a": 1\n}\n')
  })

  it('colours keys, strings, numbers and literals with a colour palette, and nothing without one', () => {
    const coloured = jsonText({name: 'x', n: 1, ok: true}, true, palette(true))
    expect(coloured).toContain('\u001B[34m"name"\u001B[39m: \u001B[32m"x"\u001B[39m')
    expect(coloured).toContain('\u001B[36m1\u001B[39m')
    expect(coloured).toContain('\u001B[33mtrue\u001B[39m')
    expect(jsonText({name: 'x'}, true, plain)).toBe('{\n  "name": "x"\n}\n')
  })
})

describe('tsvRows: extra columns come after every other field', () => {
  it('a run: ID, status, eval set, created, then agent, model, score, empty when absent', () => {
    const rows = [
      {id: 'r1', status: 'succeeded', evalSetId: 'es', createdAt: 'T', agent: 'codex', model: 'gpt-5', score: 0.9},
      {id: 'r2', status: 'queued', evalSetId: 'es', createdAt: 'T', agent: null, model: null, score: null},
    ]
    expect(tsvRows(rows as Run[], RUN_COLUMNS)).toBe('r1\tsucceeded\tes\tT\tcodex\tgpt-5\t0.9\nr2\tqueued\tes\tT\t\t\t\n')
  })
})

describe("only: 'tsv' columns: in tab-separated rows only, never on a terminal", () => {
  type Row = {a: string; b: number; c: string; d: string | null}
  const columns: Column<Row>[] = [
    {header: 'A', get: (r) => r.a},
    {header: 'B', get: (r) => r.b, only: 'tsv'},
    {header: 'C', get: (r) => r.c, appended: true},
    {header: 'D', get: (r) => r.d, appended: true, only: 'tsv'},
  ]
  const rows: Row[] = [{a: 'x', b: 1, c: 'y', d: 'z'}]

  it('piped: in its place, or after every other field with appended', () => {
    expect(tsvRows(rows, columns)).toBe('x\t1\ty\tz\n')
  })

  it('on a terminal: left out, even when a row has a value', () => {
    expect(ttyColumns(columns, rows).map((c) => c.header)).toEqual(['A', 'C'])
  })
})
