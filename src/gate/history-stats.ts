import {runPages} from '../api/runs.js'
import type {Run} from '../contract/types.js'
import {PAGE_LIMIT} from '../contract/vocabulary.js'
import type {Clock} from '../core/clock.js'
import type {HttpClient} from '../core/http/client.js'
import type {Signals} from '../core/signals.js'
import {assertRow} from '../output/format.js'
import type {IO} from '../output/io.js'
import {Progress} from '../output/progress.js'
import {BadResponseError} from '../core/errors.js'
import {RecentIds} from '../core/http/paginate.js'
import {byAgentAndModel} from './baseline-file.js'
import {RunningStats} from './stats.js'
import {createdMs} from './filter.js'
import type {Column} from '../output/format.js'
import {newestForTrend, sparkline, sparkScale} from '../output/sparkline.js'
import {type EvalStatsShift, type Judge, judgeRuns, type ScoredRun, shiftColumns, VERDICT, type Verdict} from './history-verdict.js'

/**
 * `amctl evals stats`: the runs of one eval set, summed up per agent × model while the run list
 * streams past (newest first), in memory that does not grow with the list: counts, Welford's
 * running mean and standard deviation (../../../gate/stats.ts), and the newest VERDICT.maxScores
 * scores (the trend, and the change-point test of the verdict, ./verdict.ts).
 */

/** How many of the newest scores the trend holds. */

/** The shares of an agent × model's finished runs that succeeded, failed and were cancelled. */
export interface EvalStatsShares {
  succeeded: number
  failed: number
  cancelled: number
}

export type {EvalStatsShift} from './history-verdict.js'

/** One agent × model of the eval set (`--json`: an item of `groups`). */
export interface EvalStatsGroup {
  /** the agent, or null for runs without one */
  agent: string | null
  /** the model, or null for runs without one */
  model: string | null
  /** runs created within the window, whatever their status */
  runs: number
  succeeded: number
  failed: number
  cancelled: number
  /** runs not finished yet (queued, running, or a status amctl does not know) */
  unfinished: number
  /** shares of the finished runs (succeeded + failed + cancelled), rounded to 4 decimals; null when none finished */
  share: EvalStatsShares | null
  /** how many succeeded runs have a score: what mean, sd and trend are made of */
  scored: number
  /** the mean of those scores, rounded to 6 decimals; null without one */
  mean: number | null
  /** their sample standard deviation (n − 1), rounded to 6 decimals; null with fewer than two */
  sd: number | null
  /** the newest succeeded run with a score, or null */
  last: {runId: string; score: number; createdAt: string} | null
  /** the newest scores (at most TREND_LENGTH), oldest first */
  trend: number[]
  /**
   * shifted: the scores changed level within the window, beyond noise at --confidence; flaky: more
   * failed runs than a failure rate of 5 % explains at --confidence; too-few: fewer than 10 scores
   * and not flaky; stable: neither (docs/ci.md)
   */
  verdict: Verdict
  /** with `shifted`, the newest change of level; otherwise null */
  shift: EvalStatsShift | null
}

/** The `--json` document of `amctl evals stats` (a scripts' contract: see docs/ci.md). */
export interface EvalStats {
  evalSetId: string
  /** the runs counted: created at or after `since` (null: no limit, `--window 0`), read at `until` */
  window: {seconds: number; since: string | null; until: string}
  /** runs of the eval set within the window */
  runs: number
  /** one per agent × model, by agent then model (null last) */
  groups: EvalStatsGroup[]
}

/** How many IDs a generation of EvalStatsTally's repeat check holds (src/core/http/paginate.ts). */
export {RECENT_IDS} from '../core/http/paginate.js'

/** What is kept of one agent × model while the runs stream past. */
type Tally = Pick<EvalStatsGroup, 'agent' | 'model' | 'runs' | 'succeeded' | 'failed' | 'cancelled' | 'last'> & {
  scores: RunningStats
  /** the newest VERDICT.maxScores scored runs, newest first */
  newest: ScoredRun[]
}

/** Sums up runs of `evalSetId` created at or after `since` (epoch ms; undefined: any), fed newest first. */
export class EvalStatsTally {
  /** by agent, then model (a run without one under null) */
  private readonly groups = new Map<string | null, Map<string | null, Tally>>()
  private total = 0
  /**
   * The IDs counted lately: a run listed again (pages that overlap while the list grows, a server
   * that repeats items) counts once, as its first listing, as in the gate's scan
   * (../../../gate/baseline.ts). Two generations of at most RECENT_IDS each, so that memory stays
   * flat: a repeat within RECENT_IDS runs of its first listing is always found, far more than the
   * runs a page's overlap can hold. (A page of nothing but repeats never gets here: the pager
   * ends the read on it.)
   */
  private readonly seen = new RecentIds()

  constructor(
    readonly evalSetId: string,
    readonly since: number | undefined,
    /** told of every run counted, once, as it is counted (`evals report` keeps them for its charts and table) */
    private readonly counted?: (run: Run, target: {agent: string | null; model: string | null; score: number | null; at: number}) => void,
  ) {}

  /**
   * Counts `run` when it is of the eval set and within the window; anything else is passed over.
   * Answers whether the run is older than the window: the list comes newest first, so no later
   * page holds a run to count (the early stop of `runs list --since`, ../../../gate/filter.ts; the
   * date is read once per run, here). A run of another eval set without a date does not count
   * as older.
   */
  add(run: Run): boolean {
    const at = createdMs(run)
    const older = this.since !== undefined && at !== undefined && at < this.since
    if (run.evalSetId !== this.evalSetId) return older
    if (at === undefined) throw badRun(run, 'createdAt', 'is not a date')
    if (older) return true
    if (!this.seen.add(run.id)) return false
    const agent = nameOf(run, 'agent')
    const model = nameOf(run, 'model')
    const score = scoreOf(run)
    let models = this.groups.get(agent)
    if (models === undefined) {
      models = new Map()
      this.groups.set(agent, models)
    }
    let tally = models.get(model)
    if (tally === undefined) {
      tally = {agent, model, runs: 0, succeeded: 0, failed: 0, cancelled: 0, scores: new RunningStats(), last: null, newest: []}
      models.set(model, tally)
    }
    this.total++
    this.counted?.(run, {agent, model, score, at})
    tally.runs++
    if (run.status === 'failed') tally.failed++
    else if (run.status === 'cancelled') tally.cancelled++
    else if (run.status === 'succeeded') {
      tally.succeeded++
      if (score !== null) {
        tally.scores.add(score)
        tally.last ??= {runId: run.id, score, createdAt: run.createdAt}
        if (tally.newest.length < VERDICT.maxScores) tally.newest.push({id: run.id, score, createdAt: run.createdAt})
      }
    }
    return false
  }

  /**
   * The summary so far, as `--json` prints it; `until`: when the runs were read (epoch ms),
   * `windowS` the window, `judge` the confidence and distributions of the verdicts.
   */
  result(windowS: number, until: number, judge: Judge): EvalStats {
    const groups = [...this.groups.values()]
      .flatMap((models) => [...models.values()])
      .sort(byAgentAndModel)
      .map((tally) => summary(tally, judge))
    return {
      evalSetId: this.evalSetId,
      window: {
        seconds: windowS,
        since: this.since === undefined ? null : new Date(this.since).toISOString(),
        until: new Date(until).toISOString(),
      },
      runs: this.total,
      groups,
    }
  }
}

function summary(tally: Tally, judge: Judge): EvalStatsGroup {
  const finished = tally.succeeded + tally.failed + tally.cancelled
  const share = (n: number): number => round(n / finished, 4)
  const {mean, sd} = tally.scores
  const oldestFirst = [...tally.newest].reverse()
  const {verdict, shift} = judgeRuns({failed: tally.failed, finished, runs: oldestFirst}, judge)
  return {
    agent: tally.agent,
    model: tally.model,
    runs: tally.runs,
    succeeded: tally.succeeded,
    failed: tally.failed,
    cancelled: tally.cancelled,
    unfinished: tally.runs - finished,
    share: finished === 0 ? null : {succeeded: share(tally.succeeded), failed: share(tally.failed), cancelled: share(tally.cancelled)},
    scored: tally.scores.n,
    mean: mean === undefined ? null : round(mean, 6),
    sd: sd === undefined ? null : round(sd, 6),
    last: tally.last,
    trend: newestForTrend(oldestFirst).map((s) => s.score),
    verdict,
    shift,
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

function badRun(run: Run, member: string, problem: string): BadResponseError {
  return new BadResponseError(`the server's run ${JSON.stringify(run.id)} has a ${member} that ${problem}: ${JSON.stringify(run[member])}`)
}

/** A run's agent or model: a name, or null when it has none; anything else is a bad answer. */
function nameOf(run: Run, member: 'agent' | 'model'): string | null {
  const value: unknown = run[member]
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') throw badRun(run, member, 'is not a string')
  return value
}

/** A run's score: a number from 0 to 1, or null when it has none; anything else is a bad answer. */
function scoreOf(run: Run): number | null {
  const value: unknown = run.score
  if (value === undefined || value === null) return null
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    throw badRun(run, 'score', 'is not a number from 0 to 1')
  return value
}

/**
 * The table (a terminal) and the tab-separated rows (piped): agent, model, runs, the shares of
 * finished runs that succeeded (OK, piped only: on a terminal it is what FAILED and CANCELLED
 * leave), failed and were cancelled (fractions when piped, percentages on a terminal), the mean
 * and standard deviation of the scores, the last score, the verdict; on a terminal also the trend
 * as a sparkline, every row on one scale; piped, after the verdict, the shift's run ID, date,
 * level before, level after and delta (empty unless shifted). Fields added later are appended, so
 * the earlier ones keep their places. Headers are short: with the trend's 20 columns the table
 * fits about 105 columns, the model cut first on a narrower terminal.
 */
export function statsColumns(groups: readonly EvalStatsGroup[]): Column<EvalStatsGroup>[] {
  // every row's trend on one scale, so that a noisier agent's line is visibly wider than a steadier one's
  const scale = sparkScale(groups.map((g) => g.trend))
  return [
    {header: 'AGENT', get: (g) => g.agent},
    {header: 'MODEL', get: (g) => g.model, flexible: true},
    {header: 'RUNS', get: (g) => g.runs},
    // on a terminal OK is 100 % less FAILED and CANCELLED: its room goes to VERDICT
    {header: 'OK', get: (g) => g.share?.succeeded ?? null, show: 'share', only: 'tsv'},
    {header: 'FAILED', get: (g) => g.share?.failed ?? null, show: 'share'},
    {header: 'CANCELLED', get: (g) => g.share?.cancelled ?? null, show: 'share'},
    {header: 'MEAN', get: (g) => g.mean, show: 'score'},
    {header: 'SD', get: (g) => g.sd, show: 'score'},
    {header: 'LAST', get: (g) => g.last?.score ?? null, show: 'score'},
    {header: 'VERDICT', get: (g) => g.verdict, appended: true},
    {header: 'TREND', get: (g) => (g.trend.length === 0 ? null : sparkline(g.trend, scale)), extra: true},
    ...shiftColumns((g: EvalStatsGroup) => g.shift),
  ]
}

/**
 * Reads the organization's runs newest first, a page at a time, handing each to `add` (which
 * says when a run is older than its window), with a count of the runs read on a terminal's
 * stderr: the one read of `evals stats` and `evals report`. The pages after one that reaches a
 * run older than the window hold only older runs, so the read stops there.
 */
export async function readHistory(
  client: HttpClient,
  org: string,
  world: {io: IO; clock: Clock; signals: Signals},
  add: (run: Run) => boolean,
): Promise<void> {
  const progress = new Progress(world.io, {one: 'run', other: 'runs'}, world.clock, world.signals)
  let read = 0
  try {
    for await (const page of runPages(client, org, {query: {limit: PAGE_LIMIT.max}})) {
      let reached = false
      for (const run of page.items) {
        assertRow(run)
        if (add(run)) reached = true
      }
      read += page.items.length
      progress.update(read)
      if (reached) break
    }
  } finally {
    progress.clear()
  }
}
