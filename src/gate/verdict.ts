import type {Run} from '../contract/types.js'
import {
  type BaselineChoice,
  type Cited,
  type Decision,
  type Group,
  isFinished,
  isSample,
  type Judged,
  type NoBaseline,
  type RunVerdict,
  type SampleBaseline,
  type Side,
  type Stale,
  statusText,
  type Watched,
  type WatchRules,
} from './rules.js'
import {detectableDrop, lookConfidence, perComparison, predictionMargin, type Quantile, round6, sdFloor, toleranceMargin} from './stats.js'

/** The verdicts that fail a step (exit 10); `no-baseline` too under --require-baseline. */
const FAILING: ReadonlySet<RunVerdict> = new Set(['regressed', 'failed', 'below-min-score'])

/** What a judgement needs beyond the group's runs: the rules, the group, and how many groups the step compares. */
export interface JudgeInput {
  rules: WatchRules
  group: Group
  runs: readonly Watched[]
  /** the groups compared with a history or a file in this step (the m of the correction) */
  comparisons: number
}

/**
 * The noise margin of the mean of `k` scores against a history (the prediction bound) or a group
 * of a baseline file (the tolerance bound: ./stats.ts), at `confidence`.
 */
export function noiseMargin(rules: WatchRules, baseline: SampleBaseline, k: number, confidence: number, floor: number): number {
  const sample = {n: baseline.runs, sd: baseline.sd}
  if (baseline.kind === 'file') {
    if (rules.tolerance === undefined) throw new Error('the baseline file is judged without its tolerance factor')
    return toleranceMargin(rules.tolerance, sample, k, confidence, floor)
  }
  if (rules.quantile === undefined) throw new Error('the history gate judges without a t quantile')
  return predictionMargin(rules.quantile, sample, k, confidence, floor)
}

/** The confidence --confidence gives a choice of baseline (0.95 for those without one). */
export const levelOf = (choice: BaselineChoice | undefined): number =>
  choice !== undefined && 'confidence' in choice ? choice.confidence : 0.95

/** A baseline of many runs as a decision cites it. */
const cite = (baseline: SampleBaseline): Cited => ({
  runs: baseline.runs,
  mean: baseline.mean,
  sd: baseline.sd,
  ...(baseline.kind === 'file' ? {path: baseline.path} : {}),
})

/** A stale group of a baseline file, as a judgement carries it (undefined when it is not stale). */
function staleOf(baseline: SampleBaseline, choice: BaselineChoice | undefined): Stale | undefined {
  if (baseline.kind !== 'file' || !baseline.stale) return undefined
  return {path: baseline.path, newest: baseline.newestRunAt ?? baseline.savedAt, maxAgeS: choice?.kind === 'file' ? choice.maxAgeS : 0}
}

/**
 * The judgement of one group (see VERDICTS and docs/ci.md "Verdicts"), as data: in order, its
 * failures (half its runs or more decide it), runs still going, --min-score (judged before the
 * baseline, whose figures are still given), then its baseline: none, one run and --max-drop, or
 * the noise of many runs (with --repeat auto, the sequential rule).
 */
export function judgeGroup({rules, group, runs, comparisons}: JudgeInput): Judged {
  const size = runs.length
  const failed = runs.filter((w) => isFinished(w.run) && w.run?.status !== 'succeeded')
  const failures = failed.length
  const unfinished = runs.filter((w) => !isFinished(w.run)).length
  const seq = rules.sequential
  const stamp = (j: Judged): Judged =>
    seq === undefined ? j : {...j, decidedAt: j.decided && j.verdict !== 'inconclusive' ? seq.look : null}
  const figures = {size, failures, delta: null, margin: null, confidence: null, detectable: null}
  const empty = {...figures, score: null, k: 0, flaky: false}
  if (failures > 0 && failures * 2 >= size) {
    const statuses = [...new Set(failed.map((w) => statusText(w.run as Run)))]
    return stamp({
      ...empty,
      verdict: 'failed',
      fails: true,
      decided: true,
      decision: {rule: 'status', failed: failures, of: size, statuses},
    })
  }
  if (unfinished > 0) return {...empty, verdict: 'unfinished', fails: false, decided: false, decision: {rule: 'pending'}}
  const succeeded = runs.filter((w) => w.run?.status === 'succeeded').map((w) => w.run as Run)
  const scores = succeeded.map((run) => run.score).filter((s): s is number => typeof s === 'number')
  const unscored = scores.length < succeeded.length
  const k = scores.length
  const score = k === 0 ? null : round6(scores.reduce((a, b) => a + b, 0) / k)
  const base = {...figures, score, k, flaky: failures > 0}
  const {minScore, maxDrop} = rules
  // --min-score is judged before the baseline, whose delta and margin are still given
  const below = minScore !== undefined && (unscored || score === null || score < minScore)
  const done = (j: Omit<Judged, 'decided' | 'fails'> & {fails?: boolean}): Judged => {
    if (below) {
      const decision: Decision = {rule: 'min-score', minScore: minScore as number, unscored: unscored || score === null}
      return stamp({...j, verdict: 'below-min-score', decision, fails: true, decided: true, more: false})
    }
    return stamp({...j, fails: j.fails ?? FAILING.has(j.verdict), decided: true})
  }
  const choice = rules.baseline
  if (choice === undefined) return done({...base, verdict: 'passed', decision: {rule: 'succeeded'}})
  const baseline = group.baseline
  if (baseline === undefined) {
    // never looked up (the time limit cut the search short): not judged, but --min-score is
    if (below) return done({...base, verdict: 'below-min-score', decision: {rule: 'not-judged'}})
    return stamp({...base, verdict: 'unfinished', fails: false, decided: false, decision: {rule: 'not-judged'}})
  }
  const noBaseline = (why: NoBaseline): Judged =>
    done({
      ...base,
      verdict: 'no-baseline',
      fails: rules.requireBaseline === true,
      decision: {rule: 'no-baseline', why, required: rules.requireBaseline === true},
    })
  if (baseline === null) {
    if (choice.kind === 'history') return noBaseline({kind: 'history', found: group.historyFound ?? 0, windowS: choice.windowS})
    if (choice.kind === 'file') return noBaseline({kind: 'file', missing: group.missing ?? `${choice.path} has no runs of it`})
    return noBaseline({kind: 'previous'})
  }
  if (!isSample(baseline)) {
    const delta = score === null ? null : round6(score - baseline.score)
    const decision = (side: Side): Decision => ({
      rule: 'max-drop',
      against: baseline,
      maxDrop: maxDrop ?? null,
      unscored: unscored || delta === null,
      side,
    })
    if (maxDrop === undefined) return done({...base, delta, verdict: 'passed', decision: decision('within')})
    if (unscored || score === null || delta === null) return done({...base, delta, verdict: 'regressed', decision: decision('below')})
    if (-delta > maxDrop) return done({...base, delta, verdict: 'regressed', decision: decision('below')})
    if (delta > maxDrop) return done({...base, delta, verdict: 'improved', decision: decision('above')})
    return done({...base, delta, verdict: 'passed', decision: decision('within')})
  }
  // --baseline history, --baseline-file: the noise of many runs
  const stale = staleOf(baseline, choice)
  if (stale !== undefined && rules.requireBaseline) return noBaseline({kind: 'stale', stale})
  const level = levelOf(choice)
  const looks = seq === undefined ? undefined : lookConfidence(level, comparisons, seq.looks)
  const confidence = looks?.regress ?? perComparison(level, comparisons)
  // the floor of scores that move in steps: the baseline's and these, so they can only make it finer
  const floor = sdFloor([...baseline.scores, ...scores])
  const exact = noiseMargin(rules, baseline, Math.max(k, 1), confidence, floor)
  const margin = round6(exact)
  const quantile = rules.quantile as Quantile
  const detectable = round6(detectableDrop(quantile, exact, {n: baseline.runs, sd: baseline.sd}, Math.max(k, 1), floor))
  const cited = cite(baseline)
  const noise = (side: Side, bar: 'noise' | 'max-drop' = 'noise', gone = false): Decision => ({
    rule: 'noise',
    baseline: cited,
    level,
    maxDrop: maxDrop ?? null,
    unscored: gone,
    side,
    bar,
  })
  const judged = {...base, ...(stale === undefined ? {} : {stale}), margin, detectable, confidence: round6(confidence)}
  if (unscored || score === null) return done({...judged, verdict: 'regressed', decision: noise('below', 'noise', true)})
  const delta = round6(score - baseline.mean)
  const withDelta = {...judged, delta}
  if (-delta > Math.max(maxDrop ?? 0, margin)) {
    return done({
      ...withDelta,
      verdict: 'regressed',
      decision: noise('below', maxDrop !== undefined && maxDrop > margin ? 'max-drop' : 'noise'),
    })
  }
  if (delta > margin) return done({...withDelta, verdict: 'improved', decision: noise('above')})
  if (seq === undefined || looks === undefined || maxDrop === undefined)
    return done({...withDelta, verdict: 'passed', decision: noise('within')})
  // --repeat auto: cleared when even the upper confidence bound of the drop is below D
  const upper = round6(-delta + noiseMargin(rules, baseline, Math.max(k, 1), looks.clear, floor))
  const sequential = (state: 'cleared' | 'undecided' | 'inconclusive'): Decision => ({
    rule: 'sequential',
    baseline: cited,
    level,
    maxDrop,
    upper,
    state,
    looks: seq.looks,
    failInconclusive: rules.failInconclusive === true,
  })
  if (upper < maxDrop) return done({...withDelta, verdict: 'passed', decision: sequential('cleared')})
  if (seq.look < seq.looks)
    return done({...withDelta, verdict: 'inconclusive', fails: false, more: true, decision: sequential('undecided')})
  return done({
    ...withDelta,
    verdict: 'inconclusive',
    fails: rules.failInconclusive === true,
    more: false,
    decision: sequential('inconclusive'),
  })
}
