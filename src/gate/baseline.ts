import type {Run} from '../contract/types.js'
import type {Page} from '../contract/vocabulary.js'
import {AmctlError, ExitCode, UsageError} from '../core/errors.js'
import {requireId} from '../input/values.js'
import {checkRun, createdMs, newestUntil} from './filter.js'
import {flagDuration} from '../output/time.js'
import {type BaselineFileGroup, fileGroupOf, fileRate, groupName, newestRunAt, targetOf} from './baseline-file.js'
import {
  type Baseline,
  type BaselineOutcomes,
  type FileBaseline,
  type FileChoice,
  type GateBaseline,
  type OutcomeRun,
  outcomeOf,
  statusText,
} from './rules.js'
import type {WatchState} from './state.js'
import {HISTORY, robustSummary, round6} from './stats.js'

/**
 * The baselines of the regression gate (`--baseline`, docs/ci.md).
 *
 * `--baseline previous` and `--baseline history`: for each group judged (a watched run, or with
 * --repeat the runs of one eval set, agent and model), the newest runs created before the
 * group's first run (by `createdAt`) with the same eval set, agent and model that succeeded with
 * a score: one of them for `previous`, up to `--baseline-runs` for `history`. Found in ONE
 * newest-first scan of the organization's run list (the mechanism of `runs list --since`,
 * ./filter.ts), which stops as soon as every group has all it wants, or at the first page that
 * reaches runs older than the oldest group's `createdAt` minus `--baseline-window`. Watched runs
 * are never baselines, and a run listed more than once counts once. A run of the same eval set,
 * agent and model whose score or createdAt is malformed is a bad answer (exit 1), never skipped.
 */

/** A group whose earlier runs are looked for: its ID, a run that names its eval set, agent and model, and its first createdAt. */
export interface BaselineProbe {
  id: string
  run: Run
  /** epoch ms: candidates must be created before it */
  at: number
}

/** A candidate of the scan: an earlier run's ID, score and creation time. */
export interface EarlierRun extends Baseline {
  createdAt: string
}

/** The earlier runs of a probe's target that were no baseline runs: failed, cancelled, succeeded without a score. */
export interface EarlierOutcomes {
  failed: number
  cancelled: number
  unscored: number
  /** the failed and cancelled ones, newest first (as the scan met them) */
  runs: OutcomeRun[]
}

const sameTarget = (a: Run, b: Run): boolean => a.evalSetId === b.evalSetId && a.agent === b.agent && a.model === b.model

/**
 * The earlier runs of each probe, newest first, at most `want` each, reading `pages` (newest
 * first, one request per page) no further than needed. `windowS` 0 = no limit; `watched`: IDs
 * that are never candidates.
 */
export async function findEarlierRuns(
  pages: AsyncIterable<Page<Run>>,
  probes: readonly BaselineProbe[],
  watched: ReadonlySet<string>,
  windowS: number,
  want: number,
  /** when given, each probe's failed, cancelled and unscored succeeded runs met among its candidates are counted here */
  outcomes?: Map<string, EarlierOutcomes>,
): Promise<Map<string, EarlierRun[]>> {
  const found = new Map<string, EarlierRun[]>(probes.map((p) => [p.id, []]))
  for (const probe of probes) outcomes?.set(probe.id, {failed: 0, cancelled: 0, unscored: 0, runs: []})
  if (probes.length === 0) return found
  const windowMs = windowS * 1000
  const pending = new Set(probes.map((p) => p.id))
  const oldest = Math.min(...probes.map((p) => p.at))
  // a run listed again (a server that repeats items, pages that overlap while the list grows)
  // counts once: its first listing as a candidate
  const counted = new Set<string>()
  for await (const page of newestUntil(pages, windowMs === 0 ? undefined : oldest - windowMs)) {
    for (const candidate of page.items) {
      if (watched.has(candidate.id) || counted.has(candidate.id)) continue
      const matching = probes.filter((p) => pending.has(p.id) && sameTarget(candidate, p.run))
      if (matching.length === 0) continue
      checkRun(candidate)
      const at = createdMs(candidate) as number
      const kind = outcomeOf(candidate)
      if (kind !== 'scored') {
        // an outcome among the probe's candidates: newer than the oldest run its history will hold, as the scan goes newest first
        if (outcomes === undefined || kind === undefined) continue
        counted.add(candidate.id)
        for (const probe of matching) {
          if (at >= probe.at || (windowMs !== 0 && at < probe.at - windowMs)) continue
          const tally = outcomes.get(probe.id) as EarlierOutcomes
          tally[kind]++
          if (kind !== 'unscored') tally.runs.push({id: candidate.id, status: kind, createdAt: candidate.createdAt as string})
        }
        continue
      }
      counted.add(candidate.id)
      for (const probe of matching) {
        if (at >= probe.at || (windowMs !== 0 && at < probe.at - windowMs)) continue
        const list = found.get(probe.id) as EarlierRun[]
        list.push({runId: candidate.id, score: candidate.score as number, createdAt: candidate.createdAt})
        if (list.length >= want) pending.delete(probe.id)
      }
    }
    if (pending.size === 0) break
  }
  return found
}

/**
 * `--baseline previous` for `watched` runs, each judged alone (their last known state: each has
 * a `createdAt`, checked by the poll): the newest earlier run like it, by watched run ID.
 */
export async function findBaselines(
  pages: AsyncIterable<Page<Run>>,
  watched: readonly Run[],
  windowS: number,
): Promise<Map<string, Baseline>> {
  const probes = watched.map((run) => ({id: run.id, run, at: createdMs(run) as number}))
  const earlier = await findEarlierRuns(pages, probes, new Set(watched.map((r) => r.id)), windowS, 1)
  const out = new Map<string, Baseline>()
  for (const [id, runs] of earlier) if (runs.length > 0) out.set(id, {runId: runs[0].runId, score: runs[0].score})
  return out
}

/**
 * `--baseline RUN_ID`: that run, found by reading the list from the newest (the API has no
 * GET of one run). Exit 5 when the whole list does not hold it; exit 2 when it did not succeed
 * with a score (nothing to compare with); exit 1 when its score is malformed.
 */
export async function findBaselineRun(pages: AsyncIterable<Page<Run>>, runId: string, listName: string): Promise<Baseline> {
  for await (const page of newestUntil(pages, undefined)) {
    const run = page.items.find((item) => item.id === runId)
    if (run === undefined) continue
    checkRun(run)
    if (run.status !== 'succeeded' || typeof run.score !== 'number') {
      const state = run.status === 'succeeded' ? 'it succeeded without a score' : `its status is ${statusText(run)}`
      throw new AmctlError(`--baseline ${runId} cannot be a baseline: ${state}; a baseline is a run that succeeded with a score`, {
        code: 'invalid_request',
        exitCode: ExitCode.usage,
      })
    }
    return {runId, score: run.score}
  }
  throw new AmctlError(`--baseline: run "${runId}" is not among ${listName}`, {code: 'not_found', exitCode: ExitCode.notFound})
}

/**
 * What the lookup found: each group's baseline, with history how many earlier runs a group
 * without one had, and with a baseline file why a group has none.
 */
export interface BaselineLookup {
  found: Map<string, GateBaseline>
  historyFound?: Map<string, number>
  /** by group ID: why it has no baseline (--baseline-file) */
  missing?: Map<string, string>
}

/**
 * The baselines of a wait's groups (`--baseline previous|history`), in one scan: for history,
 * the earlier runs summarized by the gate's estimator (./stats.ts robustSummary); fewer than
 * HISTORY.minRuns is no baseline.
 */
export async function lookUpBaselines(pages: AsyncIterable<Page<Run>>, state: WatchState): Promise<BaselineLookup> {
  const choice = state.rules.baseline
  const found = new Map<string, GateBaseline>()
  if (choice === undefined || choice.kind === 'run' || choice.kind === 'file') return {found}
  const probes: BaselineProbe[] = state.groups().map((group) => {
    const runs = state.runsOf(group).map((w) => w.run as Run)
    return {id: group.id, run: runs[0], at: Math.min(...runs.map((run) => createdMs(run) as number))}
  })
  const watched = new Set(state.entries().map((w) => w.id))
  const want = choice.kind === 'history' ? choice.runs : 1
  const tallies = new Map<string, EarlierOutcomes>()
  const earlier = await findEarlierRuns(pages, probes, watched, choice.windowS, want, choice.kind === 'history' ? tallies : undefined)
  if (choice.kind === 'previous') {
    for (const [id, runs] of earlier) if (runs.length > 0) found.set(id, {runId: runs[0].runId, score: runs[0].score})
    return {found}
  }
  const quantile = state.rules.quantile
  if (quantile === undefined) throw new Error('the history gate looks up baselines without a t quantile')
  const historyFound = new Map<string, number>()
  for (const [id, newestFirst] of earlier) {
    historyFound.set(id, newestFirst.length)
    if (newestFirst.length < HISTORY.minRuns) continue
    const runs = [...newestFirst].reverse()
    const summary = robustSummary(
      runs.map((r) => r.score),
      quantile,
    )
    found.set(id, {
      kind: 'history',
      runs: summary.kept.length,
      mean: round6(summary.mean),
      sd: round6(summary.sd),
      window: choice.windowS === 0 ? null : flagDuration(choice.windowS),
      runIds: summary.kept.map((i) => runs[i].runId),
      scores: summary.kept.map((i) => runs[i].score),
      times: summary.kept.map((i) => runs[i].createdAt),
      outliers: summary.outliers.map((i) => ({runId: runs[i].runId, score: runs[i].score})),
      outcomes: historyOutcomes(tallies.get(id), newestFirst.length),
    })
  }
  return {found, historyFound}
}

/**
 * A history's outcomes: its failed and cancelled runs, and its finished ones, the scored runs it
 * found (outliers too: they succeeded) and those that succeeded without a score among them.
 */
function historyOutcomes(tally: EarlierOutcomes | undefined, scored: number): BaselineOutcomes {
  const {failed, cancelled, unscored, runs} = tally ?? {failed: 0, cancelled: 0, unscored: 0, runs: []}
  return {failed, cancelled, finished: failed + scored + unscored, runs: [...runs].reverse()}
}

/**
 * `evals baseline save` without --runs: the runs of `evalSetId` created at or after `since`
 * (epoch ms; undefined: any), read newest first no further than the first page that reaches
 * older runs. A run of the eval set whose score or createdAt is malformed is a bad answer (exit 1).
 */
export async function evalSetRuns(pages: AsyncIterable<Page<Run>>, evalSetId: string, since: number | undefined): Promise<Run[]> {
  const found: Run[] = []
  for await (const page of newestUntil(pages, since)) {
    for (const run of page.items) {
      if (run.evalSetId !== evalSetId) continue
      checkRun(run)
      if (since === undefined || (createdMs(run) as number) >= since) found.push(run)
    }
  }
  return found
}

/**
 * The run IDs of `--runs FILE|-`: whitespace-separated IDs (one a line), or the `--json` document
 * of `evals run` (with or without --wait, --repeat) or `runs watch`: the IDs of its `runs` or
 * `items`, else its `runIds`. Anything else is exit 2 naming what was expected.
 */
export function runIdsOf(text: string, label: string): string[] {
  const trimmed = text.trim()
  if (trimmed === '') throw new UsageError(`${label}: no run IDs`)
  if (!trimmed.startsWith('{')) {
    const ids = trimmed.split(/\s+/)
    return ids.map((id) => requireId(`${label}:`, id))
  }
  let doc: unknown
  try {
    doc = JSON.parse(trimmed)
  } catch (error) {
    throw new UsageError(
      `${label}: not JSON (${(error as Error).message}); give run IDs one a line, or the --json document of evals run or runs watch`,
    )
  }
  const record = doc as Record<string, unknown>
  if (record.outcome === 'unknown')
    throw new UsageError(`${label}: the document of a launch whose outcome is unknown holds no runs to save`)
  const runs = Array.isArray(record.runs) ? record.runs : Array.isArray(record.items) ? record.items : undefined
  const ids =
    runs !== undefined ? runs.map((run) => (run as {id?: unknown} | null)?.id) : Array.isArray(record.runIds) ? record.runIds : undefined
  if (ids === undefined) {
    throw new UsageError(
      `${label}: a JSON document without "runs", "items" or "runIds"; give the --json document of evals run or runs watch`,
    )
  }
  if (ids.length === 0) throw new UsageError(`${label}: the document names no runs`)
  return ids.map((id) => {
    if (typeof id !== 'string') throw new UsageError(`${label}: a run ID that is not text: ${JSON.stringify(id)}`)
    return requireId(`${label}:`, id)
  })
}

/**
 * `--baseline-file`: each group's runs in the file (no request): the group of the file with its
 * agent and model, when its runs are of the file's eval set; fewer than HISTORY.minRuns runs is no
 * baseline, and so is a group the file does not have or a run of another eval set (`missing` says
 * which). `now` (epoch ms) decides staleness: a group whose newest run is older than
 * --baseline-max-age is stale.
 */
export function fileBaselines(state: WatchState, choice: FileChoice, now: number): BaselineLookup {
  const {file, path} = choice
  const found = new Map<string, GateBaseline>()
  const missing = new Map<string, string>()
  for (const group of state.groups()) {
    const run = state.runsOf(group)[0]?.run as Run
    if (run.evalSetId !== file.evalSetId) {
      missing.set(group.id, `its runs are of eval set ${String(run.evalSetId)}; ${path} is of ${file.evalSetId}`)
      continue
    }
    const entry = fileGroupOf(file, run.agent, run.model)
    const name = groupName(targetOf(run))
    if (entry === undefined || entry.runs.length < HISTORY.minRuns) {
      const held = entry === undefined ? 'no runs' : `${entry.runs.length} run${entry.runs.length === 1 ? '' : 's'}`
      missing.set(group.id, `${path} holds ${held} of ${name} (at least ${HISTORY.minRuns} needed)`)
      continue
    }
    found.set(group.id, fileBaselineOf(choice, entry, now))
  }
  return {found, missing}
}

/**
 * A group of the baseline file as the gate judges against it (`--baseline-file`, and the band of
 * `evals report --baseline-file`): its runs, mean and sd, whether it is stale at `now` (epoch ms),
 * and its failed and cancelled runs when the file records them.
 */
export function fileBaselineOf(
  choice: Pick<FileChoice, 'file' | 'path' | 'maxAgeS' | 'outcomes'>,
  entry: BaselineFileGroup,
  now: number,
): FileBaseline {
  const {file, path} = choice
  const newest = newestRunAt(entry)
  const rate = fileRate(entry)
  return {
    kind: 'file',
    path,
    runs: entry.runs.length,
    mean: entry.mean,
    sd: entry.sd,
    runIds: entry.runs.map((r) => r.id),
    scores: entry.runs.map((r) => r.score),
    times: entry.runs.map((r) => r.createdAt),
    savedAt: file.savedAt,
    newestRunAt: newest,
    stale: choice.maxAgeS > 0 && newest !== null && now - Date.parse(newest) > choice.maxAgeS * 1000,
    outcomes: choice.outcomes
      ? {
          failed: rate.failed,
          cancelled: entry.cancelled.length,
          finished: rate.finished,
          runs: [
            ...entry.failed.map((r) => ({id: r.id, status: 'failed' as const, createdAt: r.createdAt})),
            ...entry.cancelled.map((r) => ({id: r.id, status: 'cancelled' as const, createdAt: r.createdAt})),
          ].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
        }
      : null,
  }
}
