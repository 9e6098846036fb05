/**
 * The statistics of the regression gate, and summary statistics of scores in constant memory.
 *
 * `--baseline history` (docs/ci.md "Regression or noise") judges a score against the earlier
 * scores of the same eval set, agent and model:
 *
 * - **Outliers set aside.** A score is a candidate when it lies farther than 3.5 scaled median
 *   absolute deviations (1.4826 × MAD, the normal distribution's sd; the scale taken no smaller
 *   than the floor) from the history's median: the median and the MAD are not moved by the
 *   outliers themselves, so two of them cannot hide each other. A candidate is set aside only
 *   when it also lies beyond the two-sided 1 − 0.001/n prediction bound of the scores that are
 *   not candidates (Student's t, as the margin): on normal noise the MAD alone, noisy on 5 or 20
 *   scores, flags a genuine score in one history of ten (20 runs), and setting those aside
 *   shrinks the sd and raises the false-alarm rate per step from 4.8 % to 5.9 % (3 groups, 20
 *   runs, 20,000 simulated steps); confirmed this way, a genuine score is set aside in about one
 *   history in 300 and the rate stays the nominal one (bench/gate.mjs, through the CLI: 0.003
 *   set aside a history, 5.2 % of steps with one run, 5.1 % with three; the theory's 4.9 %).
 *   A run at 0.1 among runs at 0.7 is set aside. Then
 *   the mean and the sample standard deviation of the scores kept are the classical ones.
 * - **A floor.** The margin uses max(sd, floor): a history with no spread (every run 0.7) does
 *   not make every drop of 0.001 a regression. The floor is 0.01, or the step the scores move in
 *   when they move in steps: an eval set of 50 tasks scores in steps of 0.02, and a history of
 *   ten runs at 0.70 (sd 0) would otherwise make 0.68, one task less, a regression (its margin
 *   0.019). The step is 1/N for the smallest N up to 100 such that every score, of the history and
 *   of the run or group judged, is a whole number of 1/N; scores that are not (0.7134) have no
 *   step. The run judged can only make the step finer (a set of scores that fits fewer N), never
 *   coarser, so its own score cannot widen its margin. A step coarser than 0.05 counts as 0.05: a
 *   history at 0.70 tells 10 tasks from 50 only by a later score, so a drop to 0.60 stays one a
 *   history without spread can catch (with 0.05, ten runs make its margin 0.096), and one at 0.50
 *   cannot hide a drop to 0 behind a step of 0.5. Between 0.01 and 0.05 a move of one step is
 *   within noise at the default confidence (t ≥ 1.645 > 1), two steps of ten runs are not.
 * - **The margin** is the one-sided prediction bound of the mean of k new scores given the n
 *   history scores: t(c, n − 1) × sd × √(1/k + 1/n), Student's t quantile from jstat (a kept
 *   statistics library, loaded only by the commands that judge: in dist/ it is a file of its own,
 *   bin/build.js).
 * - **The correction.** A step judges m groups at once; each is judged at 1 − (1 − C)/m
 *   (Bonferroni), so the step's false-alarm rate stays at most 1 − C. (Holm's procedure fails a
 *   step exactly when Bonferroni does: it only marks more groups regressed in a step that
 *   already fails, at the price of a margin that depends on the other groups' scores.)
 *
 * `--baseline-file` (docs/ci.md "The baseline file") judges against the runs a file holds, with
 * the same estimator's mean and sd, and one difference: a file is judged against again and again,
 * so the false-alarm rate that matters is that file's own, not the average over files. The
 * prediction margin holds the average only: a file of 20 runs whose mean came out high or whose
 * sd came out low fails unchanged runs at twice the nominal rate or more, one file in ten. So a
 * file's margin is the **one-sided normal tolerance bound** of the mean of k new scores: K × sd,
 * with K chosen so that, with confidence FILE.tolerance (0.9), the file's own chance of a false
 * alarm is at most 1 − c: K = t′(γ; n − 1, z(c) × √(n/k)) / √n, the γ quantile of the noncentral t
 * (the classical one-sided tolerance factor, for the mean of k runs instead of one). The price is
 * power: at 50 runs (FILE.defaultKeep) a drop of 4 sd is caught by one run in 95 % of groups
 * instead of 97 % (bench/gate.mjs measures both).
 */

import {type LookLevels, sequentialLevels} from './sequential.js'

/** The rules of `--baseline history`, said once. */
export const HISTORY = {
  /** --baseline-runs: the default, and the fewest runs a history needs (after outliers are set aside) */
  defaultRuns: 20,
  minRuns: 3,
  maxRuns: 100,
  /** --confidence: the default and its bounds */
  defaultConfidence: 0.95,
  minConfidence: 0.5,
  maxConfidence: 0.999,
  /** the smallest standard deviation a margin uses, and the smallest scale of the outlier rule (see sdFloor) */
  sdFloor: 0.01,
  /** scores move in steps of 1/N (N tasks) for N up to this; past it a step is finer than sdFloor anyway */
  maxSteps: 100,
  /** a step coarser than this raises the floor only this far */
  maxStepFloor: 0.05,
  /** a score this many scaled MADs from the median is a candidate outlier */
  outlierMads: 3.5,
  /** …set aside when beyond the two-sided (1 − this) prediction bound of the others, shared by the n scores */
  outlierAlpha: 0.001,
} as const

/** Two scores closer than this are the same score (answers are decimal text: 0.68 × 50 is 34.00000000000001). */
const SAME = 1e-6

/**
 * The step `scores` move in: 1/N for the smallest N from 1 to HISTORY.maxSteps such that each is a
 * whole number of 1/N (an eval set of N tasks), or undefined when there is none.
 */
export function scoreStep(scores: readonly number[]): number | undefined {
  for (let n = 1; n <= HISTORY.maxSteps; n++) {
    if (scores.every((score) => inSteps(score, n))) return 1 / n
  }
  return undefined
}

/** `score` is a whole number of steps 1/n. */
const inSteps = (score: number, n: number): boolean => Math.abs(score * n - Math.round(score * n)) < SAME

/**
 * The smallest standard deviation the gate uses for `scores` (the history's, with the scores
 * judged against it): HISTORY.sdFloor, or their step (scoreStep) when it is larger, at most
 * HISTORY.maxStepFloor (the top of this file says why).
 */
export function sdFloor(scores: readonly number[]): number {
  return floorOfStep(scoreStep(scores))
}

const floorOfStep = (step: number | undefined): number =>
  step === undefined ? HISTORY.sdFloor : Math.min(Math.max(step, HISTORY.sdFloor), HISTORY.maxStepFloor)

/** Every N of scoreStep's (1 to HISTORY.maxSteps) whose steps 1/N each of a baseline's scores is a whole number of, by its scores. */
const BASELINE_STEPS = new WeakMap<readonly number[], number[]>()

/**
 * sdFloor of a baseline's scores and `more` (the scores judged against it), as sdFloor([...baseline,
 * ...more]): the N the baseline's scores allow are found once a baseline (remembered by its array,
 * which every group judged against it shares), and only `more` is held to them at each judgement.
 */
export function sdFloorWith(baseline: readonly number[], more: readonly number[]): number {
  let steps = BASELINE_STEPS.get(baseline)
  if (steps === undefined) {
    steps = []
    for (let n = 1; n <= HISTORY.maxSteps; n++) if (baseline.every((score) => inSteps(score, n))) steps.push(n)
    BASELINE_STEPS.set(baseline, steps)
  }
  const n = steps.find((n) => more.every((score) => inSteps(score, n)))
  return floorOfStep(n === undefined ? undefined : 1 / n)
}

/** The MAD of a normal distribution times this is its standard deviation. */
const MAD_TO_SD = 1.4826

/**
 * Welford's online mean and variance (one pass, numerically stable), used wherever amctl
 * summarizes a series of run scores (`evals stats` streams a whole history through one per
 * agent × model; the history gate summarizes its baseline runs).
 */
export class RunningStats {
  private count = 0
  private average = 0
  /** the sum of squared differences from the running mean */
  private m2 = 0

  add(value: number): void {
    this.count++
    const before = value - this.average
    this.average += before / this.count
    this.m2 += before * (value - this.average)
  }

  /** How many values were added. */
  get n(): number {
    return this.count
  }

  /** Their mean; undefined with none. */
  get mean(): number | undefined {
    return this.count === 0 ? undefined : this.average
  }

  /** The sample standard deviation (n − 1 in the denominator); undefined with fewer than two values. */
  get sd(): number | undefined {
    return this.count < 2 ? undefined : Math.sqrt(this.m2 / (this.count - 1))
  }
}

/** A figure as the gate reports it: 6 decimals (so 0.8 − 0.7 is 0.1). */
export const round6 = (n: number): number => Math.round(n * 1e6) / 1e6

/** The mean and sample standard deviation of `values` (see RunningStats). */
export function summarize(values: Iterable<number>): {n: number; mean: number | undefined; sd: number | undefined} {
  const stats = new RunningStats()
  for (const value of values) stats.add(value)
  return {n: stats.n, mean: stats.mean, sd: stats.sd}
}

/** The median of a non-empty list (sorted copy; a history is at most HISTORY.maxRuns long). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** A history summarized by the gate's estimator: which scores were kept, their mean and sd. */
export interface RobustSummary {
  /** indexes of the scores kept, in the order given */
  kept: number[]
  /** indexes of the scores set aside as outliers */
  outliers: number[]
  mean: number
  /** the sample standard deviation of the kept scores (0 for one score) */
  sd: number
}

/**
 * The outlier rule, then the classical mean and sd of what is left (see the top of this file).
 * Nothing is set aside when fewer than HISTORY.minRuns scores are not candidates.
 */
export function robustSummary(scores: readonly number[], quantile: Quantile): RobustSummary {
  if (scores.length === 0) throw new Error('robustSummary: no scores')
  const all = scores.map((_, i) => i)
  const floor = sdFloor(scores)
  const centre = median(scores)
  const scale = Math.max(MAD_TO_SD * median(scores.map((s) => Math.abs(s - centre))), floor)
  const candidate = (i: number) => Math.abs(scores[i] - centre) > HISTORY.outlierMads * scale
  const rest = all.filter((i) => !candidate(i))
  let outliers: number[] = []
  if (rest.length >= HISTORY.minRuns && rest.length < scores.length) {
    const others = summarize(rest.map((i) => scores[i]))
    const n = others.n
    const bound = quantile(1 - HISTORY.outlierAlpha / (2 * scores.length), n - 1) * Math.max(others.sd ?? 0, floor) * Math.sqrt(1 + 1 / n)
    outliers = all.filter((i) => candidate(i) && Math.abs(scores[i] - (others.mean as number)) > bound)
  }
  const kept = all.filter((i) => !outliers.includes(i))
  const {mean, sd} = summarize(kept.map((i) => scores[i]))
  return {kept, outliers, mean: mean as number, sd: sd ?? 0}
}

/** Student's t quantile: the value below which a share `p` of the distribution with `df` degrees of freedom lies. */
export type Quantile = (p: number, df: number) => number

/** The confidence each of `m` comparisons is judged at so the step holds `confidence` (Bonferroni). */
export function perComparison(confidence: number, m: number): number {
  return 1 - (1 - confidence) / Math.max(1, m)
}

/**
 * The one-sided prediction margin of the mean of `k` new scores against a history of `n` scores
 * with standard deviation `sd`, at `confidence` (already corrected for the comparisons):
 * t(confidence, n − 1) × max(sd, floor) × √(1/k + 1/n); `floor`: sdFloor of the scores involved.
 */
export function predictionMargin(
  quantile: Quantile,
  history: {n: number; sd: number},
  k: number,
  confidence: number,
  floor: number = HISTORY.sdFloor,
): number {
  const sd = Math.max(history.sd, floor)
  return quantile(confidence, history.n - 1) * sd * Math.sqrt(1 / k + 1 / history.n)
}

/**
 * Student's t quantile from jstat, loaded on first use (only commands that judge a history load
 * it), remembered by its arguments: the groups of a step ask for the same few (their confidence
 * and n), and each is an inverse of the incomplete beta function.
 */
export async function loadQuantile(): Promise<Quantile> {
  const {studentt} = await import('jstat')
  const known = new Map<string, number>()
  return (p, df) => {
    const key = `${p} ${df}`
    let q = known.get(key)
    if (q === undefined) {
      q = studentt.inv(p, df) as number
      known.set(key, q)
    }
    return q
  }
}

/**
 * `detectable`: the smallest true drop a judgement finds with this probability (docs/ci.md
 * "What a verdict could have seen").
 */
export const POWER = 0.8

/**
 * The smallest true drop the judgement of `k` scores against `sample` finds with probability
 * POWER, given its `margin` (the prediction or the tolerance bound at the step's confidence):
 * margin + t(POWER, n − 1) × max(sd, floor) × √(1/k + 1/n). The observed drop of the mean of k
 * scores from the baseline's mean spreads by sd × √(1/k + 1/n) around the true drop (the new
 * runs' noise and the baseline mean's own), so a true drop this large lands beyond the margin
 * four times in five. For the history's prediction bound this is (t(c) + t(0.8)) × sd × √(1/k + 1/n).
 */
export function detectableDrop(
  quantile: Quantile,
  margin: number,
  sample: {n: number; sd: number},
  k: number,
  floor: number = HISTORY.sdFloor,
): number {
  return margin + quantile(POWER, sample.n - 1) * Math.max(sample.sd, floor) * Math.sqrt(1 / k + 1 / sample.n)
}

/**
 * `--repeat auto` (docs/ci.md "Launches only where the evidence is unclear"): after each of at
 * most L = --max-repeat launches, each undecided group is judged on all its runs so far, k
 * of them, at the same two levels at every look:
 *
 * - regressed: its mean is below the baseline by more than max(D, margin), the margin at `regress`:
 *   an unchanged group is regressed at some look with probability at most (1 − C)/m, so the step's
 *   m groups at most 1 − C (the union bound over the groups);
 * - cleared (passed): the one-sided upper confidence bound of its drop, drop + margin at `clear`, is
 *   below D: a group whose true drop is D or more is cleared at some look with probability at most 1 − C;
 * - improved: above the baseline by more than the margin; otherwise undecided, and at the L-th
 *   look inconclusive.
 *
 * Given n (a history's runs; Infinity for a baseline file, whose tolerance bound already answers
 * for its own mean and sd), each level is the one constant for every look (Pocock-type) that spends
 * exactly that error over the L looks: the looks' statistics are multivariate t (n − 1 degrees of
 * freedom, the baseline's mean and sd shared) with the known correlation √((1/j + 1/n)/(1/i + 1/n))
 * between looks i < j, whose crossing probabilities ./sequential.ts integrates (computed once per
 * n, L, m and C, then looked up). Without n, the Bonferroni split 1 − (1 − C)/(m × L) and
 * 1 − (1 − C)/L, which holds whatever the correlation but spends the error as if no two looks could
 * cross together: at 2 groups, 5 looks and n = 20 it judges regressed at 99.5 % where the constant
 * is 99.13 %, and cleared at 99 % where it is 98.15 %. With L = 1 both are the fixed-K levels.
 */
export function lookConfidence(confidence: number, m: number, looks: number, n?: number): LookLevels {
  if (n !== undefined) return sequentialLevels(confidence, m, looks, n)
  return {regress: 1 - (1 - confidence) / (Math.max(1, m) * looks), clear: 1 - (1 - confidence) / looks}
}

/** The rules of `--baseline-file`, said once. */
export const FILE = {
  /** the version of the file format this amctl writes (it reads version 1 too: ./baseline-file.ts) */
  version: 2,
  /** `evals baseline save --baseline-runs`: the runs a group keeps (--update-baseline keeps the newest this many) */
  defaultKeep: 50,
  /** the confidence that a file's own false-alarm rate is at most 1 − C (the tolerance bound) */
  tolerance: 0.9,
  /** --baseline-max-age: a group whose newest run is older is stale */
  defaultMaxAge: '30d',
} as const

/**
 * The tolerance factor K of a file of `n` runs for the mean of `k` new scores at `confidence`
 * (already corrected for the comparisons): the margin is K × max(sd, floor) (see the top of this file).
 */
export type ToleranceFactor = (n: number, k: number, confidence: number) => number

/**
 * The one-sided tolerance margin of the mean of `k` new scores against a file of `n` scores
 * with standard deviation `sd`, at `confidence`: K × max(sd, floor); `floor`: sdFloor of the scores involved.
 */
export function toleranceMargin(
  factor: ToleranceFactor,
  file: {n: number; sd: number},
  k: number,
  confidence: number,
  floor: number = HISTORY.sdFloor,
): number {
  return factor(file.n, k, confidence) * Math.max(file.sd, floor)
}

/** How many chi-square nodes the noncentral t's distribution function averages over (see loadToleranceFactor). */
const CHI_NODES = 2000

/**
 * The tolerance factor, from jstat's normal and chi-square distributions, loaded on first use.
 *
 * K = t′(γ; n − 1, δ) / √n with δ = z(c) √(n/k): the γ quantile of the noncentral t, found by
 * bisection on its distribution function P(T ≤ x) = E[Φ(x √(V/ν) − δ)], V ~ χ²(ν), ν = n − 1,
 * the mean taken over CHI_NODES equally likely values of V (the midpoints of its quantiles).
 * Written out here because jstat's own noncentral t (its only one in a kept JavaScript library)
 * sums a series that underflows to 0 from δ ≈ 27 on (a file of 100 runs at 99.9 % has δ ≈ 31);
 * the average over V is smooth and bounded, and agrees with scipy's `nct` to 1e-6 at every
 * n from 3 to 100 (test/gate/stats.test.ts).
 */
export async function loadToleranceFactor(): Promise<ToleranceFactor> {
  const {jStat} = await import('jstat')
  const roots = new Map<number, Float64Array>()
  const rootsOf = (df: number): Float64Array => {
    let found = roots.get(df)
    if (found === undefined) {
      found = new Float64Array(CHI_NODES)
      for (let i = 0; i < CHI_NODES; i++) found[i] = Math.sqrt(jStat.chisquare.inv((i + 0.5) / CHI_NODES, df) / df)
      roots.set(df, found)
    }
    return found
  }
  const cdf = (x: number, r: Float64Array, ncp: number): number => {
    let sum = 0
    for (let i = 0; i < r.length; i++) sum += jStat.normal.cdf(x * r[i] - ncp, 0, 1)
    return sum / r.length
  }
  const known = new Map<string, number>()
  return (n, k, confidence) => {
    const key = `${n} ${k} ${confidence}`
    const cached = known.get(key)
    if (cached !== undefined) return cached
    const df = n - 1
    const ncp = jStat.normal.inv(confidence, 0, 1) * Math.sqrt(n / k)
    const r = rootsOf(df)
    const p = FILE.tolerance
    // a bracket of the quantile, then bisection
    let lo = ncp - 1
    let hi = ncp + 1
    while (cdf(lo, r, ncp) > p) lo -= 2 * (hi - lo)
    while (cdf(hi, r, ncp) < p) hi += 2 * (hi - lo)
    for (let i = 0; i < 100 && hi - lo > 1e-10 * Math.max(1, Math.abs(hi)); i++) {
      const mid = (lo + hi) / 2
      if (cdf(mid, r, ncp) < p) lo = mid
      else hi = mid
    }
    const factor = (lo + hi) / 2 / Math.sqrt(n)
    known.set(key, factor)
    return factor
  }
}

/** The standard normal distribution's quantile: the value below which a share `p` of it lies. */
export type NormalQuantile = (p: number) => number

/** The upper tail of the binomial distribution: P(X ≥ k) for X ~ Binomial(n, p). */
export type BinomialTail = (k: number, n: number, p: number) => number

/**
 * The standard normal quantile and the binomial upper tail (through the regularized incomplete
 * beta) from jstat, loaded on first use like loadQuantile: the distributions of `evals stats`' verdicts.
 */
export async function loadVerdictDistributions(): Promise<{normalQuantile: NormalQuantile; binomialTail: BinomialTail}> {
  const {normal, binomial} = await import('jstat')
  return {
    normalQuantile: (p) => normal.inv(p, 0, 1),
    binomialTail: (k, n, p) => (k <= 0 ? 1 : 1 - binomial.cdf(k - 1, n, p)),
  }
}
