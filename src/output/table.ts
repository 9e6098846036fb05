import stringWidth from 'string-width'
import type {Style} from './style.js'

/**
 * Borderless aligned tables for a terminal: a bold header, columns two spaces apart, never a
 * wrapped row. When the rows are wider than the terminal, the widest column marked `flexible`
 * (free text: names, hosts) is cut with `…` first, then the next, down to a minimum.
 *
 * Drawn here rather than by cli-table3 (contract 1.4 names it): cli-table3 lays every cell out
 * against every earlier row (its fillInTable), so 32,000 rows took 66 s, and even in chunks it
 * spends ~14 µs a cell; this layout is linear (issue 9.14: 80,000 rows in about a second).
 */

export interface TableColumn {
  header: string
  /** may be cut with `…` to fit the width */
  flexible?: boolean
}

/** One cell: the text (already terminal-safe) and how to colour it once padded. */
export interface TableCell {
  text: string
  paint?: (text: string) => string
}

const GUTTER = '  '
const MIN_FLEX_WIDTH = 8

/** Display width of each column over the header and every row. */
export function columnWidths(columns: readonly TableColumn[], rows: readonly TableCell[][]): number[] {
  const widths = columns.map((c) => stringWidth(c.header))
  for (const row of rows) {
    for (let i = 0; i < widths.length; i++) {
      const w = displayWidth(row[i].text)
      if (w > widths[i]) widths[i] = w
    }
  }
  return widths
}

/** Narrows flexible columns, the widest first, until the line fits in `maxWidth` (if it can). */
export function fitWidths(columns: readonly TableColumn[], widths: readonly number[], maxWidth: number | undefined): number[] {
  const fitted = [...widths]
  if (maxWidth === undefined || maxWidth <= 0) return fitted
  let over = fitted.reduce((a, b) => a + b, 0) + GUTTER.length * (fitted.length - 1) - maxWidth
  while (over > 0) {
    let widest = -1
    for (let i = 0; i < fitted.length; i++) {
      if (columns[i].flexible && fitted[i] > MIN_FLEX_WIDTH && (widest < 0 || fitted[i] > fitted[widest])) widest = i
    }
    if (widest < 0) break
    fitted[widest]--
    over--
  }
  return fitted
}

/** The header line. */
export function headerLine(columns: readonly TableColumn[], widths: readonly number[], style: Style): string {
  return style.bold(
    line(
      columns.map((c) => ({text: c.header})),
      widths,
    ),
  )
}

/** One row, each cell cut to its width and padded; trailing blanks trimmed. */
export function rowLine(cells: readonly TableCell[], widths: readonly number[]): string {
  return line(cells, widths)
}

function line(cells: readonly TableCell[], widths: readonly number[]): string {
  let out = ''
  const last = cells.length - 1
  for (let i = 0; i <= last; i++) {
    const text = truncate(cells[i].text, widths[i])
    const padded = i === last ? text : text + ' '.repeat(Math.max(0, widths[i] - displayWidth(text)))
    const paint = cells[i].paint
    out += (i === 0 ? '' : GUTTER) + (paint ? paint(padded) : padded)
  }
  return out.trimEnd()
}

/** Cuts `text` to `width` columns, ending with `…` when it was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  let out = ''
  let w = 0
  for (const ch of text) {
    const cw = displayWidth(ch)
    if (w + cw > width - 1) break
    out += ch
    w += cw
  }
  return `${out}…`
}

// ASCII is the common case: its width is its length (string-width is ~50× slower per call)
const PRINTABLE_ASCII = /^[\u0020-\u007E]*$/
function displayWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text)
}

/** A whole table: header and rows, fitted to `maxWidth` when given. */
export function renderTable(columns: readonly TableColumn[], rows: readonly TableCell[][], style: Style, maxWidth?: number): string {
  const widths = fitWidths(columns, columnWidths(columns, rows), maxWidth)
  let out = `${headerLine(columns, widths, style)}\n`
  for (const row of rows) out += `${rowLine(row, widths)}\n`
  return out
}
