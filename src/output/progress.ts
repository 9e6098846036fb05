import type {Clock} from '../core/clock.js'
import type {Signals} from '../core/signals.js'
import type {IO} from './io.js'

const ERASE_LINE = '\r\u001B[2K'

/** What a progress line counts: "run" and "runs". */
export interface Noun {
  one: string
  other: string
}

/**
 * A one-line status on stderr ("fetched 1,200 runs…"), redrawn in place. It shows only when
 * stderr is a TTY, at most every 100 ms, is erased before any row is written to stdout (contract
 * 1.4: no row ever shares a line with it), and never outlives the process: Ctrl-C or a closed
 * pipe end the process through `exit`, which erases it too (bin/run.cjs writes its newline after
 * Ctrl-C once the line is erased).
 */
export class Progress {
  private last: number | undefined
  private shown = false
  /** ends the erasing at exit (while the line shows) */
  private stopErasingAtExit?: () => void

  constructor(
    private readonly io: IO,
    private readonly noun: Noun,
    /** paces the redraws */
    private readonly clock: Clock,
    /** the process's exit, which erases the line */
    private readonly signals: Signals,
  ) {}

  update(count: number): void {
    if (!this.io.stderrIsTTY) return
    const now = this.clock.now()
    if (this.last !== undefined && now - this.last < 100) return
    this.last = now
    if (!this.shown) this.stopErasingAtExit = this.signals.atExit(() => this.clear())
    this.shown = true
    this.io.stderr.write(`${ERASE_LINE}fetched ${count.toLocaleString('en-US')} ${count === 1 ? this.noun.one : this.noun.other}…`)
  }

  /** Erases the line (before rows are written, and at the end). */
  clear(): void {
    if (!this.shown) return
    this.shown = false
    this.io.stderr.write(ERASE_LINE)
    this.stopErasingAtExit?.()
    this.stopErasingAtExit = undefined
  }
}
