import {BadResponseError} from '../core/errors.js'
import {safeJson, terminalSafe, tsvEscape} from './sanitize.js'
import {statusColour, type Style} from './style.js'
import type {TableCell, TableColumn} from './table.js'
import {relativeTime} from './time.js'

/**
 * Rendering of data for people (TTY) and for pipes (cli-contract.md 1.4).
 *   lists   TTY: a table with a header     piped: tab-separated rows, no header, id first
 *   objects TTY: aligned key/value         piped: key<TAB>value lines (nested as compact JSON)
 */

export interface Column<T> extends TableColumn {
  /** the value of a row, as scripts get it */
  get: (row: T) => unknown
  /** how a terminal shows it: a relative time, a coloured run status, a score, a signed score difference, a share as a percentage */
  show?: 'time' | 'status' | 'score' | 'delta' | 'share'
  /** shown on a terminal only, and only when some row has a value (tab-separated rows leave it out, unless `appended`) */
  extra?: boolean
  /**
   * in tab-separated rows after every other field, always there (empty when a row has none): a
   * field added later, so the fields scripts read by place keep their places
   */
  appended?: boolean
  /**
   * only in a terminal's table, or only in tab-separated rows: what people read and what scripts
   * read by place can differ in form and order (a wait's VERDICT is the table's last column and
   * the first of the gate's fields in its rows)
   */
  only?: 'tty' | 'tsv'
}

/** The columns of tab-separated rows: what scripts rely on, in that order, then the appended ones. */
export function tsvColumns<T>(columns: readonly Column<T>[]): Column<T>[] {
  const fields = columns.filter((c) => c.only !== 'tty')
  return [...fields.filter((c) => !c.extra && !c.appended), ...fields.filter((c) => c.appended)]
}

/** The columns of a table for these rows: the extra ones only when some row has a value. */
export function ttyColumns<T>(columns: readonly Column<T>[], rows: readonly T[]): Column<T>[] {
  return columns.filter(
    (c) =>
      c.only !== 'tsv' &&
      (!c.extra ||
        rows.some((row) => {
          const value = c.get(row)
          return value !== undefined && value !== null && value !== ''
        })),
  )
}

/** A value as cell text: empty for null, arrays of scalars joined, other objects as compact JSON. */
export function cellText(value: unknown, separator: string): string {
  if (value === undefined || value === null) return ''
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.join(separator)
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

/**
 * Rows are read column by column, so a list shown as rows must be an array of objects; anything
 * else the server sent is a bad response (exit 1), not a crash.
 */
export function assertRows(rows: unknown): void {
  if (rows === undefined) throw new BadResponseError('the server\'s answer has no "items" list')
  if (!Array.isArray(rows)) throw new BadResponseError(`the server's "items" is not a list: ${shortJson(rows)}`)
  for (const row of rows) assertRow(row)
}

/** One list item shown as a row must be an object. */
export function assertRow(row: unknown): void {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) {
    throw new BadResponseError(`the server's list holds an item that is not an object: ${shortJson(row)}`)
  }
}

/**
 * One tab-separated field: a string escaped (contract 1.4); a nested value as compact JSON, written
 * as it is (it holds no raw tab, newline or control character); arrays of scalars as `a,b`.
 */
function tsvField(value: unknown, joinScalars: boolean): string {
  if (value !== null && typeof value === 'object') {
    const scalars = Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)
    if (!(joinScalars && scalars)) return safeJson(value) as string
  }
  return tsvEscape(cellText(value, ','))
}

/** One row as tab-separated fields (contract 1.4: one record per line); `columns` are the TSV ones. */
export function tsvRow<T>(row: T, columns: readonly Column<T>[]): string {
  assertRow(row)
  let out = ''
  for (let i = 0; i < columns.length; i++) out += (i === 0 ? '' : '\t') + tsvField(columns[i].get(row), true)
  return `${out}\n`
}

export function tsvRows<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  assertRows(rows)
  const fields = tsvColumns(columns)
  let out = ''
  for (const row of rows) out += tsvRow(row, fields)
  return out
}

/** One row's cells for a terminal: terminal-safe, relative times, coloured statuses. */
export function ttyCells<T>(row: T, columns: readonly Column<T>[], style: Style, now: number): TableCell[] {
  assertRow(row)
  return columns.map((c) => {
    const value = c.get(row)
    const text = terminalSafe(cellText(value, ', '))
    switch (c.show) {
      case 'time':
        return {text: typeof value === 'string' ? terminalSafe(relativeTime(value, now)) : text}
      case 'status':
        return {text, paint: typeof value === 'string' ? statusColour(value, style) : undefined}
      case 'score':
        return {text: typeof value === 'number' ? value.toFixed(2) : text}
      case 'delta':
        return {text: typeof value === 'number' ? `${value < 0 ? '-' : '+'}${Math.abs(value).toFixed(2)}` : text}
      case 'share':
        return {text: typeof value === 'number' ? percent(value) : text}
      default:
        return {text}
    }
  })
}

/** A share as a whole percentage; one that is not 0 or 1 never reads as 0 % or 100 % (one failed run in 300 is `<1%`). */
function percent(share: number): string {
  const whole = Math.round(share * 100)
  if (whole === 0 && share > 0) return '<1%'
  if (whole === 100 && share < 1) return '>99%'
  return `${whole}%`
}

/** key<TAB>value lines; nested values (arrays and objects) as compact JSON. */
export function tsvObject(obj: Record<string, unknown>): string {
  let out = ''
  for (const [key, value] of Object.entries(obj)) {
    out += `${tsvEscape(key)}\t${tsvField(value, false)}\n`
  }
  return out
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

// an ISO 8601 UTC timestamp as the API writes them: 2026-11-23T17:29:56.574Z
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/

/**
 * Aligned `key: value` lines for a terminal. A multi-line string is shown as an indented block
 * under its key; a nested object as indented key/values; a UTC timestamp to the second with how
 * long ago (given `now`); other values on one line.
 */
export function keyValue(obj: Record<string, unknown>, style: Style, indent = '', now?: number): string {
  const entries = Object.entries(obj)
  const isBlock = (value: unknown) =>
    (isPlainObject(value) && Object.keys(value).length > 0) || (typeof value === 'string' && value.includes('\n'))
  // keys of values on their own line are aligned; a block's key stands alone
  const width = Math.max(0, ...entries.filter(([, v]) => !isBlock(v)).map(([k]) => terminalSafe(k).length))
  let out = ''
  for (const [key, value] of entries) {
    const label = style.bold(`${terminalSafe(key)}:`.padEnd(width + 1))
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      out += `${indent}${style.bold(`${terminalSafe(key)}:`)}\n${keyValue(value, style, `${indent}  `, now)}`
    } else if (typeof value === 'string' && value.includes('\n')) {
      const block = terminalSafe(value.replace(/\r\n/g, '\n'), {multiline: true}).replace(/\n+$/, '')
      out += `${indent}${style.bold(`${terminalSafe(key)}:`)}\n${block
        .split('\n')
        .map((l) => `${indent}  ${l}`.trimEnd())
        .join('\n')}\n`
    } else if (now !== undefined && typeof value === 'string' && TIMESTAMP.test(value)) {
      // a timestamp to the second, and how long ago (the API's milliseconds are noise here)
      out += `${indent}${label}  ${terminalSafe(`${value.replace(TIMESTAMP, '$1 $2')} UTC (${relativeTime(value, now)})`)}\n`
    } else {
      out += `${indent}${label}  ${terminalSafe(cellText(value, ', '))}\n`.replace(/ +\n$/, '\n')
    }
  }
  return out
}

/**
 * JSON as the contract wants it: pretty (2 spaces) on a TTY, compact otherwise; one trailing
 * newline. With a colouring style (a TTY with colour): keys, strings, numbers and literals coloured.
 */
export function jsonText(value: unknown, pretty: boolean, style?: Style): string {
  const text = safeJson(value, pretty ? 2 : undefined) ?? 'null'
  return `${style ? colourJson(text, style) : text}\n`
}

// a JSON token: a string (a key when a colon follows), a number, or a literal
const JSON_TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g

function colourJson(text: string, style: Style): string {
  return text.replace(
    JSON_TOKEN,
    (match, string: string | undefined, colon: string | undefined, number: string | undefined, literal: string | undefined) => {
      if (string !== undefined) return colon === undefined ? style.green(string) : style.blue(string) + colon
      if (number !== undefined) return style.cyan(number)
      if (literal !== undefined) return style.yellow(literal)
      return match
    },
  )
}

/** "1 run", "3 runs": a count and its noun, the noun in the plural unless the count is one. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * `n` with a comma every three digits, as `toLocaleString('en-US')` writes it, without loading
 * Intl's number formats: that costs a process 7 MB of RSS and milliseconds of start-up, and a
 * command's description is made whenever its module loads (`runs list --all` over 100,000 runs
 * peaked at 75 MB instead of 67).
 */
export function counted(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}
