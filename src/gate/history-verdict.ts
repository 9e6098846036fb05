import type {Column} from '../output/format.js'
import {type BinomialTail, type NormalQuantile, round6} from './stats.js'

/**
 * The verdict of `amctl evals stats` on one agent × model (docs/ci.md "Reading the noise"): did
 * its scores change level within the window (`shifted`), does it fail more runs than is worth
 * ignoring (`flaky`), too few scores to tell (`too-few`), or neither (`stable`). Each is a test at
 * --confidence C, so that an agent and model whose runs come from one unchanged distribution gets
 * `shifted` at most 1 − C of the time and, failing one run in twenty, `flaky` at most 1 − C of the
 * time. Each group is its own question: over m groups, up to m × (1 − C) of them.
 *
 * - **Shifted**: a change-point test for one change of level, applied again to the scores after
 *   the change found (binary segmentation along the newest segment). For every split of the n
 *   scores into an older part A and a newer part B, each at least VERDICT.minSegment scores, the
 *   Wilcoxon–Mann–Whitney rank-sum statistic of B as a z score (mid-ranks for tied scores, its
 *   variance corrected for the ties); the largest |z| is significant when it exceeds the normal
 *   quantile at 1 − (1 − C) / (2 S), S the number of splits tried: Bonferroni over the splits,
 *   so scanning n − 9 places for a change does not make one out of noise. The z scores of
 *   neighbouring splits are strongly correlated, so the rate on unchanged scores stays well
 *   under 1 − C (bench/gate.mjs measures it). Ranks, not means: one wild run (a score of 0.1
 *   among 0.7s, which the gate sets aside as an outlier) moves a rank sum by one place, where it
 *   would move a mean and make a change of level out of one run; on normal noise a rank test
 *   keeps 95 % of the t test's efficiency. It is the standardized form of Pettitt's test, whose
 *   unstandardized statistic hardly sees a change in the newest few runs. When the first test
 *   finds a change, the scores from it on are tested the same way, and so on: the newest change
 *   found is the one reported (`shift`: its first run, the mean score of the level before it and
 *   of the scores since). The further tests only move a change already found, never make a
 *   group `shifted`, so they do not add to its false-alarm rate. The scores are the newest
 *   VERDICT.maxScores scores of the window, oldest first: memory per group stays bounded however
 *   long the history.
 * - **Flaky**: more of its finished runs failed than a failure rate of VERDICT.flakyRate (one run
 *   in twenty) explains at C: the one-sided exact binomial test, P(X ≥ failed) < 1 − C for X ~
 *   Binomial(finished, 0.05). Cancelled runs are not failures (a person or a pipeline cancels
 *   them). 3 failed of 20 is not flaky (P = 0.075), 4 of 20 is (0.016); 8 failed of 52 is.
 * - Order: `shifted` first (it says when, `flaky` only how often), then `flaky`, then `too-few`
 *   (fewer than 2 × VERDICT.minSegment scores: no change can be told), then `stable`.
 *
 * Hand-written: no kept npm package offers a change-point test (the registry's few are
 * unmaintained or mislabelled); the distributions come from jstat, as the gate's do, and the scan
 * is a sort and one loop over a running rank sum.
 */

/** The rules of the verdicts, said once. */
export const VERDICT = {
  /** a level needs this many scores at least, on each side of a change */
  minSegment: 5,
  /** the change-point test reads the newest this many scores of a group in the window */
  maxScores: 200,
  /** flaky: more failed runs than this failure rate explains */
  flakyRate: 0.05,
} as const

export type Verdict = 'stable' | 'flaky' | 'shifted' | 'too-few'

/** A change of level found in a series of scores (oldest first). */
export interface Change {
  /** the index of the first score of the level before it (0, or the change found before it) */
  start: number
  /** the index of the first score of the new level */
  at: number
  /** the mean of the scores of the level before it (from the start, or from the change before it) */
  before: number
  /** the mean of the scores from `at` to the newest */
  after: number
}

/** What judging needs: the confidence and the distributions (from jstat, loaded by the command). */
export interface Judge {
  confidence: number
  normalQuantile: NormalQuantile
  binomialTail: BinomialTail
}

/**
 * The newest change of level in `scores` (oldest first) at `confidence`, or undefined when the
 * scores are one level within noise (or too few to tell).
 */
export function findChange(scores: readonly number[], confidence: number, normalQuantile: NormalQuantile): Change | undefined {
  const m = VERDICT.minSegment
  const n = scores.length
  let found: Change | undefined
  for (let from = 0; n - from >= 2 * m; ) {
    const best = bestSplit(scores, from, m)
    const splits = n - from - 2 * m + 1
    if (best === undefined || best.z <= normalQuantile(1 - (1 - confidence) / (2 * splits))) break
    found = {start: from, at: best.at, before: mean(scores, from, best.at), after: mean(scores, best.at, n)}
    from = best.at
  }
  return found
}

/**
 * The split of scores[from …] into an older and a newer part, each at least `m` long, whose
 * rank-sum statistic is largest in size: the Wilcoxon–Mann–Whitney z of the newer part (mid-ranks
 * for ties, the variance corrected for them). Undefined when every score is the same.
 */
function bestSplit(scores: readonly number[], from: number, m: number): {at: number; z: number} | undefined {
  const n = scores.length - from
  const order = Array.from({length: n}, (_, i) => i).sort((a, b) => scores[from + a] - scores[from + b])
  const ranks = new Float64Array(n)
  let ties = 0
  for (let i = 0; i < n; ) {
    let j = i + 1
    while (j < n && scores[from + order[j]] === scores[from + order[i]]) j++
    // positions i … j − 1 share the mid-rank (1-based)
    for (let k = i; k < j; k++) ranks[order[k]] = (i + 1 + j) / 2
    ties += (j - i) ** 3 - (j - i)
    i = j
  }
  const spread = n + 1 - ties / (n * (n - 1))
  if (spread <= 0) return undefined
  let older = 0
  for (let i = 0; i < m; i++) older += ranks[i]
  const total = (n * (n + 1)) / 2
  let best: {at: number; z: number} | undefined
  for (let a = m; a <= n - m; a++) {
    if (a > m) older += ranks[a - 1]
    const b = n - a
    const z = Math.abs(total - older - (b * (n + 1)) / 2) / Math.sqrt(((a * b) / 12) * spread)
    if (best === undefined || z > best.z) best = {at: from + a, z}
  }
  return best
}

function mean(scores: readonly number[], from: number, to: number): number {
  let sum = 0
  for (let i = from; i < to; i++) sum += scores[i]
  return sum / (to - from)
}

/** Whether `failed` of `finished` runs are more than VERDICT.flakyRate explains at `confidence`. */
export function isFlaky(failed: number, finished: number, confidence: number, binomialTail: BinomialTail): boolean {
  if (failed === 0 || finished === 0) return false
  return binomialTail(failed, finished, VERDICT.flakyRate) < 1 - confidence
}

/** The verdict of a group and its change, if shifted. */
export function verdictOf(
  group: {failed: number; finished: number; scores: readonly number[]},
  judge: Judge,
): {verdict: Verdict; change?: Change} {
  const change = findChange(group.scores, judge.confidence, judge.normalQuantile)
  if (change !== undefined) return {verdict: 'shifted', change}
  if (isFlaky(group.failed, group.finished, judge.confidence, judge.binomialTail)) return {verdict: 'flaky'}
  if (group.scores.length < 2 * VERDICT.minSegment) return {verdict: 'too-few'}
  return {verdict: 'stable'}
}

/** A scored run as the verdicts read it: its ID, score and creation time. */
export interface ScoredRun {
  id: string
  score: number
  createdAt: string
}

/** Where an agent × model's scores changed level: the first run of the new level (`shift` of `evals stats`' and `evals baseline show`'s --json). */
export interface EvalStatsShift {
  /** the first succeeded run of the new level */
  runId: string
  createdAt: string
  /** the mean score of the level before it, rounded to 6 decimals */
  before: number
  /** the mean score from this run to the newest, rounded to 6 decimals */
  after: number
  /** after − before, rounded to 6 decimals */
  delta: number
}

/**
 * The verdict of a group whose scored runs are `runs` (oldest first), `failed` of its `finished`
 * runs failed, and where its shift starts (null unless shifted): what `evals stats` says of a
 * group of the history, and `evals baseline show` of a group of a file.
 */
export function judgeRuns(
  group: {failed: number; finished: number; runs: readonly ScoredRun[]},
  judge: Judge,
): {verdict: Verdict; change?: Change; shift: EvalStatsShift | null} {
  const {verdict, change} = verdictOf({failed: group.failed, finished: group.finished, scores: group.runs.map((r) => r.score)}, judge)
  const first = change === undefined ? undefined : group.runs[change.at]
  if (change === undefined || first === undefined) return {verdict, shift: null}
  const shift = {
    runId: first.id,
    createdAt: first.createdAt,
    before: round6(change.before),
    after: round6(change.after),
    delta: round6(change.after - change.before),
  }
  return {verdict, change, shift}
}

/**
 * Under a table (`evals stats`, `evals baseline show`): where a group's scores moved, and by how
 * much: "codex / gpt-5 shifted at run_… (2026-11-01 09:00 UTC): 0.84 before, 0.77 since (−0.07)".
 */
export function shiftLine(group: {agent: string | null; model: string | null}, shift: EvalStatsShift): string {
  const name = `${group.agent ?? '(no agent)'} / ${group.model ?? '(no model)'}`
  const at = new Date(Date.parse(shift.createdAt)).toISOString().slice(0, 16).replace('T', ' ')
  const sign = shift.delta < 0 ? '−' : '+'
  return `${name} shifted at ${shift.runId} (${at} UTC): ${shift.before.toFixed(2)} before, ${shift.after.toFixed(2)} since (${sign}${Math.abs(shift.delta).toFixed(2)})`
}

/**
 * The shift's fields of tab-separated rows (`evals stats`, `evals baseline show|save`), appended
 * after the verdict: its run ID, createdAt, the level before, the level after and the delta (empty
 * unless shifted). Piped only: a terminal says the shift under the table (shiftLine).
 */
export function shiftColumns<T>(shiftOf: (row: T) => EvalStatsShift | null): Column<T>[] {
  return [
    {header: 'SHIFT RUN', get: (row) => shiftOf(row)?.runId ?? null, appended: true, only: 'tsv'},
    {header: 'SHIFT AT', get: (row) => shiftOf(row)?.createdAt ?? null, appended: true, only: 'tsv'},
    {header: 'BEFORE', get: (row) => shiftOf(row)?.before ?? null, appended: true, only: 'tsv'},
    {header: 'AFTER', get: (row) => shiftOf(row)?.after ?? null, appended: true, only: 'tsv'},
    {header: 'DELTA', get: (row) => shiftOf(row)?.delta ?? null, appended: true, only: 'tsv'},
  ]
}
