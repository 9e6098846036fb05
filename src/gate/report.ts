import {accessSync, appendFileSync, constants} from 'node:fs'
import {dirname, resolve} from 'node:path'
import {UsageError} from '../core/errors.js'
import {ensurePrivateDir, fileSystemError, statOrUndefined, writeFileAtomic} from '../core/fs-atomic.js'
import type {IO} from '../output/io.js'
import type {Renderer} from '../output/renderer.js'
import {githubAnnotations} from '../output/reports/github.js'
import {junitXml} from '../output/reports/junit.js'
import {markdownSummary} from '../output/reports/markdown.js'
import type {CiReport, ReportRun} from '../output/reports/model.js'
import {flagDuration} from '../output/time.js'
import {createdMs} from './filter.js'
import type {WatchOutcome} from './watch.js'
import {isFinished, scoreDelta, statusText} from './state.js'
import type {ReportTargets} from './flags.js'

/**
 * The CI reports of a wait (`--junit`, `--summary`, GitHub Actions): their paths checked before
 * anything is launched or requested (exit 2), the report built from how the wait ended, the
 * files written atomically (temp file and rename: never half-written) on every end of the wait
 * — passed (0), not passed (10), timed out (11) and Ctrl-C (130) — and, in GitHub Actions, the
 * summary appended to $GITHUB_STEP_SUMMARY and the annotations on stderr.
 */

/** Reports are files for CI artifacts: readable by the job's other steps. */
const REPORT_MODE = 0o644

/**
 * Each report path must be writable, checked up front (exit 2, nothing launched, no request):
 * its directory is created when missing (as test reporters do: `--junit reports/evals.xml`),
 * must be writable, and the path must not be a directory or another kind of non-regular file
 * (`/dev/stdout`: a rename would replace the device).
 */
export function checkReportPaths(targets: ReportTargets): void {
  for (const [label, path] of [
    ['--junit', targets.junit],
    ['--summary', targets.summary],
  ] as const) {
    if (path === undefined) continue
    const file = resolve(path)
    const stat = statOrUndefined(file)
    if (stat?.isDirectory()) throw new UsageError(`${label} ${path} is a directory; give a file path`)
    if (stat !== undefined && !stat.isFile()) throw new UsageError(`${label} ${path} is not a regular file`)
    try {
      ensurePrivateDir(dirname(file), 0o777)
      accessSync(dirname(file), constants.W_OK)
    } catch (error) {
      throw new UsageError(`${label} ${path} cannot be written: ${fileSystemError('write in', dirname(file), error).message}`)
    }
  }
}

export interface ReportContext {
  org: string
  /** the API's host name */
  host: string
  /** `evals run --wait`: the eval set of runs the wait never found */
  evalSetId?: string
  /** Date.now() when the wait began (the wait's own clock is monotonic) */
  wallStart: number
}

/** What the wait saw, as the typed report the renderers take. */
export function buildReport(outcome: WatchOutcome, ctx: ReportContext): CiReport {
  const {state} = outcome
  const {rules} = state
  // wall-clock ms of a moment of the wait's clock
  const wall = (at: number) => ctx.wallStart + (at - outcome.startedAt)
  const timeout = `not finished within --wait-timeout ${flagDuration(outcome.timeoutS, false)}`
  const why: Record<WatchOutcome['end'], string> = {
    passed: 'not finished',
    'not-passed': 'not finished when the wait stopped at the first run that did not pass (--fail-fast)',
    timeout,
    interrupted: 'not finished when the wait was interrupted (Ctrl-C)',
  }
  const runs = state.entries().map((w): ReportRun => {
    const run = w.run
    const created = run === undefined ? undefined : createdMs(run)
    const seenAt = wall(w.finishedAt ?? outcome.endedAt)
    const failed = state.shortfallOf(w)
    const item: ReportRun = {
      id: w.id,
      evalSetId: run === undefined ? (ctx.evalSetId ?? null) : stringOrNull(run.evalSetId),
      agent: run === undefined ? null : stringOrNull(run.agent),
      model: run === undefined ? null : stringOrNull(run.model),
      status: run === undefined ? null : statusText(run),
      score: typeof run?.score === 'number' ? run.score : null,
      seconds: created === undefined ? null : Math.max(0, Math.round(seenAt - created) / 1000),
      createdAt: run === undefined ? null : stringOrNull(run.createdAt),
      outcome: failed ? 'failed' : isFinished(run) ? 'passed' : 'skipped',
    }
    if (failed) item.failure = {rule: failed.rule, reason: failed.reason}
    if (item.outcome === 'skipped') item.skipped = `${why[outcome.end]}${run === undefined ? ' (not found yet)' : ` (${statusText(run)})`}`
    if (rules.baseline !== undefined) {
      item.baseline = w.baseline ?? null
      item.delta = run === undefined ? null : scoreDelta(run, w.baseline)
    }
    return item
  })
  const baseline = rules.baseline
  return {
    end: outcome.end,
    org: ctx.org,
    host: ctx.host,
    rules: {
      minScore: rules.minScore,
      maxDrop: rules.maxDrop,
      baseline: baseline === undefined ? undefined : baseline.kind === 'previous' ? 'previous' : baseline.baseline.runId,
      baselineWindowS: baseline?.kind === 'previous' ? baseline.windowS : undefined,
      timeoutS: outcome.timeoutS,
    },
    runs,
  }
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : value == null ? null : JSON.stringify(value))

export interface ReportWriter {
  io: IO
  out: Renderer
  env: NodeJS.ProcessEnv
}

/**
 * Writes the reports of `report`: the files atomically (a failure is exit 1 naming the file),
 * then in GitHub Actions the step summary (appended, as GitHub asks; a failure is a warning) and
 * the annotations on stderr.
 */
export async function writeReports(report: CiReport, targets: ReportTargets, writer: ReportWriter): Promise<void> {
  const summary = targets.summary !== undefined || targets.annotations ? markdownSummary(report) : undefined
  if (targets.junit !== undefined) writeReport(targets.junit, await junitXml(report))
  if (targets.summary !== undefined && summary !== undefined) writeReport(targets.summary, summary)
  if (!targets.annotations || summary === undefined) return
  const stepSummary = writer.env.GITHUB_STEP_SUMMARY
  if (stepSummary) {
    try {
      appendFileSync(stepSummary, `${summary}\n`)
    } catch (error) {
      writer.out.warning(`could not add the summary to $GITHUB_STEP_SUMMARY: ${fileSystemError('append to', stepSummary, error).message}`)
    }
  }
  for (const line of githubAnnotations(report)) writer.io.stderr.write(`${line}\n`)
}

function writeReport(path: string, content: string): void {
  try {
    writeFileAtomic(resolve(path), content, REPORT_MODE)
  } catch (error) {
    throw fileSystemError('write', path, error)
  }
}
