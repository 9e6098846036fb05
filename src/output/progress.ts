import type {IO} from './io.js'

/**
 * A one-line counter on stderr ("fetched 1,200 runs"), redrawn in place. It shows only when
 * stderr is a TTY, and at most every 100 ms.
 */
export class Progress {
  private last = 0
  private shown = false

  constructor(
    private readonly io: IO,
    private readonly label: (count: number) => string,
  ) {}

  update(count: number): void {
    if (!this.io.stderrIsTTY) return
    const now = Date.now()
    if (now - this.last < 100) return
    this.last = now
    this.shown = true
    this.io.stderr.write(`\r\u001B[2K${this.label(count)}`)
  }

  done(): void {
    if (this.shown) this.io.stderr.write('\r\u001B[2K')
    this.shown = false
  }
}
