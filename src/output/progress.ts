import type {IO} from './io.js'

const ERASE_LINE = '\r\u001B[2K'

/**
 * A one-line status on stderr ("fetched 1,200 runs…"), redrawn in place. It shows only when
 * stderr is a TTY, at most every 100 ms, is erased before any row is written to stdout (contract
 * 1.4: no row ever shares a line with it), and never outlives the process: Ctrl-C or a closed
 * pipe end the process through `exit`, which erases it too.
 */
export class Progress {
  private last = 0
  private shown = false
  private readonly eraseAtExit = (): void => this.clear()

  constructor(
    private readonly io: IO,
    private readonly label: (count: number) => string,
  ) {}

  update(count: number): void {
    if (!this.io.stderrIsTTY) return
    const now = Date.now()
    if (now - this.last < 100) return
    this.last = now
    if (!this.shown) process.once('exit', this.eraseAtExit)
    this.shown = true
    this.io.stderr.write(`${ERASE_LINE}${this.label(count)}`)
  }

  /** Erases the line (before rows are written, and at the end). */
  clear(): void {
    if (!this.shown) return
    this.shown = false
    this.io.stderr.write(ERASE_LINE)
    process.off('exit', this.eraseAtExit)
  }
}
