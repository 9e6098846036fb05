import {createRequire} from 'node:module'
import {BadResponseError} from '../core/errors.js'
import type {Style} from './style.js'

/**
 * Rendering of data for people (TTY) and for pipes (cli-contract.md 1.4).
 *   lists   TTY: a table with a header     piped: tab-separated rows, no header, id first
 *   objects TTY: aligned key/value         piped: key<TAB>value lines (nested as compact JSON)
 */

export interface Column<T> {
  header: string
  /** the value of a row; absent = the member named by `header` lower-cased */
  get: (row: T) => unknown
}

/** A value as cell text: empty for null, arrays of scalars joined, other objects as compact JSON. */
export function cellText(value: unknown, separator: string): string {
  if (value === undefined || value === null) return ''
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.join(separator)
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** One TSV field: tabs and newlines would break the row, so they become spaces. */
function tsvField(value: unknown): string {
  return cellText(value, ',').replace(/[\t\r\n]+/g, ' ')
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

export function tsvRows<T>(rows: readonly T[], columns: Column<T>[]): string {
  assertRows(rows)
  let out = ''
  for (const row of rows) out += tsvRow(row, columns)
  return out
}

export function tsvRow<T>(row: T, columns: Column<T>[]): string {
  assertRow(row)
  return `${columns.map((c) => tsvField(c.get(row))).join('\t')}\n`
}

/** Text from the server shown on a terminal: control characters (escape sequences, tabs, newlines) become spaces. */
export function terminalSafe(text: string): string {
  return text.replace(/[\u0000-\u001F\u007F-\u009F]+/g, ' ')
}

/** cli-table3, loaded only when a table is drawn (piped and --json output never need it). */
let TableClass: typeof import('cli-table3') | undefined

export function table<T>(rows: T[], columns: Column<T>[], style: Style): string {
  assertRows(rows)
  TableClass ??= createRequire(import.meta.url)('cli-table3') as typeof import('cli-table3')
  const t = new TableClass({
    head: columns.map((c) => style.bold(c.header)),
    style: {head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0},
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
      bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '',
      right: '', 'right-mid': '', middle: '  ',
    },
  })
  for (const row of rows) t.push(columns.map((c) => terminalSafe(cellText(c.get(row), ', '))))
  return `${t.toString().split('\n').map((line) => line.trimEnd()).join('\n')}\n`
}

/** key<TAB>value lines; nested values (arrays and objects) as compact JSON. */
export function tsvObject(obj: Record<string, unknown>): string {
  return Object.entries(obj)
    .map(([key, value]) => `${key}\t${value !== null && typeof value === 'object' ? JSON.stringify(value) : tsvField(value)}\n`)
    .join('')
}

export function keyValue(obj: Record<string, unknown>, style: Style): string {
  const entries = Object.entries(obj)
  const width = Math.max(0, ...entries.map(([k]) => k.length))
  return entries
    .map(([key, value]) => `${style.bold(`${terminalSafe(key)}:`.padEnd(width + 1))}  ${terminalSafe(cellText(value, ', '))}\n`)
    .join('')
}

/** JSON as the contract wants it: pretty (2 spaces) on a TTY, compact otherwise; one trailing newline. */
export function jsonText(value: unknown, pretty: boolean): string {
  return `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`
}
