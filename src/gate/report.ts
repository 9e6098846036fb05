import {accessSync, constants, lstatSync, readlinkSync, realpathSync} from 'node:fs'
import {basename, dirname, join, resolve} from 'node:path'
import {UsageError} from '../core/errors.js'
import {appendWithoutBlocking, ensurePrivateDir, fileSystemError, statOrUndefined, writeFileAtomic} from '../core/fs-atomic.js'
import type {IO} from '../output/io.js'
import type {Renderer} from '../output/renderer.js'
import {githubAnnotations} from './reports/github.js'
import {junitXml} from './reports/junit.js'
import {markdownSummary} from './reports/markdown.js'
import type {GateResult} from './result.js'
import type {ReportTargets} from './flags.js'

/**
 * The CI reports of a wait (`--junit`, `--summary`, GitHub Actions): their paths checked before
 * anything is launched or requested (exit 2), the report built from how the wait ended, the
 * files written atomically (temp file and rename: never half-written) on every end of the wait
 * — passed (0), not passed (10), timed out (11), Ctrl-C (130) and SIGTERM (143) — and, in GitHub Actions, the
 * summary appended to $GITHUB_STEP_SUMMARY and the annotations on stderr.
 */

/** Reports are files for CI artifacts: readable by the job's other steps. */
const REPORT_MODE = 0o644

/** Paths that name one of this process's own streams: an atomic write would replace what they point at (`>> log`). */
const STREAM_PATH = /^\/(?:dev\/(?:stdout|stderr|stdin|fd(?:\/.*)?)|proc\/[^/]+\/fd(?:\/.*)?)$/

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
 * What a report path is, as a file: its real path (links followed, to the file a write would
 * create when the last link dangles), and its device and inode when it exists.
 */
function fileIdentity(path: string): {real: string; inode?: string} {
  const hops = linkHops(path)
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

/**
 * Each report path must be writable, checked up front (exit 2, nothing launched, no request):
 * not one of the process's own streams (`/dev/stdout`, `/dev/fd/N`, `/proc/PID/fd/N`, or a link
 * to one: an atomic write would replace the file the shell redirected stdout to); the two paths
 * different files, compared with links followed (to the file a write would create when a link's
 * target does not exist yet: both reports would land there) and by inode when they exist; not a
 * link to a missing file (the atomic write refuses one: the report would be lost at the end);
 * not a directory or another kind of non-regular file; and its directory, created when missing
 * (as test reporters do: `--junit reports/evals.xml`), writable.
 */
export function checkReportPaths(targets: ReportTargets): void {
  const given = (
    [
      ['--junit', targets.junit],
      ['--summary', targets.summary],
    ] as const
  ).flatMap(([label, path]) => (path === undefined ? [] : [{label, path, hops: linkHops(path)}]))
  for (const {label, path, hops} of given) checkNotStream(label, path, hops)
  if (targets.junit !== undefined && targets.summary !== undefined) {
    const a = fileIdentity(targets.junit)
    const b = fileIdentity(targets.summary)
    if (a.real === b.real || (a.inode !== undefined && a.inode === b.inode)) {
      throw new UsageError(`--junit ${targets.junit} and --summary ${targets.summary} are the same file; give two different files`)
    }
  }
  for (const {label, path, hops} of given) checkWritableTarget(label, path, hops)
}

/**
 * A path amctl will write a file to (`evals baseline save --file`), checked before anything is
 * requested (exit 2 naming `label`) as a report path is: not a stream of this process, not a
 * directory or another kind of non-regular file, in a directory that can be written.
 */
export function checkWritablePath(label: string, path: string): void {
  const hops = linkHops(path)
  checkNotStream(label, path, hops)
  checkWritableTarget(label, path, hops)
}

/** `path` (through the links `hops`) must not name one of this process's own streams. */
function checkNotStream(label: string, path: string, hops: string[]): void {
  if (hops.some((hop) => STREAM_PATH.test(hop))) {
    throw new UsageError(`${label} ${path} names a stream of this process, not a file; give a file path (the file is written atomically)`)
  }
}

/** Where the write of `path` lands (the file, or a link's final target) must be a regular file, or none yet, in a writable directory. */
function checkWritableTarget(label: string, path: string, hops: string[]): void {
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

export interface ReportWriter {
  io: IO
  out: Renderer
  env: NodeJS.ProcessEnv
}

/**
 * Writes the reports of `report`: the files atomically, then in GitHub Actions the step summary
 * (appended, as GitHub asks, never blocking: a FIFO nobody reads is a warning) and the
 * annotations on stderr. A report that cannot be written does not stop the others: each is
 * tried, then the first failure is thrown (exit 1 naming the file).
 */
export async function writeReports(report: GateResult, targets: ReportTargets, writer: ReportWriter): Promise<void> {
  const summary = targets.summary !== undefined || targets.annotations ? markdownSummary(report) : undefined
  const failures: unknown[] = []
  const attempt = async (write: () => void | Promise<void>) => {
    try {
      await write()
    } catch (error) {
      failures.push(error)
    }
  }
  const {junit} = targets
  if (junit !== undefined) await attempt(async () => writeReport(junit, await junitXml(report)))
  if (targets.summary !== undefined && summary !== undefined) await attempt(() => writeReport(targets.summary as string, summary))
  if (targets.annotations && summary !== undefined) {
    const stepSummary = writer.env.GITHUB_STEP_SUMMARY
    if (stepSummary) {
      try {
        appendWithoutBlocking(stepSummary, `${summary}\n`)
      } catch (error) {
        const why = (error as NodeJS.ErrnoException).code === 'ENXIO' ? ': it is a FIFO nobody reads' : ''
        writer.out.warning(
          `could not add the summary to $GITHUB_STEP_SUMMARY${why}: ${fileSystemError('append to', stepSummary, error).message}`,
        )
      }
    }
    for (const line of githubAnnotations(report)) writer.io.stderr.write(`${line}\n`)
  }
  if (failures.length > 0) throw failures[0]
}

function writeReport(path: string, content: string): void {
  try {
    writeFileAtomic(resolve(path), content, REPORT_MODE)
  } catch (error) {
    throw fileSystemError('write', path, error)
  }
}
