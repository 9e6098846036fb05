import {
  chmodSync,
  constants,
  closeSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from 'node:fs'
import {dirname} from 'node:path'
import {AmctlError, corruptFileError, errnoWords} from './errors.js'

/**
 * The file system under amctl's own files (config.json, credentials.json, the dev server's
 * data file): directories created private and never re-moded, JSON read without side effects,
 * atomic writes through symbolic links, a lock for read-modify-write, and failures as one line
 * naming the path.
 */

const LOCK_WAIT_MS = 5000
const LOCK_POLL_MS = 20
const LOCK_STALE_MS = 10_000

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

/**
 * A failed file-system call as one line: `cannot <action> <path>: permission denied (EACCES)`.
 * The words are libuv's own (`EACCES: permission denied, open '…'`), so no table of errnos here.
 */
export function fileSystemError(action: string, path: string, error: unknown): AmctlError {
  if (error instanceof AmctlError) return error
  return new AmctlError(`cannot ${action} ${path}: ${errnoWords(error)}`, {code: 'file_error', exitCode: 1, cause: error})
}

/** A file of amctl's own that parses but is not what amctl wrote: exit 1, naming the file. */
export function wrongShapeError(file: string, problem: string): AmctlError {
  return new AmctlError(`${file} is corrupt: ${problem}; fix or delete it`, {code: 'invalid_config', exitCode: 1})
}

/**
 * The parsed content of a JSON file, or undefined when there is no file (nor directory). Reads
 * only: nothing is created, no mode is changed. A symbolic link is followed.
 */
export function readJsonFile(file: string): unknown {
  return readJsonFileAndOwner(file).value
}

/**
 * readJsonFile, and the owner of the very file read (fstat of the descriptor it was read from,
 * so no other file can stand in for it between a look and the read).
 */
export function readJsonFileAndOwner(file: string): {value: unknown; uid?: number} {
  let text: string
  let uid: number
  let fd: number | undefined
  try {
    fd = openSync(file, 'r')
    uid = fstatSync(fd).uid
    text = readFileSync(fd, 'utf8')
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return {value: undefined}
    throw fileSystemError('read', file, error)
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
  try {
    return {value: JSON.parse(text) as unknown, uid}
  } catch (error) {
    throw corruptFileError(file, error)
  }
}

/**
 * The owner of a file or directory when it is another user: not the user running amctl, nor root
 * (whom ssh trusts too). Undefined where files have no owners (Windows).
 */
export function foreignOwner(uid: number | undefined): number | undefined {
  const me = process.getuid?.()
  if (me === undefined || uid === undefined) return undefined
  return uid === me || uid === 0 ? undefined : uid
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Runs `change` while holding `<file>.lock` (created exclusively; one left behind by a crashed
 * process is taken over after 10 s), so that read-modify-write cycles of concurrent amctl
 * processes on the same file never lose each other's changes. Only "the lock exists" is waited
 * on, about 5 s (the waits counted, no clock read); any other failure to create it (read-only,
 * missing directory, /proc) is reported at once.
 */
export function withFileLock<T>(file: string, change: () => T): T {
  const lock = `${file}.lock`
  for (let waited = 0; ; waited += LOCK_POLL_MS) {
    try {
      closeSync(openSync(lock, 'wx', 0o600))
      break
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw fileSystemError('create', lock, error)
      if (lockAge(lock) > LOCK_STALE_MS) rmSync(lock, {force: true})
      if (waited >= LOCK_WAIT_MS) throw new AmctlError(`${lock} is held by another amctl process`, {code: 'locked', exitCode: 1})
      sleepSync(LOCK_POLL_MS)
    }
  }
  try {
    return change()
  } finally {
    rmSync(lock, {force: true})
  }
}

/**
 * How long ago `lock` was made, by the file system's clock: a probe file made beside it, its
 * modification time against the lock's. No clock of the process is read (a command's comes from
 * its world, src/base/world.ts, and is not handed this far down), and a lock on a shared file
 * system is judged by that system's time, as its holder's was. 0 when it cannot be told (the
 * holder just released it, the probe cannot be made): the lock is waited for.
 */
function lockAge(lock: string): number {
  const probe = `${lock}.${process.pid}.probe`
  try {
    const fd = openSync(probe, 'w', 0o600)
    try {
      return fstatSync(fd).mtimeMs - statSync(lock).mtimeMs
    } finally {
      closeSync(fd)
      rmSync(probe, {force: true})
    }
  } catch {
    return 0
  }
}

/**
 * Creates `dir` with `mode` (the umask can only narrow it), and its missing parents, when it
 * does not exist. A directory that exists is left exactly as it is: never chmod-ed (it may be a
 * shared directory such as /tmp). Failures are an AmctlError naming the directory.
 *
 * Hand-written instead of `mkdirSync(dir, {recursive: true})`: Node's recursive mkdir never
 * returns when mkdir answers ENOENT under a parent that exists, as /proc does (`/proc/self/x`).
 */
export function ensurePrivateDir(dir: string, mode = 0o700): void {
  try {
    mkdirSync(dir, {mode})
  } catch (error) {
    const code = errnoOf(error)
    if (code === 'EEXIST' && statOrUndefined(dir)?.isDirectory()) return
    const parent = dirname(dir)
    // ENOENT means a parent is missing, unless it exists: then this file system cannot hold the directory
    if (code !== 'ENOENT' || parent === dir || statOrUndefined(parent) !== undefined) throw fileSystemError('create directory', dir, error)
    ensurePrivateDir(parent, mode)
    try {
      mkdirSync(dir, {mode})
    } catch (again) {
      if (!(errnoOf(again) === 'EEXIST' && statOrUndefined(dir)?.isDirectory())) throw fileSystemError('create directory', dir, again)
    }
  }
}

/** The stat of `path` (following links), or undefined when it cannot be had. */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/**
 * Where a write of `file` lands: the file itself, or the final target when it is a symbolic
 * link (so a link into a dotfiles repository stays a link). A link to nothing is refused.
 */
function writeTarget(file: string): string {
  try {
    return realpathSync(file)
  } catch (error) {
    if (errnoOf(error) !== 'ENOENT') throw error
    if (lstatSync(file, {throwIfNoEntry: false})?.isSymbolicLink()) {
      throw new AmctlError(`cannot write ${file}: it is a symbolic link to a missing file`, {code: 'file_error', exitCode: 1})
    }
    return file
  }
}

/** How writeFileAtomic replaces a file: whether a link is followed, and a last check of the target right before the rename. */
export interface AtomicWrite {
  /** false: `file` is the very path replaced (a link there is replaced, not followed); default true */
  followLinks?: boolean
  /** called with the path about to be replaced, after the new content is safe on disk: throws to leave it as it is */
  beforeRename?: (target: string) => void
}

/**
 * Writes `data` to `file` so that a reader (or a crash) only ever sees the old content or the
 * new one: write a temp file beside it with the final mode, fsync, then rename over. A symbolic
 * link is followed (unless `options.followLinks` is false): its target is replaced, the link
 * stays. `data` may be strings in order, each written as it comes. Returns the bytes written;
 * throws the file system's own error, or what `options.beforeRename` throws.
 */
export function writeFileAtomic(
  file: string,
  data: string | Uint8Array | Iterable<string>,
  mode = 0o600,
  options: AtomicWrite = {},
): number {
  const target = options.followLinks === false ? file : writeTarget(file)
  // unique enough with the pid; 'wx' refuses to reuse a name anyway (node:crypto costs start-up)
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`
  let fd: number | undefined
  let bytes = 0
  try {
    fd = openSync(tmp, 'wx', mode)
    // pieces (a large report) are written as they are made: the whole is never one string
    const pieces = typeof data === 'string' || data instanceof Uint8Array ? [data] : data
    for (const piece of pieces) {
      const buf = typeof piece === 'string' ? Buffer.from(piece) : piece
      let off = 0
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off)
      bytes += buf.length
    }
    fsyncSync(fd)
    closeSync(fd)
    fd = undefined
    chmodSync(tmp, mode) // the umask may have narrowed or (never) widened it
    options.beforeRename?.(target)
    renameSync(tmp, target)
  } catch (error) {
    if (fd !== undefined) closeSync(fd)
    rmSync(tmp, {force: true})
    throw error
  }
  try {
    // make the rename itself durable
    const dfd = openSync(dirname(target), 'r')
    try {
      fsyncSync(dfd)
    } finally {
      closeSync(dfd)
    }
  } catch {
    // some filesystems refuse fsync on a directory; the rename is still atomic
  }
  return bytes
}

/**
 * Read-modify-write of one of amctl's JSON files: creates its directory (0700) when missing,
 * then, under the lock, reads the file afresh (so another process's change written meanwhile is
 * kept), lets `change` compute the new content from it, and writes that atomically with mode
 * 0600. Returns the new content.
 */
export function updateJsonFile<T>(file: string, read: (file: string) => T, change: (content: T) => T): T {
  ensurePrivateDir(dirname(file))
  return withFileLock(file, () => {
    const next = change(read(file))
    try {
      writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, 0o600)
    } catch (error) {
      throw fileSystemError('write', file, error)
    }
    return next
  })
}

/**
 * Appends `data` to `file` (created with `mode` when missing) without ever blocking: the file is
 * opened with O_NONBLOCK, so a FIFO nobody reads (a `$GITHUB_STEP_SUMMARY` pointing at one) fails
 * at once with ENXIO instead of holding the command forever, and a write that would block fails
 * with EAGAIN. Appending is not atomic by nature (GitHub's step summary is written this way).
 * Throws the file system's own error.
 */
export function appendWithoutBlocking(file: string, data: string, mode = 0o644): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, mode)
  try {
    const buf = Buffer.from(data)
    let off = 0
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off)
  } finally {
    closeSync(fd)
  }
}
