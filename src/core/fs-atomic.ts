import {chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync} from 'node:fs'
import {dirname} from 'node:path'

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
