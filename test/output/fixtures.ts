import {type Column, ttyCells} from '../../src/output/format.js'
import {palette} from '../../src/output/style.js'
import {renderTable} from '../../src/output/table.js'

/** Rows and columns the output tests share (a connection list), and a table drawn from them. */

export interface Conn {
  id: string
  name: string
  allowedHosts: unknown
  meta?: unknown
}
export const COLUMNS: Column<Conn>[] = [
  {header: 'ID', get: (r) => r.id},
  {header: 'NAME', get: (r) => r.name},
  {header: 'HOSTS', get: (r) => r.allowedHosts},
]
export const ROWS: Conn[] = [
  {id: 'conn_1', name: 'GitHub', allowedHosts: ['api.github.com', 'github.com']},
  {id: 'conn_22', name: 'Linear', allowedHosts: []},
]
export const NOW = Date.parse('2026-11-23T12:00:00Z')

/** The terminal table of `rows`, as a command would draw it (relative times against NOW). */
export function table<T>(rows: T[], columns: Column<T>[], style = palette(false), width?: number): string {
  return renderTable(
    columns,
    rows.map((row) => ttyCells(row, columns, style, NOW)),
    style,
    width,
  )
}
