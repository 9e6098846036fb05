import type {Page} from '../api/types.js'
import {isAmctlError} from '../core/errors.js'
import {assertRow, cellText, type Column, terminalSafe, tsvRow} from './format.js'
import {type IO, write} from './io.js'
import {JsonItemsWriter} from './json-stream.js'
import {Progress} from './progress.js'
import type {Style} from './style.js'

export interface StreamListOptions<T> {
  /** `{"items":[…]}` written item by item; otherwise rows */
  json: boolean
  columns: Column<T>[]
  /** "fetched 1,200 runs" */
  noun: string
  style: Style
}

/**
 * Writes every item of every page as it arrives, holding one page at a time: JSON
 * (`{"items":[…]}`), TSV rows when piped, aligned rows under one header on a TTY, with a
 * progress line on stderr when stderr is a TTY. The JSON document opens with the first page;
 * if a later page fails, it is closed as `{"items":[…],"error":{…}}` and the error is marked as
 * reported. If the first page fails, nothing was written and the error is reported as usual.
 */
export async function streamList<T>(io: IO, source: AsyncIterable<Page<T>>, opts: StreamListOptions<T>): Promise<number> {
  let count = 0
  const progress = new Progress(io, (n) => `fetched ${n.toLocaleString('en-US')} ${opts.noun}…`)
  const writer = opts.json ? new JsonItemsWriter(io) : undefined
  let widths: number[] | undefined
  let opened = false
  try {
    for await (const page of source) {
      if (writer && !opened) {
        await writer.open()
        opened = true
      }
      if (writer) await writer.items(page.items)
      else if (io.stdoutIsTTY) {
        const cells = page.items.map((item) => {
          assertRow(item)
          return opts.columns.map((c) => terminalSafe(cellText(c.get(item), ', ')))
        })
        if (!widths) {
          widths = opts.columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i].length)))
          await write(io.stdout, `${opts.style.bold(line(opts.columns.map((c) => c.header), widths))}\n`)
        }
        await write(io.stdout, cells.map((row) => `${line(row, widths!)}\n`).join(''))
      } else {
        await write(io.stdout, page.items.map((item) => tsvRow(item, opts.columns)).join(''))
      }
      count += page.items.length
      progress.update(count)
    }
  } catch (error) {
    progress.done()
    if (writer && opened && isAmctlError(error)) {
      await writer.close(error.toDocument().error)
      error.reported = true
    }
    throw error
  }
  progress.done()
  if (writer && !opened) await writer.open()
  await writer?.close()
  return count
}

function line(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd()
}
