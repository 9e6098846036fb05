import {beforeAll, describe, expect, it} from 'vitest'
import {jsonText, keyValue, table, tsvObject, tsvRow, tsvRows, type Column} from '../../src/output/format.js'
import {loadColors, palette} from '../../src/output/style.js'

// chalk is loaded on demand by commands that colour; these tests colour
beforeAll(loadColors)

interface Conn {
  id: string
  name: string
  allowedHosts: unknown
  meta?: unknown
}
const COLUMNS: Column<Conn>[] = [
  {header: 'ID', get: (r) => r.id},
  {header: 'NAME', get: (r) => r.name},
  {header: 'HOSTS', get: (r) => r.allowedHosts},
]
const ROWS: Conn[] = [
  {id: 'conn_1', name: 'GitHub', allowedHosts: ['api.github.com', 'github.com']},
  {id: 'conn_22', name: 'Linear', allowedHosts: []},
]
const plain = palette(false)

describe('text from the server on a terminal', () => {
  it('cannot inject escape sequences or break rows: control characters become spaces', () => {
    const evil: Conn[] = [{id: 'conn_x', name: 'red\u001b[31m\u0007bell\nline', allowedHosts: ['a\tb']}]
    const out = table(evil, COLUMNS, plain)
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/)
    expect(out.trimEnd().split('\n')).toHaveLength(2)
    expect(keyValue({'na\u001bme': 'x\u001b]0;title\u0007y'}, plain)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/)
  })
})

describe('TSV lists (piped)', () => {
  it('one line per row, no header, columns in order (id first), tab-separated, arrays joined', () => {
    expect(tsvRows(ROWS, COLUMNS)).toBe('conn_1\tGitHub\tapi.github.com,github.com\nconn_22\tLinear\t\n')
  })

  it('is empty for no rows', () => {
    expect(tsvRows([], COLUMNS)).toBe('')
  })

  it('flattens tabs and newlines inside values so a row stays a row', () => {
    const row = tsvRow({id: 'c\t1', name: 'multi\nline\r\nname', allowedHosts: ['a\tb']}, COLUMNS)
    expect(row).toBe('c 1\tmulti line name\ta b\n')
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

describe('tables (TTY)', () => {
  it('has a header, aligned columns and arrays joined with ", "', () => {
    const out = table(ROWS, COLUMNS, plain)
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
    expect(table(ROWS, COLUMNS, palette(true))).toMatch(/\u001B\[1mID\u001B\[22m/)
  })
})

describe('objects', () => {
  const obj = {user: 'Ada <ada@acme.test>', 'base URL': 'https://api.example.com', orgs: ['acme', 'beta'], extra: {plan: 'team'}, none: null}

  it('key<TAB>value lines when piped, nested values (arrays, objects) as compact JSON', () => {
    expect(tsvObject(obj)).toBe(
      'user\tAda <ada@acme.test>\nbase URL\thttps://api.example.com\norgs\t["acme","beta"]\nextra\t{"plan":"team"}\nnone\t\n',
    )
    // a value never breaks its line
    expect(tsvObject({note: 'a\tb\nc', nested: {text: 'x\ny'}})).toBe('note\ta b c\nnested\t{"text":"x\\ny"}\n')
  })

  it('aligned key: value lines on a TTY', () => {
    const lines = keyValue(obj, plain).split('\n')
    expect(lines.pop()).toBe('')
    expect(lines.slice(0, 4)).toEqual([
      'user:      Ada <ada@acme.test>',
      'base URL:  https://api.example.com',
      'orgs:      acme, beta',
      'extra:     {"plan":"team"}',
    ])
    expect(lines[4].trimEnd()).toBe('none:')
  })
})

describe('jsonText', () => {
  const value = {items: [{id: 'a'}], nextCursor: null}
  it('is pretty (2 spaces) on a TTY', () => {
    expect(jsonText(value, true)).toBe('{\n  "items": [\n    {\n      "id": "a"\n    }\n  ],\n  "nextCursor": null\n}\n')
  })
  it('is compact, one line, when piped', () => {
    expect(jsonText(value, false)).toBe('{"items":[{"id":"a"}],"nextCursor":null}\n')
  })
})
