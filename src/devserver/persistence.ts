import {existsSync, readFileSync} from 'node:fs'
import {writeFileAtomic} from '../core/fs-atomic.js'

/** Shortest wait between a change and its write; later writes wait twice the last write's time. */
const MIN_DELAY_MS = 20

/**
 * Keeps `--data FILE` in step with the state: changes are coalesced into at most one pending
 * write (atomic, so a crash leaves the old file or the new one, never a mix), and `close`
 * writes whatever is still pending.
 */
export class Persistence {
  private timer: NodeJS.Timeout | undefined
  private dirty = false
  private closed = false
  private lastWriteMs = 0

  constructor(
    private readonly file: string,
    private readonly snapshot: () => string,
    private readonly onError: (error: Error) => void,
  ) {}

  /** The file's text, or undefined when it does not exist yet. */
  static read(file: string): string | undefined {
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined
  }

  markDirty(): void {
    if (this.closed) return
    this.dirty = true
    if (this.timer !== undefined) return
    this.timer = setTimeout(() => this.flush(), Math.max(MIN_DELAY_MS, 2 * this.lastWriteMs))
    this.timer.unref()
  }

  /** Writes now if anything changed since the last write; a failure is reported (and answered). */
  flush(): Error | undefined {
    clearTimeout(this.timer)
    this.timer = undefined
    if (!this.dirty) return undefined
    this.dirty = false
    const started = Date.now()
    let failure: Error | undefined
    try {
      writeFileAtomic(this.file, this.snapshot())
    } catch (error) {
      this.dirty = true
      failure = error as Error
      this.onError(failure)
    }
    this.lastWriteMs = Date.now() - started
    return failure
  }

  /** The last write; throws when it fails, so the changes it held are not lost in silence. */
  close(): void {
    const failure = this.flush()
    this.closed = true
    if (failure !== undefined) throw failure
  }
}
