import type {Run} from '../contract/types.js'
import {detectableRate, failureTest, type Looks, predictiveTail} from './outcomes.js'
import {
  type BaselineChoice,
  type Cited,
  type Decision,
  type Group,
  isFinished,
  isSample,
  type Judged,
  judgesNoise,
  type NoBaseline,
  type Outcomes,
  type RunVerdict,
  type SampleBaseline,
  type Side,
  type Stale,
  statusText,
  type Watched,
  type WatchRules,
} from './rules.js'
import {lookLevel} from './sequential.js'
import {detectableDrop, predictionMargin, type Quantile, round6, sdFloorWith, toleranceMargin} from './stats.js'

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

/**
 * --max-drop as one group is held to it: the value given, or (`--max-drop 3sd`) that multiple of
 * its baseline's sd, at least the floor (a baseline with no spread still has a bar above 0).
 */
export function maxDropOf(rules: WatchRules, baseline: SampleBaseline | undefined, floor: number): number | undefined {
  if (rules.maxDropSd === undefined) return rules.maxDrop
  return baseline === undefined ? undefined : round6(rules.maxDropSd * Math.max(baseline.sd, floor))
}

/**
 * A group's share of the step's false-alarm rate, 1 − C over the m groups compared, and how the
 * failure test and the score test split it (docs/ci-reference.md "Failed and cancelled runs"): the failure
 * test may spend up to half of it, and spends only its exact size (./outcomes.ts failureTest);
 * the score test takes the rest.
 */
export function shareOf(level: number, comparisons: number): number {
  return (1 - level) / Math.max(1, comparisons)
}

/**
 * The margin one run judged alone would get against `baseline` (a history or a group of a
 * baseline file) in a step of `comparisons` groups, as judgeGroup computes it: the group's share
 * of the false-alarm rate, less what its failure test spends on one run (when the baseline records
 * its outcomes), the floor of the baseline's own scores. `evals report --baseline-file` draws the
 * bar it makes (mean − margin).
 */
export function oneRunMargin(rules: WatchRules, baseline: SampleBaseline, comparisons: number): {margin: number; confidence: number} {
  const share = shareOf(levelOf(rules.baseline), comparisons)
  const rate = baseline.outcomes
  const spent =
    rate === null
      ? 0
      : failureTest({failed: rate.failed, finished: rate.finished}, {first: 1, perLaunch: 1, max: 1, free: false}, share / 2).size
  const confidence = 1 - (share - spent)
  return {margin: round6(noiseMargin(rules, baseline, 1, confidence, sdFloorWith(baseline.scores, []))), confidence: round6(confidence)}
}

/** A baseline of many runs as a decision cites it. */
function cite(baseline: SampleBaseline): Cited {
  const cited: Cited = {runs: baseline.runs, mean: baseline.mean, sd: baseline.sd}
  if (baseline.kind === 'file') cited.path = baseline.path
  return cited
}

/** A stale group of a baseline file, as a judgement carries it (undefined when it is not stale). */
function staleOf(baseline: SampleBaseline, choice: BaselineChoice | undefined): Stale | undefined {
  if (baseline.kind !== 'file' || !baseline.stale) return undefined
  return {path: baseline.path, newest: baseline.newestRunAt ?? baseline.savedAt, maxAgeS: choice?.kind === 'file' ? choice.maxAgeS : 0}
}

/**
 * How many finished runs of this group the step can judge at most, and its first look's: the
 * group's runs per launch (as many as it has now, over the launches they came from) times the
 * launches the step may make; a step that launches nothing (runs watch) judges the runs it has.
 * Only --repeat auto looks again at a group one of whose runs succeeded (`free`).
 */
function runsAllowed(rules: WatchRules, size: number): Looks {
  const launches = rules.launches
  if (launches === undefined || launches.made < 1) return {first: size, perLaunch: size, max: size, free: false}
  const perLaunch = Math.max(1, Math.round(size / launches.made))
  return {first: perLaunch * launches.first, perLaunch, max: Math.max(size, perLaunch * launches.max), free: launches.auto}
}

/**
 * The judgement of one group (see VERDICTS and docs/ci-reference.md "Verdicts"), as data:
 *
 * 1. Its failures. With a baseline of many runs (history, file) they are judged against the
 *    baseline's own failure rate (./outcomes.ts): beyond it, `failed`; within it, the group is
 *    judged on its other runs, and a group none of whose runs succeeded yet is relaunched
 *    (`more`) or, when no launch can be made, inconclusive. Cancelled runs say nothing about the
 *    agent: never a failure, relaunched like an unclear one. Without such a baseline (none,
 *    previous, a RUN_ID), for a group without one, or against a file that records no outcomes,
 *    nothing explains a failure: a failed run fails the group (and, without a baseline of many
 *    runs, a cancelled one; contract 5).
 * 2. Runs still going; then --min-score (judged before the baseline, whose figures are still
 *    given); then its baseline: none, one run and --max-drop, or the noise of many runs (with
 *    --repeat auto, the sequential rule), at what is left of the group's share once its failure
 *    test took what it spends.
 */
export function judgeGroup({rules, group, runs, comparisons}: JudgeInput): Judged {
  const size = runs.length
  const finished = runs.filter((w) => isFinished(w.run))
  const failedRuns = finished.filter((w) => w.run?.status === 'failed')
  const cancelledRuns = finished.filter((w) => w.run?.status === 'cancelled')
  const otherNotSucceeded = finished.filter(
    (w) => w.run?.status !== 'succeeded' && w.run?.status !== 'failed' && w.run?.status !== 'cancelled',
  )
  const failures = failedRuns.length + cancelledRuns.length + otherNotSucceeded.length
  const unfinished = size - finished.length
  const launches = rules.launches
  const auto = launches?.auto === true
  // (every judgement below is a new object, which stamp and done complete in place)
  const stamp = (j: Judged): Judged => {
    if (auto && launches !== undefined) j.decidedAt = j.decided && j.verdict !== 'inconclusive' && !j.more ? launches.made : null
    return j
  }
  const empty = {size, failures, delta: null, margin: null, confidence: null, detectable: null, score: null, k: 0, flaky: false}
  const choice = rules.baseline
  const baseline = group.baseline
  const statusFailure = (list: readonly Watched[], unknown?: boolean): Judged => {
    const statuses = [...new Set(list.map((w) => statusText(w.run as Run)))]
    const decision: Extract<Decision, {rule: 'status'}> = {rule: 'status', failed: list.length, of: size, statuses}
    if (unknown) decision.unknown = unknown
    return stamp(extend(empty, {verdict: 'failed', fails: true, decided: true, decision}))
  }
  // 1. failures no rate explains: decided at once, the others' runs still going or not
  const manyRuns = judgesNoise(choice?.kind)
  if (!manyRuns || baseline === null) {
    // no baseline of many runs, or none for this group: nothing explains a failed or cancelled run
    if (failures > 0) return statusFailure(finished.filter((w) => w.run?.status !== 'succeeded'))
  } else if (isSample(baseline) && baseline.outcomes === null) {
    // a file that records no outcomes (version 1): no rate explains a failure (a cancelled run says nothing either way)
    const failed = [...failedRuns, ...otherNotSucceeded]
    if (failed.length > 0) return statusFailure(failed, true)
  } else if (otherNotSucceeded.length > 0) {
    // a terminal status amctl does not know of is no outcome a rate explains
    return statusFailure(otherNotSucceeded)
  }
  if (unfinished > 0) return extend(empty, {verdict: 'unfinished', fails: false, decided: false, decision: {rule: 'pending'}})
  const succeeded = finished.filter((w) => w.run?.status === 'succeeded').map((w) => w.run as Run)
  const scores = succeeded.map((run) => run.score).filter((s): s is number => typeof s === 'number')
  const unscored = scores.length < succeeded.length
  const k = scores.length
  const score = k === 0 ? null : round6(scores.reduce((a, b) => a + b, 0) / k)
  const level = levelOf(choice)
  const share = shareOf(level, comparisons)
  // the failure test against the baseline's rate (a baseline of many runs that records its outcomes)
  let outcomes: Outcomes | undefined
  let spent = 0
  if (manyRuns && isSample(baseline)) {
    const rate = baseline.outcomes
    const counted = {failed: failedRuns.length, cancelled: cancelledRuns.length, succeeded: succeeded.length}
    if (rate === null) {
      outcomes = extend(counted, {baseline: null, p: null, threshold: null, size: 0, detectableRate: null})
    } else {
      const base = {failed: rate.failed, finished: rate.finished}
      const allowed = runsAllowed(rules, size)
      const test = failureTest(base, allowed, share / 2)
      const m = counted.failed + counted.succeeded
      const tail = counted.failed === 0 ? 1 : predictiveTail(counted.failed, m, base)
      const p = counted.failed === 0 ? null : round6(tail)
      spent = test.size
      outcomes = extend(counted, {
        baseline: base,
        p,
        threshold: round6(test.threshold),
        size: round6(test.size),
        detectableRate: nullable(detectableRate(base, test, allowed.first, allowed.perLaunch, allowed.max)),
      })
      if (counted.failed > 0 && tail <= test.threshold) {
        return stamp(
          extend(empty, {
            outcomes,
            verdict: 'failed',
            fails: true,
            decided: true,
            decision: {
              rule: 'failure-rate',
              failed: counted.failed,
              of: m,
              baseline: base,
              p: p as number,
              threshold: round6(test.threshold),
            },
          }),
        )
      }
    }
    if (succeeded.length === 0) {
      // nothing succeeded, and nothing the rate does not explain: another launch may decide it
      const more = launches !== undefined && launches.made < launches.max
      const failInconclusive = rules.failInconclusive === true
      const decision: Decision = {
        rule: 'no-success',
        failed: counted.failed,
        cancelled: counted.cancelled,
        of: size,
        state: more ? 'relaunch' : 'inconclusive',
        failInconclusive,
      }
      // (every run finished: this look's verdict is said; `more` asks for another launch)
      return stamp(extend(empty, {outcomes, verdict: 'inconclusive', fails: !more && failInconclusive, decided: true, more, decision}))
    }
  }
  const base: Omit<Judged, 'verdict' | 'fails' | 'decided' | 'decision'> = extend(empty, {score, k, flaky: failures > 0})
  if (outcomes !== undefined) base.outcomes = outcomes
  const {minScore} = rules
  // --min-score is judged before the baseline, whose delta and margin are still given
  const below = minScore !== undefined && (unscored || score === null || score < minScore)
  const done = (j: Omit<Judged, 'decided' | 'fails'> & {fails?: boolean}): Judged => {
    const judgement = j as Judged
    if (below) {
      judgement.verdict = 'below-min-score'
      judgement.decision = {rule: 'min-score', minScore: minScore as number, unscored: unscored || score === null}
      judgement.fails = true
      judgement.more = false
    } else {
      judgement.fails = j.fails ?? FAILING.has(j.verdict)
    }
    judgement.decided = true
    return stamp(judgement)
  }
  if (choice === undefined) return done(extend(base, {verdict: 'passed', decision: {rule: 'succeeded'}}))
  if (baseline === undefined) {
    // never looked up (the time limit cut the search short): not judged, but --min-score is
    if (below) return done(extend(base, {verdict: 'below-min-score', decision: {rule: 'not-judged'}}))
    return stamp(extend(base, {verdict: 'unfinished', fails: false, decided: false, decision: {rule: 'not-judged'}}))
  }
  const noBaseline = (why: NoBaseline): Judged =>
    done(
      extend(base, {
        verdict: 'no-baseline',
        fails: rules.requireBaseline === true,
        decision: {rule: 'no-baseline', why, required: rules.requireBaseline === true},
      }),
    )
  if (baseline === null) {
    if (choice.kind === 'history') return noBaseline({kind: 'history', found: group.historyFound ?? 0, windowS: choice.windowS})
    if (choice.kind === 'file') return noBaseline({kind: 'file', missing: group.missing ?? `${choice.path} has no runs of it`})
    return noBaseline({kind: 'previous'})
  }
  if (!isSample(baseline)) {
    const {maxDrop} = rules
    const delta = score === null ? null : round6(score - baseline.score)
    const decision = (side: Side): Decision => ({
      rule: 'max-drop',
      against: baseline,
      maxDrop: maxDrop ?? null,
      unscored: unscored || delta === null,
      side,
    })
    if (maxDrop === undefined) return done(extend(base, {delta, verdict: 'passed', decision: decision('within')}))
    if (unscored || score === null || delta === null) return done(extend(base, {delta, verdict: 'regressed', decision: decision('below')}))
    if (-delta > maxDrop) return done(extend(base, {delta, verdict: 'regressed', decision: decision('below')}))
    if (delta > maxDrop) return done(extend(base, {delta, verdict: 'improved', decision: decision('above')}))
    return done(extend(base, {delta, verdict: 'passed', decision: decision('within')}))
  }
  // --baseline history, --baseline-file: the noise of many runs
  const stale = staleOf(baseline, choice)
  if (stale !== undefined && rules.requireBaseline) return noBaseline({kind: 'stale', stale})
  // what is left of the group's share once its failure test took what it spends
  const scoreAlpha = share - spent
  const looks = auto && launches !== undefined ? launches.max : 1
  // a baseline file's tolerance bound already answers for its own mean and sd: its looks are those of a known sd (./sequential.ts)
  const n = baseline.kind === 'file' ? Number.POSITIVE_INFINITY : baseline.runs
  const confidence = auto ? lookLevel(scoreAlpha, looks, n) : 1 - scoreAlpha
  // the floor of scores that move in steps: the baseline's and these, so they can only make it finer
  const floor = sdFloorWith(baseline.scores, scores)
  const maxDrop = maxDropOf(rules, baseline, floor)
  const exact = noiseMargin(rules, baseline, Math.max(k, 1), confidence, floor)
  const margin = round6(exact)
  const quantile = rules.quantile as Quantile
  // the verdict's own bar is the larger of the margin and --max-drop: what it catches 4 times in 5 is above that
  const detectable = round6(
    detectableDrop(quantile, Math.max(exact, maxDrop ?? 0), {n: baseline.runs, sd: baseline.sd}, Math.max(k, 1), floor),
  )
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
  const judged: typeof base = extend(base, {margin, detectable, confidence: round6(confidence)})
  if (stale !== undefined) judged.stale = stale
  if (rules.maxDropSd !== undefined) judged.maxDrop = maxDrop ?? null
  if (unscored || score === null) return done(extend(judged, {verdict: 'regressed', decision: noise('below', 'noise', true)}))
  const delta = round6(score - baseline.mean)
  const withDelta = extend(judged, {delta})
  if (-delta > Math.max(maxDrop ?? 0, margin)) {
    return done(
      extend(withDelta, {verdict: 'regressed', decision: noise('below', maxDrop !== undefined && maxDrop > margin ? 'max-drop' : 'noise')}),
    )
  }
  if (delta > margin) return done(extend(withDelta, {verdict: 'improved', decision: noise('above')}))
  if (!auto || launches === undefined || maxDrop === undefined)
    return done(extend(withDelta, {verdict: 'passed', decision: noise('within')}))
  // --repeat auto: cleared when even the upper confidence bound of the drop is below D
  const clear = lookLevel(1 - level, looks, n)
  const upper = round6(-delta + noiseMargin(rules, baseline, Math.max(k, 1), clear, floor))
  const sequential = (state: 'cleared' | 'undecided' | 'inconclusive'): Decision => ({
    rule: 'sequential',
    baseline: cited,
    level,
    maxDrop,
    upper,
    state,
    looks: launches.max,
    failInconclusive: rules.failInconclusive === true,
  })
  if (upper < maxDrop) return done(extend(withDelta, {verdict: 'passed', decision: sequential('cleared')}))
  if (launches.made < launches.max)
    return done(extend(withDelta, {verdict: 'inconclusive', fails: false, more: true, decision: sequential('undecided')}))
  return done(
    extend(withDelta, {verdict: 'inconclusive', fails: rules.failInconclusive === true, more: false, decision: sequential('inconclusive')}),
  )
}

const nullable = (n: number | null): number | null => (n === null ? null : round6(n))

/**
 * `{...template, ...members}`, made by Object.assign: on Node 20 a judgement built of object
 * spreads (up to seven a group) took most of a group's time, 31–53 µs a group against 13–22 µs
 * so built (bench/judge.mjs, docs/performance.md; issue 37 item 11).
 */
function extend<T extends object, const U extends object>(template: T, members: U): T & U {
  return Object.assign({}, template, members)
}
