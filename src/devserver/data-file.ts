import {closeSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeSync} from 'node:fs'
import {hostname} from 'node:os'
import {basename, dirname, join} from 'node:path'

/**
 * `--data FILE` belongs to one server at a time: `<FILE>.lock` (created exclusively) names the
 * process holding it, and is removed when that server stops. A lock whose process is gone (a
 * crash, `kill -9`) is taken over.
 *
 * Hand-written: the lockfile libraries refresh a timestamp on a timer to keep a lock alive,
 * which would keep this process awake; a process ID is what a long-held lock needs.
 */

/** A lock file younger than this that cannot be read may still be being written. */
const UNREADABLE_GRACE_MS = 5000

export class DataFileLocked extends Error {}

interface Holder {
  pid: number
  host: string
  startedAt: string
}

export class DataFileLock {
  private constructor(readonly path: string) {}

  /** Takes the lock of `file` at `now` (the server's clock, epoch ms), or throws DataFileLocked naming the holder. */
  static acquire(file: string, now: number): DataFileLock {
    const path = `${file}.lock`
    const me: Holder = {pid: process.pid, host: hostname(), startedAt: new Date(now).toISOString()}
    for (let attempt = 0; ; attempt += 1) {
      try {
        const fd = openSync(path, 'wx', 0o600)
        try {
          writeSync(fd, `${JSON.stringify(me)}\n`)
        } finally {
          closeSync(fd)
        }
        return new DataFileLock(path)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const holder = readHolder(path)
      if (attempt === 0 && isStale(path, holder, now)) {
        rmSync(path, {force: true})
        continue
      }
      const who = holder === undefined ? 'another process' : `process ${holder.pid} on ${holder.host} since ${holder.startedAt}`
      throw new DataFileLocked(`${file} is in use by another amctl dev server (${who}; lock ${path}); stop that server first`)
    }
  }

  release(): void {
    rmSync(this.path, {force: true})
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>
    return Number.isInteger(value.pid) && typeof value.host === 'string' ? (value as Holder) : undefined
  } catch {
    return undefined
  }
}

function isStale(path: string, holder: Holder | undefined, now: number): boolean {
  if (holder === undefined) {
    try {
      return now - statSync(path).mtimeMs > UNREADABLE_GRACE_MS
    } catch {
      return true
    }
  }
  // a process of another machine (a shared folder) cannot be checked: it holds the lock
  if (holder.host !== hostname()) return false
  try {
    process.kill(holder.pid, 0)
    return false
  } catch (error) {
    // EPERM: it exists, run by someone else
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

/**
 * Removes the temporary files that atomic writes of `file` leave when they are interrupted
 * (`<FILE>.<pid>.<random>.tmp`, src/core/fs-atomic.ts). Only while holding the lock: then no
 * other server is writing one. Answers the names removed.
 */
export function removeLeftoverTemps(file: string): string[] {
  const dir = dirname(file)
  const prefix = `${basename(file)}.`
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return removed
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !/^\d+\.[0-9a-z]+\.tmp$/.test(name.slice(prefix.length))) continue
    rmSync(join(dir, name), {force: true})
    removed.push(name)
  }
  return removed
}
