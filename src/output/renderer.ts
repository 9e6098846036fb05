import {assertRows, type Column, jsonText, keyValue, tsvObject, tsvRows, ttyCells, ttyColumns} from './format.js'
import type {IO} from './io.js'
import {terminalSafe} from './sanitize.js'
import type {Style} from './style.js'
import {renderTable} from './table.js'

/** Text with a style, for notices: `styled(code, 'bold')`. */
export interface Styled {
  text: string
  style: keyof Style
}
export type Part = string | Styled

export function styled(text: string, style: keyof Style): Styled {
  return {text, style}
}

export interface RendererOptions {
  /** --json (or --jq): human output is skipped, the command's result is the output */
  json: boolean
  /** colours for stdout and stderr */
  style: Style
  errStyle: Style
  /** the terminal's width, for fitting tables */
  width?: number
  now: number
}

/**
 * What a command hands its data to (like sf's table/log helpers): a list, an object, a line of
 * text, a block, notices. It knows the mode — a table or key/value on a terminal, tab-separated
 * when piped, nothing under --json (the command's returned result is printed instead) — and it is
 * the seam tests watch to see what a command showed.
 */
export class Renderer {
  constructor(
    readonly io: IO,
    readonly opts: RendererOptions,
  ) {}

  get human(): boolean {
    return !this.opts.json
  }

  /** Human output to a terminal: where a command's own view replaces the plain object or list. */
  get tty(): boolean {
    return this.human && this.io.stdoutIsTTY
  }

  /** A list: a table on a TTY (fitted to its width), TSV rows without a header when piped. */
  list<T>(rows: readonly T[], columns: readonly Column<T>[], empty = '(none)'): void {
    if (!this.human) return
    if (!this.io.stdoutIsTTY) {
      this.io.stdout.write(tsvRows(rows, columns))
      return
    }
    assertRows(rows)
    if (rows.length === 0) {
      this.notice(styled(empty, 'dim'))
      return
    }
    const shown = ttyColumns(columns, rows)
    const cells = rows.map((row) => ttyCells(row, shown, this.opts.style, this.opts.now))
    this.io.stdout.write(renderTable(shown, cells, this.opts.style, this.opts.width))
  }

  /**
   * An object: aligned key/value on a TTY, key<TAB>value lines when piped. An object without
   * members (an answer of `{}`) says so on a terminal, as an empty list does ("(none)"): on
   * stderr, so stdout stays data; piped it is no line at all.
   */
  object(obj: Record<string, unknown>, empty = '(an empty answer: no members)'): void {
    if (!this.human) return
    if (!this.io.stdoutIsTTY) {
      this.io.stdout.write(tsvObject(obj))
      return
    }
    if (Object.keys(obj).length === 0) {
      this.notice(styled(empty, 'dim'))
      return
    }
    this.io.stdout.write(keyValue(obj, this.opts.style, '', this.opts.now))
  }

  /** A line of data on stdout (human mode only); terminal-safe on a TTY. */
  text(line: string): void {
    if (!this.human) return
    this.io.stdout.write(`${this.io.stdoutIsTTY ? terminalSafe(line) : line}\n`)
  }

  /** Multi-line text (a chat reply, variant content): kept as lines, terminal-safe on a TTY. */
  block(text: string): void {
    if (!this.human) return
    const body = this.io.stdoutIsTTY ? terminalSafe(text, {multiline: true}) : text
    this.io.stdout.write(body.endsWith('\n') || body === '' ? body : `${body}\n`)
  }

  /** A JSON value on stdout in human mode (e.g. `amctl api`): pretty and coloured on a TTY. */
  json(value: unknown): void {
    if (!this.human) return
    this.io.stdout.write(jsonText(value, this.io.stdoutIsTTY, this.io.stdoutColor ? this.opts.style : undefined))
  }

  /**
   * A message, notice or hint: stderr in every mode (stdout carries only data). Each part is
   * made terminal-safe, then styled: `notice('code: ', styled(code, 'bold'))`.
   */
  notice(...parts: Part[]): void {
    this.io.stderr.write(`${this.paint(parts)}\n`)
  }

  warning(...parts: Part[]): void {
    this.io.stderr.write(`${this.opts.errStyle.yellow('warning:')} ${this.paint(parts)}\n`)
  }

  private paint(parts: Part[]): string {
    return parts.map((p) => (typeof p === 'string' ? terminalSafe(p) : this.opts.errStyle[p.style](terminalSafe(p.text)))).join('')
  }
}
