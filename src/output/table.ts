import stringWidth from 'string-width'
import type {Style} from './style.js'

/**
 * Borderless aligned tables for a terminal: a bold header, columns two spaces apart, never a
 * wrapped row (see fitWidths for how a table is made to fit).
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
const MIN_CUT_WIDTH = 5

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

/**
 * Widths that make a line fit in `maxWidth`, so a row never wraps. Each step is taken only while
 * the line is still too wide:
 *  1. free-text columns (`flexible`: agent, model, names, hosts) are cut with `…`, the widest
 *     first, down to 8 columns;
 *  2. such columns, cut to their minimum, are left out, the rightmost first (width 0), and
 *     the room that frees goes back to those still shown;
 *  3. the other columns but the first are cut, the widest first, down to 5 (`es_a…`);
 *  4. the first column (the ID people copy) is cut too, down to 1;
 *  5. on a terminal narrower still, every column, down to one character.
 * A width of 0 means the column is not shown.
 */
export function fitWidths(columns: readonly TableColumn[], widths: readonly number[], maxWidth: number | undefined): number[] {
  const fitted = [...widths]
  if (maxWidth === undefined || maxWidth <= 0) return fitted
  const total = () => {
    const shown = fitted.filter((w) => w > 0)
    return shown.reduce((a, b) => a + b, 0) + GUTTER.length * Math.max(0, shown.length - 1)
  }
  let over = total() - maxWidth
  const narrow = (may: (i: number) => boolean, floor: number) => {
    while (over > 0) {
      let widest = -1
      for (let i = 0; i < fitted.length; i++) {
        if (may(i) && fitted[i] > floor && (widest < 0 || fitted[i] > fitted[widest])) widest = i
      }
      if (widest < 0) return
      fitted[widest]--
      over--
    }
  }
  narrow((i) => columns[i].flexible === true, MIN_FLEX_WIDTH)
  let dropped = false
  for (let i = fitted.length - 1; i > 0 && over > 0; i--) {
    if (columns[i].flexible && fitted[i] > 0) {
      fitted[i] = 0
      dropped = true
      over = total() - maxWidth
    }
  }
  // the room a left-out column freed goes back to the free-text columns still shown
  for (let i = 0; dropped && i < fitted.length && over < 0; i++) {
    if (!columns[i].flexible || fitted[i] === 0) continue
    const back = Math.min(-over, widths[i] - fitted[i])
    fitted[i] += back
    over += back
  }
  narrow((i) => i > 0 && fitted[i] > 0, MIN_CUT_WIDTH)
  narrow((i) => i === 0, 1)
  // a terminal narrower than all of that: every column down to one character
  narrow((i) => fitted[i] > 0, 1)
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
  let first = true
  let last = cells.length - 1
  while (last > 0 && widths[last] === 0) last--
  for (let i = 0; i <= last; i++) {
    if (widths[i] === 0) continue
    const text = truncate(cells[i].text, widths[i])
    const padded = i === last ? text : text + ' '.repeat(Math.max(0, widths[i] - displayWidth(text)))
    const paint = cells[i].paint
    out += (first ? '' : GUTTER) + (paint ? paint(padded) : padded)
    first = false
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
