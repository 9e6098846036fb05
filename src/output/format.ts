import {createRequire} from 'node:module'
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

function cellText(value: unknown, separator: string): string {
  if (value === undefined || value === null) return ''
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.join(separator)
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** One TSV field: tabs and newlines would break the row, so they become spaces. */
function tsvField(value: unknown): string {
  return cellText(value, ',').replace(/[\t\r\n]+/g, ' ')
}

export function tsvRows<T>(rows: Iterable<T>, columns: Column<T>[]): string {
  let out = ''
  for (const row of rows) out += tsvRow(row, columns)
  return out
}

export function tsvRow<T>(row: T, columns: Column<T>[]): string {
  return `${columns.map((c) => tsvField(c.get(row))).join('\t')}\n`
}

/** Text from the server shown on a terminal: control characters (escape sequences, tabs, newlines) become spaces. */
export function terminalSafe(text: string): string {
  return text.replace(/[\u0000-\u001F\u007F-\u009F]+/g, ' ')
}

/** cli-table3, loaded only when a table is drawn (piped and --json output never need it). */
let TableClass: typeof import('cli-table3') | undefined

export function table<T>(rows: T[], columns: Column<T>[], style: Style): string {
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
