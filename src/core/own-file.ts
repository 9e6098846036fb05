import {closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, type Stats} from 'node:fs'

/**
 * Whether a cache file may be read: the one check of the caches in the user's cache directory that
 * amctl reads back, said once. The code cache and a terminal's help (bin/launcher.cjs, through
 * dist/own-file.cjs, built from this file) and the completion cache of recent IDs (./recent.ts):
 * V8 runs what a code cache holds, help prints what its cache holds, and a shell's completion
 * offers what recent.json holds. Nothing another local user could have put there is ever read (a
 * cache directory they own or can write, a link, a file of theirs): with `sudo -E`, a user's cache
 * would otherwise feed root's run. A cache that fails the check is not read; it costs the speed,
 * or the IDs completion would offer, nothing else.
 *
 * Hand-written on node:fs: no library checks a file's owner, mode and links at once through the
 * descriptor that is then read.
 */

// (no O_NOFOLLOW on Windows, where neither uid nor mode bits apply either)
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0

/** Whether `stat` belongs to this user and nobody but the user (`writers`: the mode bits that must be clear) can write it. */
export function ownedPrivately(stat: Stats, writers = 0o022): boolean {
  const uid = process.getuid?.()
  return uid === undefined || (stat.uid === uid && (stat.mode & writers) === 0)
}

/**
 * Whether each of `dirs` is a real directory (not a link) of this user's that others cannot write.
 * (A directory its group can write is used: with a umask of 002 every directory is, and what is in
 * it is checked file by file.) Never throws.
 */
export function privateDirs(dirs: readonly string[]): boolean {
  try {
    for (const path of dirs) {
      const stat = lstatSync(path, {throwIfNoEntry: false})
      if (stat === undefined || !stat.isDirectory() || !ownedPrivately(stat, 0o002)) return false
    }
    return true
  } catch {
    // (a path below a file: ENOTDIR)
    return false
  }
}

/**
 * The content of `file` if it is a regular file of this user's that nobody else can write, not a
 * link and with no other name (a hard link to another of this user's files): else undefined. The
 * checks are made on the descriptor that is read (fstat), so no other file can stand in for it.
 * Never throws.
 */
export function readPrivateFile(file: string): Buffer | undefined {
  let fd: number | undefined
  try {
    fd = openSync(file, constants.O_RDONLY | O_NOFOLLOW)
    const stat = fstatSync(fd)
    if (!stat.isFile() || stat.nlink !== 1 || !ownedPrivately(stat)) return undefined
    return readFileSync(fd)
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
