import type {Rate} from './rules.js'

/**
 * Failed runs as evidence (docs/ci-reference.md "Failed and cancelled runs"): a group's failures are
 * judged against its baseline's own failure rate, as its scores are judged against its
 * baseline's noise.
 *
 * - **The predictive test.** A baseline of n finished runs (succeeded or failed; cancelled runs
 *   say nothing about the agent) of which f failed leaves the agent's failure rate p uncertain:
 *   with a uniform prior, p ~ Beta(f + 1, n − f + 1). The number X of failures among m new
 *   finished runs then follows the beta-binomial predictive, and x failures are beyond the
 *   baseline's rate when P(X ≥ x) is at most the group's threshold. One failure of an agent that
 *   never failed in 50 runs has P = 1/52; one of an agent that failed 5 of 30 has P = 6/32.
 * - **Its exact size.** A step looks at a group's failures after each launch, so the chance of a
 *   false alarm is that of crossing the threshold at ANY look. It is computed exactly, under the
 *   predictive itself, for the way the step can go (`Looks`). A step without --repeat auto looks
 *   again at a group only while none of its runs succeeded (a relaunch): its size is the chance
 *   of crossing at the first look, or at a later one reached through runs that all failed, the
 *   largest over every count of runs the launches can finish (a cancelled run finishes nothing,
 *   so each launch's count is anything from 1 to its runs: the size holds however runs are
 *   cancelled). With --repeat auto a group may be looked at again after a success (its score in
 *   doubt), and the size counts the sequences of outcomes that cross first at each count of
 *   finished runs from 1 to the most the step can make (a walk over (runs, failures)), which
 *   bounds every way it can go. The threshold is the largest attainable P whose size fits the
 *   test's budget, and the size, not the budget, is what the test spends: the score test of the
 *   group gets the rest of the group's share of the step's false-alarm rate (./verdict.ts).
 * - **What it can see.** The failure rate the step catches 4 times in 5 (`detectableRate`),
 *   given the launches it may make: a step relaunches a group only while none of its runs
 *   succeeded, so a rise of the rate is caught only through runs that all fail.
 *
 * Hand-written: the beta-binomial of integer counts is a ratio of finite products (no gamma
 * function needed), and no kept library offers the crossing probabilities of a sequential test.
 */

/**
 * The predictive probability of one particular sequence of `x` failures and `s` successes, given a
 * baseline of `f` failed in `n` finished: E[p^x (1 − p)^s] for p ~ Beta(f + 1, n − f + 1), i.e.
 * B(a + x, b + s) / B(a, b) = Π(a + i) Π(b + j) / Π(a + b + t), i < x, j < s, t < x + s.
 */
function sequenceWeight(x: number, s: number, base: Rate): number {
  const a = base.failed + 1
  const b = base.finished - base.failed + 1
  let w = 1
  let t = 0
  for (let i = 0; i < x; i++, t++) w *= (a + i) / (a + b + t)
  for (let j = 0; j < s; j++, t++) w *= (b + j) / (a + b + t)
  return w
}

/** The binomial coefficients of row `m`. */
function binomials(m: number): number[] {
  const row = [1]
  for (let k = 1; k <= m; k++) row.push((row[k - 1] * (m - k + 1)) / k)
  return row
}

/** P(X ≥ x) for X the failures among `m` new finished runs, by the beta-binomial predictive of `base`. */
export function predictiveTail(x: number, m: number, base: Rate): number {
  if (x <= 0) return 1
  if (x > m) return 0
  const c = binomials(m)
  let sum = 0
  for (let k = x; k <= m; k++) sum += c[k] * sequenceWeight(k, m - k, base)
  return Math.min(1, sum)
}

/** predictiveTail(x, c, base) for every count c up to `maxRuns` and every x ≤ c: tails[c][x]. */
function tailTable(base: Rate, maxRuns: number): number[][] {
  const tails: number[][] = [[1]]
  for (let c = 1; c <= maxRuns; c++) {
    const row = binomials(c).map((n, k) => n * sequenceWeight(k, c - k, base))
    // the upper tail, summed from the top
    for (let k = c - 1; k >= 0; k--) row[k] += row[k + 1]
    tails.push(row.map((p) => Math.min(1, p)))
  }
  return tails
}

/**
 * The chance that a walk over outcomes crosses the threshold first at each count, summed: at
 * each count c in `looks`, x failures of c cross when tails[c][x] ≤ threshold; a walk goes on
 * past a look only when `goesOn(x, c)`. `weight(x, s)` is the probability of one sequence with x
 * failures and s successes.
 */
function crossing(
  tails: readonly number[][],
  threshold: number,
  looks: readonly number[],
  goesOn: (x: number, c: number) => boolean,
  weight: (x: number, s: number) => number,
): number {
  const last = looks[looks.length - 1] ?? 0
  const lookAt = new Set(looks)
  // paths[x]: how many sequences of the current count reach x failures without having crossed
  let paths = [1]
  let total = 0
  for (let c = 1; c <= last; c++) {
    const next = new Array<number>(c + 1).fill(0)
    for (let x = 0; x < paths.length; x++) {
      next[x] += paths[x]
      next[x + 1] += paths[x]
    }
    paths = next
    if (!lookAt.has(c)) continue
    for (let x = 0; x <= c; x++) {
      if (paths[x] === 0) continue
      if (x > 0 && tails[c][x] <= threshold) {
        total += paths[x] * weight(x, c - x)
        paths[x] = 0
      } else if (!goesOn(x, c)) {
        paths[x] = 0
      }
    }
  }
  return total
}

/**
 * When a step looks at a group's failures: at most `first` finished runs at its first look (the
 * group's runs of the first look's launches), at most `perLaunch` more at each later one, at most
 * `max` in all; `free` (--repeat auto): a group may be looked at again after one of its runs
 * succeeded, else only while none did (a relaunch).
 */
export interface Looks {
  first: number
  perLaunch: number
  max: number
  free: boolean
}

/** A group's failure test for one step: its threshold on predictiveTail, and the false-alarm rate it spends. */
export interface FailureTest {
  /** x failures of m are beyond the baseline's rate when predictiveTail(x, m) ≤ this (0: nothing can be) */
  threshold: number
  /** the exact chance, under the baseline's own rate, that the step ends this group `failed` */
  size: number
}

const TESTS = new Map<string, FailureTest>()

/**
 * The failure test of a group whose baseline is `base`, for a step that looks at its runs as
 * `looks` says, spending at most `budget`: the largest attainable threshold whose exact size fits.
 * Cached: it depends only on its arguments.
 */
export function failureTest(base: Rate, looks: Looks, budget: number): FailureTest {
  const key = `${base.failed} ${base.finished} ${looks.first} ${looks.perLaunch} ${looks.max} ${looks.free} ${budget}`
  let test = TESTS.get(key)
  if (test === undefined) {
    test = findFailureTest(base, looks, budget)
    TESTS.set(key, test)
  }
  return test
}

/**
 * The size of a step that looks again only while every run failed: the chance of crossing at the
 * first look or at a later one, the largest over the counts each launch can finish (1 to its
 * runs; a launch whose runs were all cancelled only spends a launch).
 */
function relaunchSize(tails: readonly number[][], threshold: number, looks: Looks, base: Rate): number {
  const first = Math.max(1, Math.min(looks.first, looks.max))
  const perLaunch = Math.max(1, looks.perLaunch)
  const relaunches = Math.max(0, Math.ceil((looks.max - first) / perLaunch))
  const crosses = (c: number, x: number) => x > 0 && tails[c][x] <= threshold
  const allFailed = (c: number) => sequenceWeight(c, 0, base)
  const memo = new Map<string, number>()
  // the most a launch of at most `most` runs can add, from c runs that all failed, with `left` launches after it
  const next = (c: number, most: number, left: number): number => {
    const key = `${c} ${most} ${left}`
    const known = memo.get(key)
    if (known !== undefined) return known
    const from = allFailed(c)
    let best = 0
    for (let m = 1; m <= Math.min(most, looks.max - c); m++) {
      const ways = binomials(m)
      let value = 0
      for (let y = 0; y <= m; y++) {
        const chance = (ways[y] * sequenceWeight(c + y, m - y, base)) / from
        if (crosses(c + m, c + y)) value += chance
        else if (y === m && left > 0) value += chance * next(c + m, perLaunch, left - 1)
      }
      best = Math.max(best, value)
    }
    memo.set(key, best)
    return best
  }
  return next(0, first, relaunches)
}

/** failureTest, computed (uncached). */
export function findFailureTest(base: Rate, looks: Looks, budget: number): FailureTest {
  const maxRuns = looks.max
  const tails = tailTable(base, maxRuns)
  const everyCount = Array.from({length: maxRuns}, (_, i) => i + 1)
  const size = looks.free
    ? (threshold: number) =>
        crossing(
          tails,
          threshold,
          everyCount,
          () => true,
          (x, s) => sequenceWeight(x, s, base),
        )
    : (threshold: number) => relaunchSize(tails, threshold, looks, base)
  // the thresholds worth trying: the tails the counts can reach
  const sorted = [...new Set(tails.slice(1).flatMap((row) => row.slice(1)))].sort((a, b) => a - b)
  let lo = -1
  let hi = sorted.length
  // the largest index whose size fits (size grows with the threshold)
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (size(sorted[mid]) <= budget) lo = mid
    else hi = mid
  }
  return lo < 0 ? {threshold: 0, size: 0} : {threshold: sorted[lo], size: size(sorted[lo])}
}

/** `detectableRate`: the failure rate caught with this probability. */
export const RATE_POWER = 0.8

const RATES = new Map<string, number | null>()

/**
 * The smallest true failure rate a step catches with probability RATE_POWER: the group's first
 * look at `first` finished runs, then one more look every `perLaunch` runs up to `maxRuns`, each
 * made only while none of the group's runs succeeded (a relaunch), judged by `test`. Null when
 * no rate, not even every run failing, is caught that often. Cached, as failureTest is: it
 * depends only on its arguments, which the groups of a step share (41 walks a group otherwise).
 */
export function detectableRate(base: Rate, test: FailureTest, first: number, perLaunch: number, maxRuns: number): number | null {
  const key = `${base.failed} ${base.finished} ${test.threshold} ${first} ${perLaunch} ${maxRuns}`
  if (RATES.has(key)) return RATES.get(key) as number | null
  const rate = findDetectableRate(base, test, first, perLaunch, maxRuns)
  RATES.set(key, rate)
  return rate
}

/** detectableRate, computed (uncached: the cache's tests compare the two). */
export function findDetectableRate(base: Rate, test: FailureTest, first: number, perLaunch: number, maxRuns: number): number | null {
  if (test.threshold <= 0) return null
  const looks: number[] = []
  for (let c = first; c <= maxRuns; c += Math.max(1, perLaunch)) looks.push(c)
  const tails = tailTable(base, looks[looks.length - 1] ?? 0)
  const caught = (rate: number) =>
    crossing(
      tails,
      test.threshold,
      looks,
      (x, c) => x === c,
      (x, s) => rate ** x * (1 - rate) ** s,
    )
  if (caught(1) < RATE_POWER) return null
  let lo = 0
  let hi = 1
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2
    if (caught(mid) >= RATE_POWER) hi = mid
    else lo = mid
  }
  return hi
}
