import type {Signals} from '../core/signals.js'
import type {IO} from './io.js'
import {terminalSafe} from './sanitize.js'
import {PLAIN, type Style} from './style.js'
import {columnWidths, fitWidths, headerLine, rowLine, type TableColumn, truncate} from './table.js'

/** A cell of a live view: server text is fine here (it is made terminal-safe), `paint` colours it. */
export interface LiveCell {
  text: string
  paint?: (text: string) => string
}

// cursor up N lines to column 0, and erase from there to the end of the screen
const up = (lines: number): string => (lines > 0 ? `\u001B[${lines}F` : '\r')
const ERASE_DOWN = '\u001B[J'

/**
 * A small block on stderr redrawn in place (the runs of `runs watch`): a table (header, one line
 * per row) and a footer line. Only when stderr is a TTY; it never wraps a line (rows are fitted
 * to the terminal's width) nor grows past its height (the rows that do not fit are counted in a
 * last line), so moving the cursor back up always lands on its first line. Like ./progress.ts it
 * is erased before anything else is written, and at exit.
 */
export class LiveView {
  private height = 0
  private frame = ''
  /** ends the erasing at exit (while the block shows) */
  private stopErasingAtExit?: () => void

  constructor(
    private readonly io: IO,
    private readonly style: Style,
    /** the process's exit, which erases the block */
    private readonly signals: Signals,
  ) {}

  /** Whether anything is drawn at all: stderr is a terminal. */
  get active(): boolean {
    return this.io.stderrIsTTY
  }

  draw(columns: readonly TableColumn[], rows: readonly LiveCell[][], footer?: LiveCell): void {
    if (!this.active) return
    const terminal = this.io.stderr as {columns?: number; rows?: number}
    const width = terminal.columns && terminal.columns > 1 ? terminal.columns - 1 : undefined
    // header, rows, footer, and "… N more" must fit on the screen with the cursor's own line
    const room = terminal.rows && terminal.rows > 4 ? terminal.rows - 4 : rows.length
    const shown = rows.length > room ? rows.slice(0, Math.max(0, room)) : rows
    let cells: LiveCell[][] = shown.map((row) => row.map((cell) => ({text: terminalSafe(cell.text), paint: cell.paint})))
    const widths = fitWidths(columns, columnWidths(columns, cells), width)
    let lines = [headerLine(columns, widths, this.style), ...cells.map((row) => rowLine(row, widths))]
    if (width !== undefined && widths.reduce((a, b) => a + b, 2 * (widths.length - 1)) > width) {
      // narrower than the narrowest layout: plain lines, each cut to the width
      cells = cells.map((row) => row.map(({text}) => ({text})))
      lines = [headerLine(columns, widths, PLAIN), ...cells.map((row) => rowLine(row, widths))].map((line) => truncate(line, width))
    }
    if (shown.length < rows.length) lines.push(this.style.dim(`… and ${rows.length - shown.length} more`))
    if (footer) lines.push(this.fit(footer, width))
    const frame = `${lines.join('\n')}\n`
    if (this.height > 0 && frame === this.frame) return
    if (this.height === 0) this.stopErasingAtExit = this.signals.atExit(() => this.clear())
    this.io.stderr.write(`${this.height > 0 ? up(this.height) + ERASE_DOWN : ''}${frame}`)
    this.height = lines.length
    this.frame = frame
  }

  /** Erases the block (before other output, and at the end). */
  clear(): void {
    if (this.height === 0) return
    this.io.stderr.write(up(this.height) + ERASE_DOWN)
    this.height = 0
    this.frame = ''
    this.stopErasingAtExit?.()
    this.stopErasingAtExit = undefined
  }

  private fit(cell: LiveCell, width: number | undefined): string {
    const text = terminalSafe(cell.text)
    const cut = width === undefined ? text : truncate(text, width)
    return cell.paint ? cell.paint(cut) : cut
  }
}
