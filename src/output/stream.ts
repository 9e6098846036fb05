import type {Page} from '../contract/vocabulary.js'
import type {Clock} from '../core/clock.js'
import {type AmctlError, isAmctlError} from '../core/errors.js'
import {assertRow, type Column, tsvColumns, tsvRow, ttyCells, ttyColumns} from './format.js'
import {type IO, isStdoutGone, write} from './io.js'
import {JsonItemsWriter} from './json-stream.js'
import {type Noun, Progress} from './progress.js'
import type {Style} from './style.js'
import {columnWidths, fitWidths, headerLine, rowLine} from './table.js'
import type {Signals} from '../core/signals.js'

/** A list that arrives page by page (`runs list --all`, `api --paginate`): what to show and how. */
export interface StreamedList<T> {
  kind: 'stream'
  pages: AsyncIterable<Page<T>>
  columns: readonly Column<T>[]
  /** what the progress line counts: "fetched 1,200 runs…" */
  noun: Noun
  /** 'json': the `{"items":[…]}` document whatever the mode (`api --paginate`) */
  format?: 'json'
}

export interface StreamOutcome {
  count: number
  /** the error that ended the stream, and whether it was written into the JSON document */
  error?: AmctlError
  errorWritten: boolean
}

export interface StreamTarget {
  io: IO
  mode: 'json' | 'tty' | 'tsv'
  style: Style
  /** terminal width for fitting tables */
  width?: number
  now: number
  /** paces the progress line */
  clock: Clock
  /** the process's exit, which erases the progress line */
  signals: Signals
}

/**
 * Writes every item of every page as it arrives, holding one page at a time: JSON
 * (`{"items":[…]}` item by item), TSV rows when piped, aligned rows under one header on a TTY
 * (widths from the first page), with a progress line on stderr when stderr is a TTY. The JSON
 * document opens with the first page; an error after that closes it as
 * `{"items":[…],"error":{…}}` (still one JSON document). Errors are returned, not thrown, so the
 * caller decides what else to say; a first-page error leaves stdout untouched.
 */
export async function writeStream<T>(list: StreamedList<T>, target: StreamTarget): Promise<StreamOutcome> {
  const {io} = target
  let count = 0
  const progress = new Progress(io, list.noun, target.clock, target.signals)
  const writer = target.mode === 'json' ? new JsonItemsWriter(io) : undefined
  let widths: number[] | undefined
  let shown: Column<T>[] | undefined
  const fields = tsvColumns(list.columns)
  let opened = false
  try {
    for await (const page of list.pages) {
      progress.clear()
      if (writer) {
        if (!opened) await writer.open()
        opened = true
        await writer.items(page.items)
      } else if (target.mode === 'tty') {
        // the columns and their widths come from the first page with rows
        if (!shown && page.items.length > 0) {
          for (const item of page.items) assertRow(item)
          shown = ttyColumns(list.columns, page.items)
        }
        if (shown) {
          const columns = shown
          const rows = page.items.map((item) => ttyCells(item, columns, target.style, target.now))
          let chunk = ''
          if (!widths) {
            widths = fitWidths(columns, columnWidths(columns, rows), target.width)
            chunk += `${headerLine(columns, widths, target.style)}\n`
          }
          for (const row of rows) chunk += `${rowLine(row, widths)}\n`
          await write(io.stdout, chunk)
        }
      } else {
        let chunk = ''
        for (const item of page.items) chunk += tsvRow(item, fields)
        await write(io.stdout, chunk)
      }
      count += page.items.length
      progress.update(count)
    }
  } catch (error) {
    progress.clear()
    // (a stdout that can take nothing more is the command's end, not the list's error: nothing more can go there)
    if (!isAmctlError(error) || isStdoutGone(error)) throw error
    if (writer && opened) {
      await writer.close(error.toDocument().error)
      return {count, error, errorWritten: true}
    }
    return {count, error, errorWritten: false}
  }
  progress.clear()
  if (writer) {
    if (!opened) await writer.open()
    await writer.close()
  }
  return {count, errorWritten: false}
}
