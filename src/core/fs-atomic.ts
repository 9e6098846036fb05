import {chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync} from 'node:fs'
import {dirname} from 'node:path'
import {AmctlError} from './errors.js'

const LOCK_WAIT_MS = 5000
const LOCK_STALE_MS = 10_000

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/**
 * Runs `change` while holding `<file>.lock` (created exclusively; one left behind by a crashed
 * process is taken over after 10 s), so that read-modify-write cycles of concurrent amctl
 * processes on the same file never lose each other's changes.
 */
export function withFileLock<T>(file: string, change: () => T): T {
  const lock = `${file}.lock`
  const deadline = Date.now() + LOCK_WAIT_MS
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600))
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, {force: true})
      } catch {
        // the holder just released it
      }
      if (Date.now() > deadline) throw new AmctlError(`${lock} is held by another amctl process`, {code: 'locked', exitCode: 1})
      sleepSync(20)
    }
  }
  try {
    return change()
  } finally {
    rmSync(lock, {force: true})
  }
}

/**
 * Creates `dir` (and parents) and makes sure `dir` itself has `mode`, even when it already
 * existed with a looser one.
 */
export function ensurePrivateDir(dir: string, mode = 0o700): void {
  mkdirSync(dir, {recursive: true, mode})
  if ((statSync(dir).mode & 0o777) !== mode) chmodSync(dir, mode)
}

/**
 * Writes `data` to `file` so that a reader (or a crash) only ever sees the old content or the
 * new one: write a temp file beside it with the final mode, fsync, then rename over.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): void {
  // unique enough with the pid; 'wx' refuses to reuse a name anyway (node:crypto costs start-up)
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`
  let fd: number | undefined
  try {
    fd = openSync(tmp, 'wx', mode)
    const buf = typeof data === 'string' ? Buffer.from(data) : data
    let off = 0
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off)
    fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    chmodSync(tmp, mode) // the umask may have narrowed or (never) widened it
    renameSync(tmp, file)
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    rmSync(tmp, {force: true})
    throw error
  }
  try {
    // make the rename itself durable
    const dfd = openSync(dirname(file), 'r')
    try {
      fsyncSync(dfd)
    } finally {
      closeSync(dfd)
    }
  } catch {
    // some filesystems refuse fsync on a directory; the rename is still atomic
  }
}
