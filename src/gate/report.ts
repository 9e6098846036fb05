import {resolve} from 'node:path'
import {type Target, vetWrites} from '../core/file-policy.js'
import {appendWithoutBlocking, fileSystemError, writeFileAtomic} from '../core/fs-atomic.js'
import type {IO} from '../output/io.js'
import type {Renderer} from '../output/renderer.js'
import {githubAnnotations} from './reports/github.js'
import {reportChunks, waitReport} from './reports/html.js'
import {loadVerdictDistributions} from './stats.js'
import {junitXml} from './reports/junit.js'
import {markdownSummary} from './reports/markdown.js'
import type {GateResult} from './result.js'
import type {ReportTargets, WaitPlan} from './flags.js'

/**
 * The CI reports of a wait (`--junit`, `--summary`, `--html`, GitHub Actions): their paths checked before
 * anything is launched or requested (exit 2), the report built from how the wait ended, the
 * files written atomically (temp file and rename: never half-written) on every end of the wait
 * — passed (0), not passed (10), timed out (11), Ctrl-C (130) and SIGTERM (143) — and, in GitHub Actions, the
 * summary appended to $GITHUB_STEP_SUMMARY and the annotations on stderr.
 */

/** Reports are files for CI artifacts: readable by the job's other steps. */
const REPORT_MODE = 0o644

/**
 * The files a wait writes (the reports; the baseline file with --update-baseline) and reads
 * (the baseline file), vetted together before anything is launched or requested (exit 2:
 * src/core/file-policy.ts): a report path is never a stream of this process, never the other
 * report, never the baseline file, however linked.
 */
export function checkReportPaths(plan: Pick<WaitPlan, 'reports'> & {options: Pick<WaitPlan['options'], 'baseline'>}): void {
  const {reports} = plan
  const writes: Target[] = []
  if (reports.junit !== undefined) writes.push({label: '--junit', path: reports.junit})
  if (reports.summary !== undefined) writes.push({label: '--summary', path: reports.summary})
  if (reports.html !== undefined) writes.push({label: '--html', path: reports.html})
  const choice = plan.options.baseline
  const file = choice?.kind === 'file' ? [{label: '--baseline-file', path: choice.path}] : []
  vetWrites(choice?.kind === 'file' && choice.update ? [...writes, ...file] : writes, choice?.kind === 'file' && choice.update ? [] : file)
}

export interface ReportWriter {
  io: IO
  out: Renderer
  env: NodeJS.ProcessEnv
  /** the time of day, epoch ms: when the HTML report says it was written */
  now: number
}

/**
 * Writes the reports of `report`: the files atomically, then in GitHub Actions the step summary
 * (appended, as GitHub asks, never blocking: a FIFO nobody reads is a warning) and the
 * annotations on stderr. A report that cannot be written does not stop the others: each is
 * tried, then the first failure is thrown (exit 1 naming the file).
 */
export async function writeReports(report: GateResult, targets: ReportTargets, writer: ReportWriter): Promise<void> {
  const summary = targets.summary !== undefined || targets.annotations ? markdownSummary(report, {docsUrl: docsUrl(writer.env)}) : undefined
  const failures: unknown[] = []
  const attempt = async (write: () => unknown) => {
    try {
      await write()
    } catch (error) {
      failures.push(error)
    }
  }
  const {junit} = targets
  if (junit !== undefined) await attempt(async () => writeReport(junit, await junitXml(report)))
  if (targets.summary !== undefined && summary !== undefined) await attempt(() => writeReport(targets.summary as string, summary))
  const {html} = targets
  if (html !== undefined) await attempt(async () => writeReport(html, await htmlReport(report, targets.runUrl, writer.now)))
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

/** The HTML report of a wait (./reports/html.ts), with the level change's test loaded (jstat, dist/stats.cjs). */
async function htmlReport(report: GateResult, runUrl: string | undefined, now: number): Promise<Iterable<string>> {
  const {normalQuantile} = await loadVerdictDistributions()
  return reportChunks(waitReport(report, {now, normalQuantile, ...(runUrl === undefined ? {} : {runUrl})}))
}

/**
 * Where the summary links amctl's docs: AMCTL_DOCS_URL, an http(s) URL of the docs/ folder (the
 * Action sets its own release's); anything else is no link.
 */
export function docsUrl(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.AMCTL_DOCS_URL
  if (value === undefined || value === '') return undefined
  try {
    const {protocol} = new URL(value)
    return protocol === 'https:' || protocol === 'http:' ? value : undefined
  } catch {
    return undefined
  }
}

/** Writes one report atomically, mode 0644 (exit 1 naming the file when it cannot); returns its size in bytes. */
export function writeReport(path: string, content: string | Iterable<string>): number {
  try {
    return writeFileAtomic(resolve(path), content, REPORT_MODE)
  } catch (error) {
    throw fileSystemError('write', path, error)
  }
}
