import type {ErrorDocument} from '../core/errors.js'
import {type IO, write} from './io.js'
import {safeJson} from './sanitize.js'

/**
 * Writes `{"items":[…]}` item by item, so memory stays flat whatever the count. If an error
 * ends the stream, the document is closed as `{"items":[…],"error":{…}}`: still one valid
 * JSON document. Pretty on a TTY, compact otherwise.
 */
export class JsonItemsWriter {
  private count = 0
  private readonly pretty: boolean

  constructor(private readonly io: IO) {
    this.pretty = io.stdoutIsTTY
  }

  async open(): Promise<void> {
    await write(this.io.stdout, this.pretty ? '{\n  "items": [' : '{"items":[')
  }

  /** Writes a batch of items (one write per page keeps syscalls low). */
  async items(items: unknown[]): Promise<void> {
    if (items.length === 0) return
    let chunk = ''
    for (const item of items) {
      const sep = this.count++ === 0 ? '' : ','
      chunk += this.pretty ? `${sep}\n    ${safeJson(item, 2)?.replaceAll('\n', '\n    ')}` : sep + safeJson(item)
    }
    await write(this.io.stdout, chunk)
  }

  async close(error?: ErrorDocument['error']): Promise<void> {
    const tail = error ? (this.pretty ? `,\n  "error": ${safeJson(error)}` : `,"error":${safeJson(error)}`) : ''
    const end = this.pretty ? `${this.count > 0 ? '\n  ' : ''}]${tail}\n}\n` : `]${tail}}\n`
    await write(this.io.stdout, end)
  }
}
