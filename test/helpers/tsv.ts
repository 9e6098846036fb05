import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {ROOT} from './cli.js'
import {tableAfter} from './markdown.js'

/**
 * The fields of the tab-separated rows a wait writes, as docs/scripting.md documents them (its
 * tables marked `<!-- output:tsv-run-fields -->` and `<!-- output:tsv-group-fields -->`), and
 * rows by those names: a test says the values of the fields it expects, every other field is
 * expected empty, and a row is compared field by field by name. So a field added to the docs and
 * the output changes no test where it is empty, and fails a test where it is not by its name,
 * not a string of tabs; test/e2e/docs-output.test.ts holds the tables to the built CLI's output.
 */

const SCRIPTING = 'docs/scripting.md'

/** A cell's Markdown as plain words: no backticks, no links. */
export const plain = (cell: string): string =>
  cell
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()

/**
 * A documented table of fields, as position → name: `8 | verdict: …` names field 8 by the words
 * before the colon; `1–7 | …: ID, status, …` names each field of the range, in order.
 */
export function documentedFields(path: string, name: string): Map<number, string> {
  const fields = new Map<number, string>()
  for (const [position, what] of tableAfter(readFileSync(join(ROOT, path), 'utf8'), name).rows) {
    const range = /^(\d+)(?:–(\d+))?$/.exec(plain(position))
    if (!range) throw new Error(`${path}: ${position} is not a field position`)
    const [from, to] = [Number(range[1]), Number(range[2] ?? range[1])]
    const text = plain(what)
    const colon = text.indexOf(':')
    const names = from === to ? [colon < 0 ? text : text.slice(0, colon)] : text.slice(colon + 1).split(/, (?:and )?/)
    if (names.length !== to - from + 1) throw new Error(`${path}: fields ${position} name ${names.length} fields: ${names.join(', ')}`)
    for (const [i, field] of names.entries()) fields.set(from + i, field.trim())
  }
  const positions = [...fields.keys()]
  if (positions.some((position, i) => position !== i + 1)) throw new Error(`${path}: the fields of ${name} are not 1, 2, 3 …`)
  return fields
}

/** The fields of a waited run's row, in order: its `runs list` row (ID … score), then the gate's (verdict … decided at). */
export const RUN_FIELDS: readonly string[] = [...documentedFields(SCRIPTING, 'output:tsv-run-fields').values()]

/** The fields of a `runs list` row: the first line of the run table ("1–7 | the run's `runs list` row: ID, …"). */
export const LIST_FIELDS: readonly string[] = (() => {
  const [first] = tableAfter(readFileSync(join(ROOT, SCRIPTING), 'utf8'), 'output:tsv-run-fields').rows
  const range = /^1–(\d+)$/.exec(plain(first[0]))
  if (!range || !plain(first[1]).includes('runs list')) throw new Error(`${SCRIPTING}: the run fields do not begin with the runs list row`)
  return RUN_FIELDS.slice(0, Number(range[1]))
})()

/** The gate's fields of a run's row, after its `runs list` row (verdict, baseline run … decided at). */
export const GATE_FIELDS: readonly string[] = RUN_FIELDS.slice(LIST_FIELDS.length)

/** The fields of a `--repeat` group's row, in order: eval set, agent, model, run IDs, failed, score, then the gate's. */
export const GROUP_FIELDS: readonly string[] = [...documentedFields(SCRIPTING, 'output:tsv-group-fields').values()]

/** A row by field name. */
export type Row = Record<string, string>

/** The row of `fields` with the values given (numbers as written: 0.9 is "0.9"), every other field empty. */
export function rowOf(fields: readonly string[], values: Record<string, string | number>): Row {
  const unknown = Object.keys(values).filter((name) => !fields.includes(name))
  if (unknown.length > 0)
    throw new Error(`not a documented field (${SCRIPTING}): ${unknown.join(', ')}; the fields are ${fields.join(', ')}`)
  return Object.fromEntries(fields.map((name) => [name, name in values ? String(values[name]) : '']))
}

/**
 * What `stdout` holds, one row a line (each line ended by a newline), by the names of `fields`. A
 * field past the documented ones is left out: the test that a row has exactly the documented
 * fields (`fieldCounts`) is one per kind of row, not every test's.
 */
export function rowsIn(fields: readonly string[], stdout: string): Row[] {
  if (stdout !== '' && !stdout.endsWith('\n')) throw new Error(`the rows do not end with a newline: ${JSON.stringify(stdout)}`)
  return stdout
    .split('\n')
    .slice(0, -1)
    .map((line) => {
      const values = line.split('\t')
      return Object.fromEntries(fields.flatMap((name, i) => (i < values.length ? [[name, values[i]]] : [])))
    })
}

/** How many fields each line of `stdout` has. */
export const fieldCounts = (stdout: string): number[] =>
  stdout
    .split('\n')
    .slice(0, -1)
    .map((line) => line.split('\t').length)

/** A waited run's row (RUN_FIELDS) with the values given, every other field empty. */
export const runRow = (values: Record<string, string | number>): Row => rowOf(RUN_FIELDS, values)
/** The waited runs' rows of `stdout` by name (RUN_FIELDS). */
export const runRows = (stdout: string): Row[] => rowsIn(RUN_FIELDS, stdout)
