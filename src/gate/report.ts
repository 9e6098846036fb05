import {accessSync, constants, lstatSync, readlinkSync, realpathSync} from 'node:fs'
import {basename, dirname, join, resolve} from 'node:path'
import {UsageError} from '../core/errors.js'
import {appendWithoutBlocking, ensurePrivateDir, fileSystemError, statOrUndefined, writeFileAtomic} from '../core/fs-atomic.js'
import type {IO} from '../output/io.js'
import type {Renderer} from '../output/renderer.js'
import {githubAnnotations} from '../output/reports/github.js'
import {junitXml} from '../output/reports/junit.js'
import {markdownSummary} from '../output/reports/markdown.js'
import type {CiReport, ReportBaseline, ReportGroup, ReportRun} from '../output/reports/model.js'
import {flagDuration} from '../output/time.js'
import {createdMs} from './filter.js'
import {type FinalOutcome, interruptedBy} from './watch.js'
import {STOP_SIGNALS} from '../core/signals.js'
import {type GateBaseline, type Group, isFinished, isHistory, judgesNoise, statusText} from './rules.js'
import {type Judgement, NOT_JUDGED} from './words.js'
import type {WatchState} from './state.js'
import {REPEAT, type ReportTargets} from './flags.js'

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

export interface ReportContext {
  org: string
  /** the API's host name */
  host: string
  /** `evals run --wait`: the eval set of runs the wait never found */
  evalSetId?: string
  /** the time of day when the wait began, epoch ms (the clock's wall; its `now` is monotonic) */
  wallStart: number
  /** --repeat auto: how many launches, at most how many, and which groups the last one was made for */
  auto?: AutoReport
}

/** --repeat auto, as the reports say it. */
export interface AutoReport {
  launches: number
  maxRepeat: number
  /** the groups still undecided before the last launch (none: one launch decided every group) */
  lastFor: string[]
}

/** A gate baseline as the reports show it (the history without its window). */
function reportBaseline(baseline: GateBaseline | null | undefined): ReportBaseline | null {
  if (baseline == null) return null
  if (!isHistory(baseline)) return baseline
  const {runs, mean, sd, runIds, scores, outliers} = baseline
  return {kind: 'history', runs, mean, sd, runIds, scores, outliers}
}

/** What the wait saw, as the typed report the renderers take. */
export function buildReport(outcome: FinalOutcome, ctx: ReportContext): CiReport {
  const {state} = outcome
  const {rules} = state
  // wall-clock ms of a moment of the wait's clock
  const wall = (at: number) => ctx.wallStart + (at - outcome.startedAt)
  const timeout = `not finished within --wait-timeout ${flagDuration(outcome.timeoutS, false)}`
  const why: Record<FinalOutcome['end'], string> = {
    passed: 'not finished',
    'not-passed': 'not finished when the wait stopped at the first run that did not pass (--fail-fast)',
    timeout,
    interrupted: `not finished when the wait was interrupted (${STOP_SIGNALS[interruptedBy(outcome)].words})`,
  }
  const grouped = rules.grouped === true
  const notJudged = `${NOT_JUDGED} ${flagDuration(outcome.timeoutS, false)}`
  const runs = state.entries().map((w): ReportRun => {
    const run = w.run
    const created = run === undefined ? undefined : createdMs(run)
    const seenAt = wall(w.finishedAt ?? outcome.endedAt)
    const group = state.groupOf(w.id)
    const judgement = group === undefined ? undefined : state.judge(group)
    const failed = state.shortfallOf(w)
    const verdict = state.runVerdict(w)
    // finished, but not judged: the time limit cut the search for its baseline short
    const unjudged = isFinished(run) && verdict === 'unfinished' && outcome.cut === 'baselines'
    const item: ReportRun = {
      id: w.id,
      evalSetId: run === undefined ? (ctx.evalSetId ?? null) : stringOrNull(run.evalSetId),
      agent: run === undefined ? null : stringOrNull(run.agent),
      model: run === undefined ? null : stringOrNull(run.model),
      status: run === undefined ? null : statusText(run),
      score: typeof run?.score === 'number' ? run.score : null,
      seconds: created === undefined ? null : Math.max(0, Math.round(seenAt - created) / 1000),
      createdAt: run === undefined ? null : stringOrNull(run.createdAt),
      verdict,
      outcome: failed ? 'failed' : isFinished(run) && !unjudged ? 'passed' : 'skipped',
    }
    if (failed) item.failure = {rule: failed.rule, reason: failed.reason}
    if (item.outcome === 'skipped')
      item.skipped = `${unjudged ? notJudged : why[outcome.end]}${run === undefined ? ' (not found yet)' : ` (${statusText(run)})`}`
    if (!grouped && judgement?.note !== undefined) item.note = judgement.note
    if (rules.baseline !== undefined && !grouped) {
      // never looked up (the search was cut short): no baseline to show, not "none found"
      if (group?.baseline !== undefined) item.baseline = reportBaseline(group.baseline)
      item.delta = judgement?.delta ?? null
      if (judgesNoise(rules.baseline.kind)) {
        item.margin = judgement?.margin ?? null
        item.detectable = judgement?.detectable ?? null
      }
    }
    return item
  })
  const report: CiReport = {
    end: outcome.end,
    ...(outcome.cut === undefined ? {} : {cut: outcome.cut}),
    ...(outcome.end === 'interrupted' ? {signal: interruptedBy(outcome)} : {}),
    org: ctx.org,
    host: ctx.host,
    rules: {...reportRules(outcome), auto: ctx.auto, resolution: state.resolution(REPEAT.max)},
    runs,
  }
  if (grouped)
    report.groups = state.judged().map(({group, judgement}) => reportGroup(state, group, judgement, runs, why[outcome.end], notJudged))
  return report
}

function reportRules(outcome: FinalOutcome): CiReport['rules'] {
  const {rules} = outcome.state
  const baseline = rules.baseline
  return {
    minScore: rules.minScore,
    maxDrop: rules.maxDrop,
    baseline: baseline === undefined ? undefined : baseline.kind === 'run' ? baseline.baseline.runId : baseline.kind,
    baselineWindowS: baseline?.kind === 'history' || baseline?.kind === 'previous' ? baseline.windowS : undefined,
    baselineRuns: baseline?.kind === 'history' ? baseline.runs : undefined,
    baselineFile: baseline?.kind === 'file' ? {path: baseline.path, savedAt: baseline.file.savedAt, maxAgeS: baseline.maxAgeS} : undefined,
    confidence: baseline !== undefined && 'confidence' in baseline ? baseline.confidence : undefined,
    comparisons: judgesNoise(baseline?.kind) ? outcome.state.comparisons() : undefined,
    requireBaseline: rules.requireBaseline || undefined,
    timeoutS: outcome.timeoutS,
  }
}

function reportGroup(
  state: WatchState,
  group: Group,
  judgement: Judgement,
  runs: ReportRun[],
  skippedWhy: string,
  notJudged: string,
): ReportGroup {
  const members = group.runIds.map((id) => runs.find((r) => r.id === id) as ReportRun)
  const first = members[0]
  const item: ReportGroup = {
    id: group.id,
    evalSetId: first?.evalSetId ?? null,
    agent: first?.agent ?? null,
    model: first?.model ?? null,
    runIds: [...group.runIds],
    scores: members.map((r) => r.score),
    statuses: members.map((r) => r.status),
    score: judgement.score,
    seconds: members.reduce<number | null>((max, r) => (r.seconds === null ? max : Math.max(max ?? 0, r.seconds)), null),
    verdict: judgement.verdict,
    outcome: judgement.fails && judgement.decided ? 'failed' : judgement.decided ? 'passed' : 'skipped',
    failures: judgement.failures,
    flaky: judgement.flaky,
    k: judgement.k,
  }
  if (state.rules.sequential !== undefined) item.decidedAt = judgement.decidedAt ?? null
  if (item.outcome === 'failed' && judgement.shortfall) item.failure = {...judgement.shortfall}
  if (item.outcome === 'skipped')
    item.skipped =
      judgement.note === NOT_JUDGED
        ? notJudged
        : `${skippedWhy} (${members.filter((r) => r.outcome === 'skipped').length} of ${members.length} runs)`
  if (judgement.note !== undefined) item.note = judgement.note
  if (state.rules.baseline !== undefined) {
    if (group.baseline !== undefined) item.baseline = reportBaseline(group.baseline)
    item.delta = judgement.delta
    if (judgesNoise(state.rules.baseline.kind)) {
      item.margin = judgement.margin
      item.detectable = judgement.detectable
    }
  }
  return item
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : value == null ? null : JSON.stringify(value))

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
export async function writeReports(report: CiReport, targets: ReportTargets, writer: ReportWriter): Promise<void> {
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
