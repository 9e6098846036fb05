import {beforeAll, describe, expect, it} from 'vitest'
import {autoStep, drawStep, type Levels, type Sample} from '../../bench/auto-rule.mjs'
import {normalDraws} from '../../bench/random.mjs'
import {crossingProbability, gaussianCrossing, lookInformation, pocockConstant, sequentialLevels} from '../../src/gate/sequential.js'
import {HISTORY, loadQuantile, lookConfidence, perComparison, predictionMargin, type Quantile} from '../../src/gate/stats.js'

/** k_j = j: one scored run of the group per launch. */
const looksOf = (looks: number) => Array.from({length: looks}, (_, j) => j + 1)

describe('the looks of --repeat auto: the chance that their statistic crosses a boundary (issue 35 §5)', () => {
  let quantile: Quantile
  beforeAll(async () => {
    quantile = await loadQuantile()
  })

  it("one look is Student's t: jstat's quantile of 1 − P(T > b) is b again, from 2 to 99 degrees of freedom", () => {
    for (const n of [3, 5, 20, 50, 100]) {
      for (const b of [0.5, 1.5, 2.5, 3.5]) expect(quantile(1 - crossingProbability(b, n, [1]), n - 1)).toBeCloseTo(b, 4)
    }
  })

  /**
   * P(Z_j > a_j at some look), drawn the long way: a baseline mean of n scores and the running mean
   * of the new ones (σ = 1), Z_j = (mean of the first j − baseline mean) / √(1/j + 1/n).
   */
  function drawnCrossing(seed: number, n: number, bounds: readonly number[], draws: number): number {
    const z = normalDraws(seed)
    let crossed = 0
    for (let i = 0; i < draws; i++) {
      const baseline = n === Number.POSITIVE_INFINITY ? 0 : z() / Math.sqrt(n)
      let sum = 0
      for (let k = 1; k <= bounds.length; k++) {
        sum += z()
        if ((sum / k - baseline) / Math.sqrt(1 / k + 1 / n) > bounds[k - 1]) {
          crossed++
          break
        }
      }
    }
    return crossed / draws
  }

  it.each([
    [20, [2, 2, 2, 2, 2]],
    [3, [1.5, 1.5, 1.5, 1.5, 1.5]],
    [50, [2.3, 2.3, 2.3]],
    [Number.POSITIVE_INFINITY, [1, 1.2, 1.5]],
    [Number.POSITIVE_INFINITY, [1.5, 1.2, 1]],
  ])('the recursive integration against a brute-force Monte Carlo of the scores (fixed seed): n %s, boundaries %j', (n, bounds) => {
    const draws = 200_000
    const drawn = drawnCrossing(35 + bounds.length * 7 + bounds[0] * 10, n, bounds, draws)
    const se = Math.sqrt((drawn * (1 - drawn)) / draws)
    const computed = gaussianCrossing(bounds, lookInformation(n, looksOf(bounds.length)))
    expect(Math.abs(computed - drawn)).toBeLessThan(4 * se)
    // and the looks' correlation is what it measures: independent looks would cross far more often
    const independent = 1 - bounds.reduce((stay, a) => stay * (1 - crossingProbability(a, Number.POSITIVE_INFINITY, [1])), 1)
    expect(independent - drawn).toBeGreaterThan(20 * se)
  })

  it("agrees with scipy's multivariate t (Genz–Bretz quasi-Monte Carlo, two runs of 20 million points each)", () => {
    // scipy.stats.multivariate_t(shape = the looks' correlation, df = n − 1): 1 − cdf at b
    expect(crossingProbability(2.2433, 20, looksOf(5))).toBeCloseTo(0.05, 6) // scipy: 0.04999987, 0.05000003
    expect(crossingProbability(2.603, 20, looksOf(5))).toBeCloseTo(0.025, 6) // scipy: 0.02499985, 0.02500007
    expect(crossingProbability(2.167065, 50, looksOf(5))).toBeCloseTo(0.05, 6) // scipy: 0.04999992, 0.04999995
    expect(crossingProbability(4.131936, 3, looksOf(5))).toBeCloseTo(0.05, 6) // scipy: 0.05000003, 0.04999999
  })

  it("with no baseline noise (n → ∞) the constants are Pocock's: 2.178, 2.289 and 2.413 for 2, 3 and 5 looks cross 2.5 % of the time", () => {
    // Pocock (1977), Jennison and Turnbull (2000) table 2.1: two-sided 5 %, so each side 2.5 % to their 3 decimals
    for (const [looks, constant] of [
      [2, 2.178],
      [3, 2.289],
      [5, 2.413],
    ]) {
      expect(gaussianCrossing(constant, looksOf(looks))).toBeCloseTo(0.025, 4)
    }
  })

  it('launches that add three runs of a group, or whose run failed, cross less often than the design: the levels stay valid', () => {
    const b = pocockConstant(0.05, 20, looksOf(5))
    expect(crossingProbability(b, 20, looksOf(5))).toBeCloseTo(0.05, 7)
    // k = 3, 6, … raises every correlation (Slepian); a failed launch leaves a subset of the looks
    expect(crossingProbability(b, 20, [3, 6, 9, 12, 15])).toBeCloseTo(0.047, 3)
    expect(crossingProbability(b, 20, [1, 2, 3, 4])).toBeLessThan(0.05)
    expect(() => lookInformation(20, [1, 1, 2])).toThrow(RangeError)
  })
})

describe('the per-look levels (sequentialLevels, lookConfidence with n)', () => {
  it('one look: the fixed-K levels exactly; and lookConfidence without n keeps the Bonferroni split', () => {
    for (const [confidence, m, n] of [
      [0.95, 1, 20],
      [0.95, 3, 50],
      [0.99, 2, 5],
      [0.9, 7, 100],
    ]) {
      expect(sequentialLevels(confidence, m, 1, n)).toEqual({regress: perComparison(confidence, m), clear: 1 - (1 - confidence)})
      expect(lookConfidence(confidence, m, 1, n)).toEqual(lookConfidence(confidence, m, 1))
    }
    expect(lookConfidence(0.95, 2, 5)).toEqual({regress: 1 - 0.05 / 10, clear: 1 - 0.05 / 5})
  })

  it('the defaults (C 0.95, 5 looks): one constant a side, strictly between the one-look level and Bonferroni', () => {
    const expected: Record<number, {1: number; 2: number}> = {
      20: {1: 0.9815033, 2: 0.9912635},
      50: {1: 0.9824404, 2: 0.9917632},
      // a baseline file: a known sd (see src/gate/sequential.ts)
      [Number.POSITIVE_INFINITY]: {1: 0.983069, 2: 0.9920928},
    }
    for (const n of [20, 50, Number.POSITIVE_INFINITY]) {
      for (const m of [1, 2] as const) {
        const levels = sequentialLevels(0.95, m, 5, n)
        expect(levels.regress).toBeCloseTo(expected[n][m], 6)
        expect(levels.clear).toBeCloseTo(expected[n][1], 6)
        const bonferroni = lookConfidence(0.95, m, 5)
        expect(levels.regress).toBeLessThan(bonferroni.regress)
        expect(levels.clear).toBeLessThan(bonferroni.clear)
        expect(levels.regress).toBeGreaterThan(perComparison(0.95, m))
        expect(levels.clear).toBeGreaterThan(0.95)
      }
    }
  })

  it('computed once per n, looks, groups and confidence: the second call answers the same object', () => {
    const first = sequentialLevels(0.9, 4, 7, 30)
    expect(sequentialLevels(0.9, 4, 7, 30)).toBe(first)
    expect(lookConfidence(0.9, 4, 7, 30)).toBe(first)
    expect(() => sequentialLevels(0.95, 1, 5, 1)).toThrow(RangeError)
  })
})

describe('the rule of --repeat auto with these levels, simulated (bench/auto-rule.mjs: the judge decides as it does)', () => {
  let margin: (baseline: Sample, k: number, level: number) => number
  beforeAll(async () => {
    // jstat's quantile as the gate loads it, remembered: the simulation asks for few distinct ones
    const quantile = await loadQuantile()
    const known = new Map<string, number>()
    const remembered: Quantile = (p, df) => {
      const key = `${p} ${df}`
      const found = known.get(key) ?? quantile(p, df)
      known.set(key, found)
      return found
    }
    margin = (baseline, k, level) => predictionMargin(remembered, baseline, k, level, HISTORY.sdFloor)
  })
  const RULES: Record<string, (confidence: number, m: number, looks: number, n: number) => Levels> = {
    constant: (confidence, m, looks, n) => lookConfidence(confidence, m, looks, n),
    bonferroni: (confidence, m, looks) => lookConfidence(confidence, m, looks),
  }

  /** `steps` steps (a history of 20 runs a group, noise 0.03, at most 5 launches, C 0.95), each judged by both rules. */
  function simulate(seed: number, {groups, drop, maxDrop, steps}: {groups: number; drop: number; maxDrop: number; steps: number}) {
    const z = normalDraws(seed)
    const tally = (): Record<string, number> => ({launches: 0, regressed: 0, passed: 0, inconclusive: 0, cleared: 0})
    const out: Record<string, Record<string, number>> = {constant: tally(), bonferroni: tally()}
    for (let s = 0; s < steps; s++) {
      const step = drawStep(z, {groups, runs: 20, looks: 5, sd: 0.03, drop})
      for (const [name, levels] of Object.entries(RULES)) {
        const result = autoStep(step, {maxDrop, looks: 5, confidence: 0.95, levels, margin})
        out[name].launches += result.launches / steps
        out[name][result.outcome] += 1 / steps
        out[name].cleared += result.verdicts.filter((v) => v === 'passed' || v === 'improved').length / (groups * steps)
      }
    }
    return out
  }

  it('where the bound is reached (D far below the noise, one group): both rates are 1 − C over the looks, above Bonferroni’s', () => {
    const steps = 3000
    const se = Math.sqrt((0.05 * 0.95) / steps)
    // the chance of crossing the other constant: Bonferroni's t(0.99, 19) over five looks
    const bonferroni = crossingProbability(2.539483, 20, looksOf(5))
    expect(bonferroni).toBeCloseTo(0.02835, 4)
    const quiet = simulate(351, {groups: 1, drop: 0, maxDrop: 0.001, steps})
    const atD = simulate(352, {groups: 1, drop: 0.001, maxDrop: 0.001, steps})
    // no change: regressed at some look; a true drop of D: cleared at some look
    for (const [rule, expected] of [
      ['constant', 0.05],
      ['bonferroni', bonferroni],
    ] as const) {
      expect(Math.abs(quiet[rule].regressed - expected)).toBeLessThan(3.5 * se)
      expect(Math.abs(atD[rule].cleared - expected)).toBeLessThan(3.5 * se)
    }
  })

  it('two groups, D 0.05: a false alarm in at most 5 % of steps, a group with a true drop of D cleared in at most 5 %, and fewer launches', () => {
    const steps = 2000
    const bound = 0.05 + 2.33 * Math.sqrt((0.05 * 0.95) / steps)
    const quiet = simulate(353, {groups: 2, drop: 0, maxDrop: 0.05, steps})
    const atD = simulate(354, {groups: 2, drop: 0.05, maxDrop: 0.05, steps})
    expect(quiet.constant.regressed).toBeLessThan(bound)
    expect(atD.constant.cleared).toBeLessThan(bound)
    // the same draws: 3.4 launches an unchanged step where Bonferroni's make 3.8, a third fewer inconclusive
    expect(quiet.bonferroni.launches - quiet.constant.launches).toBeGreaterThan(0.3)
    expect(quiet.bonferroni.inconclusive - quiet.constant.inconclusive).toBeGreaterThan(0.08)
  })
})
