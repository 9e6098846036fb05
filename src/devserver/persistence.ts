import {existsSync, readFileSync} from 'node:fs'
import {writeFileAtomic} from '../core/fs-atomic.js'

/**
 * Keeps `--data FILE` and the state in memory in step: each change is written (atomically, so a
 * crash leaves the old file or the new one, never a mix) before it is answered, so nothing
 * acknowledged is lost on restart. A change that cannot be written (a full disk, a file-size
 * limit, a directory in the way) is undone in memory from the text the file still holds, and
 * its request is answered 507 (src/devserver/http-server.ts): nothing unacknowledged stays in
 * memory either.
 *
 * Written through rather than coalesced: a change waiting for a later write would already be
 * visible to other requests, and lost if that write failed.
 */
export class Persistence {
  /** what the file holds: the state as of the last change acknowledged */
  private written: string

  constructor(
    private readonly file: string,
    private readonly snapshot: () => string,
    /** puts the state in memory back to `text` (what the file holds) */
    private readonly restore: (text: string) => void,
    private readonly onError: (error: Error) => void,
    /** the file's text at start */
    initial: string,
  ) {
    this.written = initial
  }

  /** The file's text, or undefined when it does not exist yet. */
  static read(file: string): string | undefined {
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined
  }

  /**
   * Writes the state as it is now. On failure the state in memory is put back to what the file
   * holds, the failure is reported, and returned (the caller answers 507).
   */
  commit(): Error | undefined {
    const text = this.snapshot()
    try {
      writeFileAtomic(this.file, text)
    } catch (error) {
      this.restore(this.written)
      this.onError(error as Error)
      return error as Error
    }
    this.written = text
    return undefined
  }
}
