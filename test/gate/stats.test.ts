import {describe, expect, it} from 'vitest'
import {
  HISTORY,
  loadQuantile,
  loadToleranceFactor,
  toleranceMargin,
  median,
  perComparison,
  predictionMargin,
  RunningStats,
  robustSummary,
  scoreStep,
  sdFloor,
  sdFloorWith,
  summarize,
} from '../../src/gate/stats.js'
import {normalDraws} from '../../bench/random.mjs'

describe('RunningStats', () => {
  it('the mean and the sample standard deviation (n − 1)', () => {
    const {n, mean, sd} = summarize([0.7, 0.72, 0.68, 0.74, 0.66])
    expect(n).toBe(5)
    expect(mean).toBeCloseTo(0.7, 12)
    expect(sd).toBeCloseTo(Math.sqrt((0.0004 + 0.0004 + 0.0016 + 0.0016) / 4), 12)
  })

  it('no mean without values, no spread with fewer than two', () => {
    expect(summarize([])).toEqual({n: 0, mean: undefined, sd: undefined})
    expect(summarize([0.4])).toEqual({n: 1, mean: 0.4, sd: undefined})
  })

  it('stays exact on a long series far from zero (a naive sum of squares does not)', () => {
    const stats = new RunningStats()
    for (let i = 0; i < 100_000; i++) stats.add(1e6 + (i % 2 === 0 ? 0.01 : -0.01))
    expect(stats.mean).toBeCloseTo(1e6, 6)
    expect(stats.sd).toBeCloseTo(0.01, 6)
  })
})

describe('the history gate: estimator, floor, margin, correction', () => {
  // jstat's Student's t, as the gate loads it
  const quantile = async () => loadQuantile()

  it("Student's t quantile comes from jstat: t(0.95, 19) = 1.7291, t(0.975, 2) = 4.3027", async () => {
    const t = await quantile()
    expect(t(0.95, 19)).toBeCloseTo(1.729133, 5)
    expect(t(0.975, 2)).toBeCloseTo(4.302653, 5)
  })

  it('the margin: t(C, n − 1) × sd × √(1/k + 1/n); k repeats narrow it', async () => {
    const t = await quantile()
    expect(predictionMargin(t, {n: 20, sd: 0.03}, 1, 0.95)).toBeCloseTo(1.729133 * 0.03 * Math.sqrt(1 + 1 / 20), 6)
    expect(predictionMargin(t, {n: 20, sd: 0.03}, 3, 0.95)).toBeCloseTo(1.729133 * 0.03 * Math.sqrt(1 / 3 + 1 / 20), 6)
  })

  it('the floor: a history with no spread is taken as sd 0.01, so a drop of 0.001 is noise', async () => {
    const t = await quantile()
    const flat = robustSummary(Array(20).fill(0.7), t)
    expect(flat).toMatchObject({mean: 0.7, sd: 0, outliers: []})
    const margin = predictionMargin(t, {n: 20, sd: flat.sd}, 1, 0.95)
    expect(margin).toBeCloseTo(1.729133 * HISTORY.sdFloor * Math.sqrt(1.05), 6)
    expect(margin).toBeGreaterThan(0.001)
    // nor does it make a score 0.01 off an outlier (the scale of the outlier rule has the same floor)
    expect(robustSummary([...Array(19).fill(0.7), 0.71], t).outliers).toEqual([])
  })

  it('the step scores move in: 1/N for the smallest N up to 100 that fits every score; the floor is it, from 0.01 to 0.05 (issue 32 item 8)', () => {
    const tenAt = (score: number) => Array(10).fill(score)
    expect(scoreStep([...tenAt(0.7), 0.68])).toBeCloseTo(0.02, 12)
    expect(scoreStep([0.7, 0.66, 0.64, 0.72])).toBeCloseTo(0.02, 12)
    expect(scoreStep(tenAt(0.7))).toBeCloseTo(0.1, 12)
    expect(scoreStep([0.71, 0.73])).toBeCloseTo(0.01, 12)
    expect(scoreStep([0.7134, 0.7])).toBeUndefined()
    expect(scoreStep([0.705])).toBeUndefined() // 1/200: finer than the floor anyway
    expect(sdFloor([...tenAt(0.7), 0.68])).toBeCloseTo(0.02, 12)
    expect(sdFloor([0.71, 0.73])).toBe(HISTORY.sdFloor)
    expect(sdFloor([0.7134, 0.7])).toBe(HISTORY.sdFloor)
    // a coarse step counts as 0.05 at most: a history at 0.5 cannot hide a drop to 0 behind a step of 0.5
    expect(sdFloor([...tenAt(0.5), 0])).toBe(HISTORY.maxStepFloor)
    expect(sdFloor(tenAt(0.7))).toBe(HISTORY.maxStepFloor)
    // a score judged can only make the step finer, never coarser
    expect(sdFloor([...tenAt(0.7), 0.6])).toBe(HISTORY.maxStepFloor)
    expect(sdFloor([...tenAt(0.7), 0.64])).toBeCloseTo(0.02, 12)
    expect(sdFloor([...tenAt(0.7), 0.65, 0.68])).toBe(HISTORY.sdFloor)
  })

  it('the outlier rule scales with the same floor: two steps of 0.02 off a history at 0.70 are not an outlier', async () => {
    const t = await quantile()
    // with the 0.01 floor, 0.64 among 19 runs at 0.70 was set aside (0.06 beyond 3.5 × 0.01 and
    // the others' bound, t(1 − 0.001/40, 18) × 0.01 × √(1 + 1/19) = 0.054); with the step 0.02 it is kept
    expect(robustSummary([...Array(19).fill(0.7), 0.64], t).outliers).toEqual([])
    expect(robustSummary([...Array(19).fill(0.7), 0.1], t).outliers).toEqual([19])
  })

  it('an outlier (a run at 0.1 among runs at 0.7) is set aside and does not widen the margin', async () => {
    const t = await quantile()
    const noisy = [0.7, 0.72, 0.68, 0.71, 0.69, 0.73, 0.67, 0.7, 0.72, 0.68]
    const withOutlier = robustSummary([...noisy, 0.1], t)
    expect(withOutlier.outliers).toEqual([10])
    expect(withOutlier.kept).toHaveLength(10)
    expect(withOutlier.sd).toBeCloseTo(summarize(noisy).sd as number, 12)
    // two outliers do not hide each other (the median and MAD are not moved by them)
    expect(robustSummary([...noisy, 0.1, 0.12], t).outliers).toEqual([10, 11])
    // among equal scores too
    expect(robustSummary([...Array(19).fill(0.7), 0.1], t).outliers).toEqual([19])
  })

  it('genuine noise is kept: a score at the edge of a normal spread is not an outlier', async () => {
    const t = await quantile()
    expect(robustSummary([0.7, 0.72, 0.68, 0.74, 0.66, 0.79, 0.7, 0.71], t).outliers).toEqual([])
    // 0.77 is a candidate (its MAD is small by chance: 0.07 from the median, more than 3.5 scaled
    // MADs, 0.052), but within the 1 − 0.001/n prediction bound of the others: kept (the MAD rule
    // alone would set it aside, shrink the sd and raise the false-alarm rate)
    const tight = [0.7, 0.7, 0.71, 0.69, 0.7, 0.71, 0.69, 0.7, 0.72, 0.68, 0.74, 0.66, 0.75, 0.65, 0.7, 0.71, 0.69, 0.7, 0.77, 0.7]
    const centre = median(tight)
    expect(0.77 - centre).toBeGreaterThan(HISTORY.outlierMads * 1.4826 * median(tight.map((x) => Math.abs(x - centre))))
    expect(robustSummary(tight, t)).toMatchObject({outliers: [], kept: tight.map((_, i) => i)})
    // with fewer than 3 scores that are not candidates nothing is set aside
    expect(robustSummary([0.7, 0.71, 0.1], t).outliers).toEqual([])
  })

  it('Bonferroni: m groups judged in one step are each judged at 1 − (1 − C)/m', () => {
    expect(perComparison(0.95, 1)).toBeCloseTo(0.95, 12)
    expect(perComparison(0.95, 3)).toBeCloseTo(1 - 0.05 / 3, 12)
    expect(perComparison(0.95, 0)).toBeCloseTo(0.95, 12)
  })

  it('median', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
  })
})

describe('the baseline file: the tolerance bound of the mean of k new runs', () => {
  // scipy.stats.nct.ppf(0.9, n − 1, norm.ppf(c) × √(n/k)) / √n, computed apart (scipy 1.17)
  it.each([
    [20, 1, 0.975, 2.596211],
    [50, 1, 0.975, 2.320088],
    [3, 1, 0.95, 5.311478],
    [20, 3, 0.99, 1.839714],
    [50, 5, 0.995, 1.415799],
    // δ ≈ 33: jstat's own noncentral t underflows there
    [100, 1, 0.9995, 3.654316],
  ])('n %i, k %i, at %f: K = %f', async (n, k, c, expected) => {
    const factor = await loadToleranceFactor()
    expect(factor(n, k, c)).toBeCloseTo(expected, 5)
  })

  it('the margin is K × max(sd, floor): wider than the prediction bound, narrowing with more runs kept', async () => {
    const factor = await loadToleranceFactor()
    const t = await loadQuantile()
    expect(toleranceMargin(factor, {n: 20, sd: 0.03}, 1, 0.975)).toBeCloseTo(2.596211 * 0.03, 6)
    expect(toleranceMargin(factor, {n: 20, sd: 0}, 1, 0.975)).toBeCloseTo(2.596211 * HISTORY.sdFloor, 6)
    expect(toleranceMargin(factor, {n: 20, sd: 0.03}, 1, 0.975)).toBeGreaterThan(predictionMargin(t, {n: 20, sd: 0.03}, 1, 0.975))
    expect(toleranceMargin(factor, {n: 50, sd: 0.03}, 1, 0.975)).toBeLessThan(toleranceMargin(factor, {n: 20, sd: 0.03}, 1, 0.975))
  })
})

describe('the caches: what a step asks again is what it would compute (issue 37 item 11)', () => {
  it("the t quantile remembers jstat's answers: over a grid of levels and degrees of freedom, asked twice, the same", async () => {
    const {studentt} = await import('jstat')
    const t = await loadQuantile()
    const levels = [0.5, 0.8, 0.95, 0.975, 0.99, 0.9995, 1 - 0.05 / 10_000]
    const dfs = [2, 3, 19, 20, 49, 99]
    for (const pass of [1, 2]) {
      for (const p of levels) for (const df of dfs) expect(t(p, df), `pass ${pass}: t(${p}, ${df})`).toBe(studentt.inv(p, df))
    }
  })

  it('sdFloorWith(baseline, more) is sdFloor of both, a baseline asked again with other scores included', () => {
    // scores of several steps: 1/N tasks for N of 1, 2, 4, 5, 20, 50, 100, and 4 decimals (no step)
    const draws = normalDraws(37)
    const of = (n: number, count: number) =>
      Array.from({length: count}, () => Math.min(1, Math.max(0, Math.round((0.7 + 0.1 * draws()) * n) / n)))
    const baselines = [1, 2, 4, 5, 20, 50, 100, 10_000].flatMap((n) => [of(n, 3), of(n, 20), of(n, 50)])
    const more = [[], [0.5], [0.25], [0.7], [0.71], [0.7, 0.75], [0.123], ...[2, 4, 5, 20, 50, 100].map((n) => of(n, 3))]
    const floors = new Set<number>()
    for (const pass of [1, 2]) {
      for (const baseline of baselines) {
        for (const scores of more) {
          const floor = sdFloorWith(baseline, scores)
          expect(floor, `pass ${pass}: ${JSON.stringify([baseline, scores])}`).toBe(sdFloor([...baseline, ...scores]))
          floors.add(floor)
        }
      }
    }
    // (the grid reaches every kind of floor: the step's, the cap and the least)
    expect([...floors].sort()).toEqual(expect.arrayContaining([HISTORY.sdFloor, 0.02, HISTORY.maxStepFloor]))
  })
})
