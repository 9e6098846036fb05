import type {Run} from '../contract/types.js'
import {TERMINAL_RUN_STATUSES} from '../contract/vocabulary.js'
import type {FileRead} from '../core/file-policy.js'
import type {BaselineFile} from './baseline-file.js'
import type {ToleranceFactor, Quantile} from './stats.js'

/**
 * The gate's vocabulary, said once: the baselines a group is judged against, the rules a wait
 * holds runs to, the runs watched and the groups they are judged in. The state machine
 * (./state.ts), the judge (./verdict.ts), the result (./result.ts) and every report read these.
 */

/**
 * What a wait says of each run and each group, said once (docs/ci-reference.md "Verdicts"):
 *
 * - `passed`: succeeded, met --min-score, and (with --baseline) within noise / within --max-drop
 * - `improved`: above its baseline by more than the margin (history) or --max-drop (previous, RUN_ID)
 * - `no-baseline`: passed, but no baseline was found to compare with (fails with --require-baseline)
 * - `regressed`: below its baseline by more than max(--max-drop, margin) (history) or --max-drop
 * - `failed`: failed or cancelled (a group: half its runs or more)
 * - `below-min-score`: succeeded with a score below --min-score, or none
 * - `unfinished`: not finished when the wait ended, or finished but not judged: the time limit cut
 *   the search for its baseline short
 * - `inconclusive`: (--repeat auto) neither regressed nor cleared after the last launch; fails with --fail-inconclusive
 */
export const VERDICTS = [
  'passed',
  'improved',
  'no-baseline',
  'regressed',
  'failed',
  'below-min-score',
  'unfinished',
  'inconclusive',
] as const
export type RunVerdict = (typeof VERDICTS)[number]

/** Which rule a run or group did not pass (JUnit's failure type, the report's `failure.rule`). */
export type GateRule = 'status' | 'min-score' | 'max-drop' | 'noise' | 'baseline' | 'inconclusive'

/** A score's place against its baseline: below it beyond the bar, above it beyond the margin, or neither. */
export type Side = 'below' | 'above' | 'within'

/** A group of a baseline file whose newest run is older than --baseline-max-age. */
export interface Stale {
  /** the file, as given */
  path: string
  /** its group's newest run's createdAt (the file's savedAt when it has none) */
  newest: string
  /** --baseline-max-age in seconds */
  maxAgeS: number
}

/** Why a group has no baseline: what the history scan found, what the file lacks, or a stale file under --require-baseline. */
export type NoBaseline =
  | {kind: 'history'; found: number; windowS: number}
  | {kind: 'file'; missing: string}
  | {kind: 'previous'}
  | {kind: 'stale'; stale: Stale}

/** A baseline of many runs as a decision cites it: how many runs, where they are (a file), their mean and sd. */
export interface Cited {
  runs: number
  mean: number
  sd: number
  /** a baseline file's path; absent: a history */
  path?: string
}

/** A baseline's failure rate as a decision cites it: how many of its finished runs failed. */
export interface Rate {
  failed: number
  finished: number
}

/**
 * What decided a verdict, as data: the rule and the figures it used. Every output words it
 * (./words.ts) or reads it (the comment's "what to do", the HTML report); nothing parses sentences.
 */
export type Decision =
  /**
   * failures no rate explains decided it: without a baseline of many runs, against a group without
   * a baseline, or against one that records no outcomes (`unknown`: a baseline file of version
   * 1), a run that failed fails (and without a baseline of many runs, one that was cancelled)
   */
  | {rule: 'status'; failed: number; of: number; statuses: string[]; unknown?: boolean}
  /** failures beyond the baseline's own failure rate (./outcomes.ts): P(X ≥ failed | of) is at most the threshold */
  | {rule: 'failure-rate'; failed: number; of: number; baseline: Rate; p: number; threshold: number}
  /**
   * no run of the group succeeded yet, and its failures, if any, are within its rate: another
   * launch may decide it (`relaunch`), or none can (`inconclusive`; failing with --fail-inconclusive)
   */
  | {rule: 'no-success'; failed: number; cancelled: number; of: number; state: 'relaunch' | 'inconclusive'; failInconclusive: boolean}
  /** runs not finished yet */
  | {rule: 'pending'}
  /** finished, but never judged: the time limit cut the search for its baseline short */
  | {rule: 'not-judged'}
  /** no score, or below --min-score (judged before any baseline) */
  | {rule: 'min-score'; minScore: number; unscored: boolean}
  /** succeeded, and nothing more was asked */
  | {rule: 'succeeded'}
  /** nothing to compare with (fails with --require-baseline) */
  | {rule: 'no-baseline'; why: NoBaseline; required: boolean}
  /** --baseline previous|RUN_ID: one run, and --max-drop the only bar (none given: nothing fails) */
  | {rule: 'max-drop'; against: Baseline; maxDrop: number | null; unscored: boolean; side: Side}
  /**
   * --baseline history or --baseline-file: the noise of many runs at `level` (the step's
   * confidence); `bar` says which bar a regression crossed (the margin, or a larger --max-drop)
   */
  | {rule: 'noise'; baseline: Cited; level: number; maxDrop: number | null; unscored: boolean; side: Side; bar: 'noise' | 'max-drop'}
  /**
   * --repeat auto: within the margin, and the drop's upper confidence bound `upper` against
   * --max-drop: below it (cleared), or not yet (undecided: another launch may decide it), or not
   * after the last launch (inconclusive; failing with --fail-inconclusive)
   */
  | {
      rule: 'sequential'
      baseline: Cited
      level: number
      maxDrop: number
      upper: number
      state: 'cleared' | 'undecided' | 'inconclusive'
      looks: number
      failInconclusive: boolean
    }

/** What a group's runs' outcomes say, judged against its baseline's failure rate (with a baseline of many runs). */
export interface Outcomes {
  /** its runs that failed, were cancelled (never a failure: relaunched), succeeded */
  failed: number
  cancelled: number
  succeeded: number
  /** the baseline's failure rate; null: unknown (a baseline file of version 1) */
  baseline: Rate | null
  /** with failures and a rate: P(X ≥ failed) under the baseline's rate, the beta-binomial predictive */
  p: number | null
  /** the threshold p must not exceed (0: no count of failures this step can make is beyond the rate); null without a rate */
  threshold: number | null
  /** the share of the step's false-alarm rate the failure test spends (the score test gets the rest of the group's) */
  size: number
  /** the failure rate this step catches 4 times in 5 (./outcomes.ts detectableRate); null when none is */
  detectableRate: number | null
}

/** What a group's judgement says, as data (./words.ts adds the sentences, WatchState.judge both). */
export interface Judged {
  verdict: RunVerdict
  /** it fails the step (a failing verdict, or no-baseline under --require-baseline) */
  fails: boolean
  /** the verdict can no longer change (every run finished, or failures alone decided it) */
  decided: boolean
  /** what decided it, and with which figures */
  decision: Decision
  /** how many runs the group holds (1: a run judged alone) */
  size: number
  /** the group's score: the mean of its succeeded runs' scores (a run's own score alone) */
  score: number | null
  /** how many scores that mean holds */
  k: number
  /** runs that failed or were cancelled */
  failures: number
  /** some of its runs failed or were cancelled, and its verdict is its other runs': judged on those */
  flaky: boolean
  /** with a baseline of many runs: its runs' outcomes against the baseline's failure rate */
  outcomes?: Outcomes
  /** judged against a stale group of the baseline file (a warning; --require-baseline makes it no-baseline) */
  stale?: Stale
  /** score minus the baseline's (its mean with history), 6 decimals */
  delta: number | null
  /** --baseline history: the prediction margin */
  margin: number | null
  /** --max-drop as this group is held to it: the value given, or its multiple of the baseline's sd (`3sd`) */
  maxDrop?: number | null
  /** --baseline history: the confidence each group was judged at (Bonferroni over the groups judged) */
  confidence: number | null
  /** --baseline history or --baseline-file: the smallest true drop this judgement finds 4 times in 5 (./stats.ts detectableDrop) */
  detectable: number | null
  /** --repeat auto: the launch that decided it (null: inconclusive, or not decided yet) */
  decidedAt?: number | null
  /** undecided, and a further launch may decide it */
  more?: boolean
}

/** A run another is compared with (`--baseline previous|RUN_ID`): what --json shows as `baseline`. */
export interface Baseline {
  runId: string
  score: number
}

/** `--baseline history`: the earlier runs a group is judged against, as --json shows them. */
export interface HistoryBaseline {
  kind: 'history'
  /** runs kept (outliers set aside) */
  runs: number
  mean: number
  /** the sample standard deviation of the runs kept (the margin uses at least ./stats.ts sdFloor) */
  sd: number
  /** --baseline-window as given ("30d"), or null for no limit */
  window: string | null
  /** the runs kept, oldest first, and their scores and createdAt in the same order */
  runIds: string[]
  scores: number[]
  times: string[]
  /** runs set aside as outliers */
  outliers: Baseline[]
  /** the same target's failed and cancelled runs the scan met among them: its failure rate */
  outcomes: BaselineOutcomes
}

/** A baseline's outcomes: of its finished runs (succeeded or failed) how many failed, and how many were cancelled. */
export interface BaselineOutcomes extends Rate {
  cancelled: number
  /** the failed and cancelled runs counted, oldest first */
  runs: OutcomeRun[]
}

/** A run of a baseline that failed or was cancelled: where the reports mark it on the time axis. */
export interface OutcomeRun {
  id: string
  status: 'failed' | 'cancelled'
  /** ISO 8601, as the API gave it */
  createdAt: string
}

/** `--baseline-file`: a group's runs in the baseline file, as --json and the reports show them. */
export interface FileBaseline {
  kind: 'file'
  /** the file, as given */
  path: string
  /** how many runs the group holds there */
  runs: number
  mean: number
  /** the sample standard deviation of those runs (the margin uses at least the sd floor) */
  sd: number
  /** the runs, oldest first, and their scores and createdAt in the same order */
  runIds: string[]
  scores: number[]
  times: string[]
  /** when the file was saved or last updated */
  savedAt: string
  /** the group's newest run's createdAt */
  newestRunAt: string | null
  /** its newest run is older than --baseline-max-age */
  stale: boolean
  /** the group's failed and cancelled runs the file records: its failure rate; null: a file of version 1, which records none */
  outcomes: BaselineOutcomes | null
}

/** A baseline of many runs, judged by the noise of their scores: a history, or a group of a baseline file. */
export type SampleBaseline = HistoryBaseline | FileBaseline

export type GateBaseline = Baseline | SampleBaseline

export const isHistory = (baseline: GateBaseline | null | undefined): baseline is HistoryBaseline =>
  baseline != null && 'kind' in baseline && baseline.kind === 'history'

export const isSample = (baseline: GateBaseline | null | undefined): baseline is SampleBaseline =>
  baseline != null && 'kind' in baseline && (baseline.kind === 'history' || baseline.kind === 'file')

/** Whether a choice of baseline judges the noise of many runs (a history, a baseline file): margins, the correction. */
export const judgesNoise = (kind: string | undefined): boolean => kind === 'history' || kind === 'file'

/** Where each group's baseline comes from. */
export type BaselineChoice =
  | {kind: 'previous'; windowS: number}
  | {kind: 'run'; baseline: Baseline}
  | {kind: 'history'; windowS: number; runs: number; confidence: number}
  | FileChoice

/** `--baseline-file`: the file, read and checked (./baseline-file.ts), and what to do with it. */
export interface FileChoice {
  kind: 'file'
  /** as given */
  path: string
  file: BaselineFile
  /** the file records its runs' outcomes (version 2); false: version 1, whose failures were never recorded */
  outcomes: boolean
  /** where it was read: an update replaces that very file (src/core/file-policy.ts) */
  source: Pick<FileRead, 'path' | 'real'>
  /** --baseline-max-age in seconds; 0 = never stale */
  maxAgeS: number
  /** --update-baseline */
  update: boolean
  confidence: number
}

/** What makes a finished run or group pass (contract 5, and the regression gate of docs/ci.md). */
export interface WatchRules {
  /** end at the first run or group that did not pass */
  failFast: boolean
  /** a succeeded run also needs a score of at least this (0–1) */
  minScore?: number
  /** --baseline: each group is compared with a baseline */
  baseline?: BaselineChoice
  /** --max-drop: the smallest drop that fails (previous, RUN_ID: the only rule; history: with the margin) */
  maxDrop?: number
  /** --max-drop Nsd (history, file): the smallest drop that fails is N times each group's own baseline sd (at least the floor) */
  maxDropSd?: number
  /** --require-baseline: a group without a baseline fails */
  requireBaseline?: boolean
  /** the runs of one eval set, agent and model are judged as one group (--repeat, relaunches: ./launches.ts) */
  grouped?: boolean
  /** the output shows the groups (--repeat K, --repeat auto); without it each run is shown with its group's judgement */
  asGroups?: boolean
  /** --baseline history, --baseline-file: Student's t quantile (loaded before the wait: ./stats.ts loadQuantile) */
  quantile?: Quantile
  /** --baseline-file: the tolerance factor of a file's margin (./stats.ts loadToleranceFactor) */
  tolerance?: ToleranceFactor
  /** evals run --wait: the launches made, at most how many, and what the earlier looks decided (none: runs watch, which launches nothing) */
  launches?: Launches
  /** --fail-inconclusive: a group still undecided when no launch can decide it fails */
  failInconclusive?: boolean
}

/**
 * `evals run --wait`: the look (after how many launches) a wait judges, how many launches it may
 * make in all, and the groups decided before it (./launches.ts: one loop for --repeat K, --repeat
 * auto and the relaunches of groups none of whose runs succeeded yet).
 */
export interface Launches {
  /** the launches made so far */
  made: number
  /** at most this many: K and the relaunches allowed (--relaunches), or --max-repeat */
  max: number
  /** how many launches the first look judged: K (1 with --repeat auto) */
  first: number
  /** --repeat auto: each look judges the groups not decided yet by the sequential rule (./stats.ts lookConfidence) */
  auto: boolean
  /** by group ID: the judgement an earlier look decided it with (its decidedAt says which); it stays decided */
  decided: ReadonlyMap<string, Judged>
}

/** One watched run: its last known state and when the watch saw it finish. */
export interface Watched {
  id: string
  /** the last known state; undefined until the first poll found it */
  run?: Run
  /** when (clock ms) a poll first found it finished */
  finishedAt?: number
  /** it was already finished when the watch first found it */
  finishedBefore?: boolean
}

/** Runs judged together: one run, or with --repeat the runs of one eval set, agent and model. */
export interface Group {
  /** a run's ID, or with --repeat "<eval set> <agent> / <model>" */
  id: string
  runIds: string[]
  /** with --baseline: its baseline, null when none was found; undefined until looked up (or when the time limit cut the search short) */
  baseline?: GateBaseline | null
  /** --baseline history without a baseline: how many earlier runs were found */
  historyFound?: number
  /** --baseline-file without a baseline: why (the file has no such group, too few runs, another eval set) */
  missing?: string
}

/** succeeded, failed or cancelled; any other status, known or not, counts as not finished. */
export function isFinished(run: Run | undefined): boolean {
  return run !== undefined && typeof run.status === 'string' && TERMINAL_RUN_STATUSES.includes(run.status)
}

/** What a finished run is as a baseline's run: succeeded with a score or without one, failed, or cancelled (undefined: not finished, or a status amctl does not know). */
export type RunOutcome = 'scored' | 'unscored' | 'failed' | 'cancelled'

export function outcomeOf(run: Run): RunOutcome | undefined {
  if (run.status === 'succeeded') return typeof run.score === 'number' ? 'scored' : 'unscored'
  return run.status === 'failed' || run.status === 'cancelled' ? run.status : undefined
}

/** A status as text, whatever the server sent (a status that is not a string is shown as JSON). */
export function statusText(run: Run): string {
  return typeof run.status === 'string' ? run.status : JSON.stringify(run.status)
}

/** "<eval set> <agent> / <model>": a group as people read it. */
export function groupLabel(run: Run): string {
  const text = (v: unknown, absent: string) => (typeof v === 'string' ? v : v == null ? absent : JSON.stringify(v))
  return `${text(run.evalSetId, '(no eval set)')} ${text(run.agent, '(no agent)')} / ${text(run.model, '(no model)')}`
}
