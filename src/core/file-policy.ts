import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from 'node:fs'
import {basename, dirname, join, resolve} from 'node:path'
import {AmctlError, UsageError} from './errors.js'
import {ensurePrivateDir, fileSystemError, statOrUndefined, withFileLock, writeFileAtomic} from './fs-atomic.js'

/**
 * Which files amctl may write, and how a file it read is replaced, said once for every writer:
 * the CI reports (`--junit`, `--summary`, `--html`), the baseline file (`evals baseline save
 * --file`, `--update-baseline`), and below them the atomic write the config, the credentials
 * and the caches use (./fs-atomic.ts).
 *
 * - A path is vetted before anything is launched or requested (exit 2): not one of this
 *   process's own streams (`/dev/stdout`, `/dev/fd/N`, `/proc/PID/fd/N`, or a link to one: an
 *   atomic write would replace the file the shell redirected stdout to), nothing under /proc or
 *   /sys, not a link to a missing file, not a directory or another kind of non-regular file, and
 *   its directory (created when missing) writable.
 * - The files one command writes, and the files it reads that a write must not replace (the
 *   baseline file a report could overwrite), are different files: compared with links followed
 *   (to the file a write would create when a link's target does not exist yet) and by device and
 *   inode when they exist, so a hard link or a symbolic link to the same file is the same file.
 * - A file read and later replaced (`--update-baseline`) is replaced where it was read: its real
 *   path as it was when read, under a lock, only if that path still holds the file read (its
 *   device and inode); a link re-pointed meanwhile changes nothing, and the file keeps its mode.
 */

/** A file a command writes or reads, as a flag named it. */
export interface Target {
  /** the flag, as errors name it: `--junit` */
  label: string
  path: string
}

// (no O_NOFOLLOW on Windows, where a file read again is taken as it is)
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0

/** Paths that name one of this process's own streams: an atomic write would replace what they point at (`>> log`). */
const STREAM_PATH = /^\/(?:dev\/(?:stdout|stderr|stdin|fd(?:\/.*)?)|proc\/[^/]+\/fd(?:\/.*)?)$/

/** The kernel's own trees: their "files" are the state of processes (`/proc/self/environ`), never a report or a baseline. */
const KERNEL_TREE = /^\/(?:proc|sys)(?:\/|$)/

/** `path` with its directory's links resolved (its last part as it is), or as written when the directory is not there. */
function realDirectory(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path))
  } catch {
    return path
  }
}

/**
 * `path` and every link it goes through, hop by hop (at most 40, as the kernel allows); a link's
 * target is read from the link's real directory, as the kernel reads it. The last hop is the
 * file a write through `path` creates or replaces: also when it does not exist yet (a link not
 * yet pointing at an existing file).
 */
function linkHops(path: string): string[] {
  const hops = [resolve(path)]
  for (let i = 0; i < 40; i++) {
    const current = hops[hops.length - 1]
    let target: string
    try {
      if (!lstatSync(current).isSymbolicLink()) break
      target = readlinkSync(current)
    } catch {
      break
    }
    hops.push(resolve(dirname(realDirectory(current)), target))
  }
  return hops
}

/**
 * What a path is, as a file: its real path (links followed, to the file a write would create
 * when the last link dangles), and its device and inode when it exists.
 */
function fileIdentity(hops: readonly string[]): {real: string; inode?: string} {
  const file = hops[hops.length - 1]
  const stat = statOrUndefined(file)
  let real = realDirectory(file)
  if (stat !== undefined) {
    try {
      real = realpathSync(file)
    } catch {
      // (gone since): its directory's real path
    }
  }
  return {real, inode: stat === undefined ? undefined : `${stat.dev}:${stat.ino}`}
}

/** `path` (through the links `hops`) must not name one of this process's own streams, nor a file of the kernel's trees. */
function checkNotSpecial(target: Target, hops: readonly string[]): void {
  const {label, path} = target
  if (hops.some((hop) => STREAM_PATH.test(hop))) {
    throw new UsageError(`${label} ${path} names a stream of this process, not a file; give a file path (the file is written atomically)`)
  }
  if (hops.some((hop) => KERNEL_TREE.test(hop)))
    throw new UsageError(`${label} ${path} is under /proc or /sys, not a file amctl reads or writes`)
}

/** Where the write of `path` lands (the file, or a link's final target) must be a regular file, or none yet, in a writable directory. */
function checkWritableTarget(target: Target, hops: readonly string[]): void {
  const {label, path} = target
  const file = hops[hops.length - 1]
  const stat = statOrUndefined(file)
  if (stat === undefined && hops.length > 1) {
    throw new UsageError(`${label} ${path} is a symbolic link to a missing file (${file}); give that file's path, or create it`)
  }
  if (stat?.isDirectory()) throw new UsageError(`${label} ${path} is a directory; give a file path`)
  if (stat !== undefined && !stat.isFile()) throw new UsageError(`${label} ${path} is not a regular file`)
  try {
    ensurePrivateDir(dirname(file), 0o777)
    accessSync(dirname(file), constants.W_OK)
  } catch (error) {
    throw new UsageError(`${label} ${path} cannot be written: ${fileSystemError('write in', dirname(file), error).message}`)
  }
}

/**
 * Vets every file one command will write (`writes`), with the files it reads that none of them
 * may replace (`reads`), before anything is launched or requested: each as the top of this file
 * says, and no two the same file (exit 2 naming both).
 */
export function vetWrites(writes: readonly Target[], reads: readonly Target[] = []): void {
  const all = [...writes.map((t) => ({...t, write: true})), ...reads.map((t) => ({...t, write: false}))].map((t) => ({
    ...t,
    hops: linkHops(t.path),
  }))
  for (const target of all) checkNotSpecial(target, target.hops)
  const identities = all.map((t) => fileIdentity(t.hops))
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      if (!all[i].write && !all[j].write) continue
      const [a, b] = [identities[i], identities[j]]
      if (a.real !== b.real && (a.inode === undefined || a.inode !== b.inode)) continue
      const [first, second] = [all[i], all[j]]
      const read = !second.write ? `: the ${first.label.replace(/^--/, '')} would overwrite it` : ''
      throw new UsageError(
        `${first.label} ${first.path} and ${second.label} ${second.path} are the same file${read}; give two different files`,
      )
    }
  }
  for (const target of all) if (target.write) checkWritableTarget(target, target.hops)
}

/** Vets one file a command will write (see vetWrites). */
export function vetWrite(label: string, path: string): void {
  vetWrites([{label, path}])
}

/**
 * Refuses a path to read that is not a file amctl reads: one of this process's streams, or a
 * file of /proc or /sys (`/proc/self/environ` holds the token of a CI job), links followed
 * (exit 2 naming `label`).
 */
export function vetRead(label: string, path: string): void {
  checkNotSpecial({label, path}, linkHops(path))
}

/** A file as it was read: where it really is, which file it was, its mode, and its text. */
export interface FileRead {
  /** the path as given */
  path: string
  /** its real path when read (links followed): where it is read again and replaced */
  real: string
  /** device and inode of the very file read (fstat of the descriptor it was read from) */
  dev: number
  ino: number
  /** its permission bits, kept when it is replaced */
  mode: number
  text: string
}

/**
 * Reads the regular file at `path` (links followed) through one descriptor, so that what is
 * returned is the file that was stat-ed; larger than `maxBytes`, not regular, or missing: the
 * error `problem` names. Throws the file system's own error otherwise.
 */
export function readFile(path: string, maxBytes: number, problem: (what: string) => Error, follow = true): FileRead {
  const real = follow ? realpathSync(path) : path
  // (read again where it was read: a link put there since is not followed, ELOOP)
  const fd = openSync(real, follow ? constants.O_RDONLY : constants.O_RDONLY | O_NOFOLLOW)
  try {
    const stat: Stats = fstatSync(fd)
    if (stat.isDirectory()) throw problem('it is a directory')
    if (!stat.isFile()) throw problem('it is not a regular file')
    if (stat.size > maxBytes) throw problem(`it is larger than ${maxBytes / 1024 / 1024} MiB`)
    return {path, real, dev: stat.dev, ino: stat.ino, mode: stat.mode & 0o7777, text: readFileSync(fd, 'utf8')}
  } finally {
    closeSync(fd)
  }
}

/**
 * Read-modify-write of a file read before (`read`): under the lock of its real path, reads it
 * there again (never through a link that may have been re-pointed since), lets `change` compute
 * the new text from what it holds now (none: leave it), and replaces it atomically, keeping its
 * mode — only if its real path still holds the file just read (the same device and inode right
 * before the rename). Returns the `value` `change` returned.
 */
export function replaceFile<T>(
  read: Pick<FileRead, 'path' | 'real'>,
  maxBytes: number,
  problem: (what: string) => Error,
  change: (now: FileRead) => {value: T; text?: string},
): T {
  return withFileLock(read.real, () => {
    const now = readFile(read.real, maxBytes, problem, false)
    const next = change({...now, path: read.path})
    if (next.text === undefined) return next.value
    writeFileAtomic(read.real, next.text, now.mode, {
      followLinks: false,
      beforeRename: (target) => {
        const stat = lstatSync(target, {throwIfNoEntry: false})
        if (stat === undefined || stat.isSymbolicLink() || stat.dev !== now.dev || stat.ino !== now.ino) {
          throw new AmctlError(`${read.path} changed while amctl was replacing it (${target} is another file now); it was left as it is`, {
            code: 'file_error',
            exitCode: 1,
          })
        }
      },
    })
    return next.value
  })
}
