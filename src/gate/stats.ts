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
 */

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
    if (scores.every((score) => Math.abs(score * n - Math.round(score * n)) < SAME)) return 1 / n
  }
  return undefined
}

/**
 * The smallest standard deviation the gate uses for `scores` (the history's, with the scores
 * judged against it): HISTORY.sdFloor, or their step (scoreStep) when it is larger, at most
 * HISTORY.maxStepFloor (the top of this file says why).
 */
export function sdFloor(scores: readonly number[]): number {
  const step = scoreStep(scores)
  return step === undefined ? HISTORY.sdFloor : Math.min(Math.max(step, HISTORY.sdFloor), HISTORY.maxStepFloor)
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

/** Student's t quantile from jstat, loaded on first use (only commands that judge a history load it). */
export async function loadQuantile(): Promise<Quantile> {
  const {studentt} = await import('jstat')
  return (p, df) => studentt.inv(p, df)
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
