import {describe, expect, it} from 'vitest'
import {normalDraws} from '../../bench/random.mjs'
import {findChange, isFlaky, type Judge, VERDICT, verdictOf} from '../../src/gate/history-verdict.js'
import {loadVerdictDistributions} from '../../src/gate/stats.js'

// The verdicts of `evals stats` on hand-built series of scores (oldest first).

const {normalQuantile: quantile, binomialTail} = await loadVerdictDistributions()
const judge: Judge = {confidence: 0.95, normalQuantile: quantile, binomialTail}

/** `n` scores at `level`, ± `noise` in turn (the same every time). */
const flat = (n: number, level: number, noise = 0.01) => Array.from({length: n}, (_, i) => level + (i % 2 === 0 ? noise : -noise))

/** A deterministic normal series (bench/random.mjs): `n` scores of N(mean, sd), rounded to 2 decimals as scores are. */
function normal(seed: number, n: number, mean: number, sd: number): number[] {
  const z = normalDraws(seed)
  return Array.from({length: n}, () => Math.round((mean + sd * z()) * 100) / 100)
}

describe('findChange: the rank-sum change-point test, Bonferroni over the splits, the newest change', () => {
  it('one level: no change; a drop of 0.1 after 30 of 50 scores: found at index 30, with the mean before and since', () => {
    expect(findChange(flat(50, 0.7), 0.95, quantile)).toBeUndefined()
    const change = findChange([...flat(30, 0.8), ...flat(20, 0.7)], 0.95, quantile)
    expect(change?.at).toBe(30)
    expect(change?.before).toBeCloseTo(0.8, 12)
    expect(change?.after).toBeCloseTo(0.7, 12)
  })

  it('a level needs 5 scores on each side: 9 scores cannot show a change, 10 can; 5 new ones at the end can', () => {
    expect(findChange([...flat(5, 0.8), ...flat(4, 0.6)], 0.95, quantile)).toBeUndefined()
    expect(findChange([...flat(5, 0.8), ...flat(5, 0.6)], 0.95, quantile)?.at).toBe(5)
    expect(findChange([...flat(40, 0.8), ...flat(VERDICT.minSegment, 0.6)], 0.95, quantile)?.at).toBe(40)
  })

  it('two changes (up, then down): the newest is reported, its "before" the level between them', () => {
    const change = findChange([...flat(20, 0.6), ...flat(20, 0.8), ...flat(20, 0.7)], 0.95, quantile)
    expect(change?.at).toBe(40)
    expect(change?.before).toBeCloseTo(0.8, 12)
    expect(change?.after).toBeCloseTo(0.7, 12)
  })

  it('one wild score is not a change of level (a mean would make one of it: 0.58 against 0.70 in the newest five)', () => {
    expect(findChange([...flat(55, 0.7), 0.1, ...flat(4, 0.7)], 0.95, quantile)).toBeUndefined()
    expect(findChange([...flat(30, 0.7), 0.1, ...flat(29, 0.7)], 0.95, quantile)).toBeUndefined()
  })

  it('tied scores: all one score is no change; a step of 0.01 between two unvarying levels is one (the delta says how small)', () => {
    expect(findChange(flat(40, 0.7, 0), 0.95, quantile)).toBeUndefined()
    const step = findChange([...flat(20, 0.7, 0), ...flat(20, 0.69, 0)], 0.95, quantile)
    expect(step?.at).toBe(20)
    expect((step?.after ?? 0) - (step?.before ?? 0)).toBeCloseTo(-0.01, 12)
  })

  it('Bonferroni over the splits: a difference one rank-sum test alone would call (z = 2.70) is not a change among 31 places', () => {
    // older 0.68/0.72, newer 0.69/0.73: the newer ranks are 11–20 and 31–40 of 40, W = 510 against 410 ± 36.97
    const scores = [...flat(20, 0.7, 0.02), ...flat(20, 0.71, 0.02)]
    const z = (510 - 410) / Math.sqrt(((20 * 20) / 12) * 41)
    expect(z).toBeGreaterThan(quantile(0.975))
    expect(z).toBeLessThan(quantile(1 - 0.05 / 62))
    expect(findChange(scores, 0.95, quantile)).toBeUndefined()
  })

  it('--confidence: a change beyond noise at 0.95 is within noise at 0.999', () => {
    // older 0.69/0.71, newer six at 0.70 among fourteen at 0.74: W = 550, z = 3.79, between z(1 − 0.05/62) and z(1 − 0.001/62)
    const newer = [0.74, 0.7, 0.74, 0.7, 0.74, 0.7, 0.74, 0.7, 0.74, 0.7, 0.74, 0.7, ...Array(8).fill(0.74)]
    const scores = [...flat(20, 0.7, 0.01), ...newer]
    expect(findChange(scores, 0.95, quantile)?.at).toBe(20)
    expect(findChange(scores, 0.999, quantile)).toBeUndefined()
  })

  it('on 400 unchanged histories of 60 normal scores, at most 5 % are called shifted; a drop of 3 sd is found in nearly all', () => {
    let falseAlarms = 0
    let found = 0
    for (let i = 0; i < 400; i++) {
      if (findChange(normal(i, 60, 0.7, 0.03), 0.95, quantile) !== undefined) falseAlarms++
      const at = 10 + (i % 40)
      const dropped = [...normal(10_000 + i, at, 0.7, 0.03), ...normal(20_000 + i, 60 - at, 0.61, 0.03)]
      if (findChange(dropped, 0.95, quantile) !== undefined) found++
    }
    expect(falseAlarms / 400).toBeLessThanOrEqual(0.05)
    expect(found / 400).toBeGreaterThanOrEqual(0.95)
  })
})

describe('isFlaky: more failed runs than 1 in 20 explains, one-sided exact binomial test', () => {
  it('3 of 20 is not flaky (P = 0.075), 4 of 20 is (P = 0.016); none, or one of one, is not; 2 of 2 is', () => {
    expect(binomialTail(3, 20, 0.05)).toBeCloseTo(0.0755, 4)
    expect(binomialTail(4, 20, 0.05)).toBeCloseTo(0.0159, 4)
    expect(isFlaky(3, 20, 0.95, binomialTail)).toBe(false)
    expect(isFlaky(4, 20, 0.95, binomialTail)).toBe(true)
    expect(isFlaky(0, 20, 0.95, binomialTail)).toBe(false)
    expect(isFlaky(1, 1, 0.95, binomialTail)).toBe(false)
    expect(isFlaky(2, 2, 0.95, binomialTail)).toBe(true)
    expect(isFlaky(0, 0, 0.95, binomialTail)).toBe(false)
  })

  it('a steady 2 % failure rate over a long history is not flaky; 8 % is; --confidence 0.999 asks for more', () => {
    expect(isFlaky(20, 1000, 0.95, binomialTail)).toBe(false)
    expect(isFlaky(80, 1000, 0.95, binomialTail)).toBe(true)
    expect(isFlaky(8, 52, 0.95, binomialTail)).toBe(true)
    expect(isFlaky(5, 52, 0.95, binomialTail)).toBe(false)
    expect(isFlaky(4, 20, 0.999, binomialTail)).toBe(false)
  })
})

describe('verdictOf: shifted, then flaky, then too-few, then stable', () => {
  const moved = [...flat(20, 0.8), ...flat(20, 0.6)]
  it.each([
    ['shifted, however many failed', {failed: 10, finished: 50, scores: moved}, 'shifted'],
    ['flaky, one level', {failed: 10, finished: 50, scores: flat(40, 0.7)}, 'flaky'],
    ['flaky, however few scores', {failed: 3, finished: 3, scores: []}, 'flaky'],
    ['too-few: 9 scores', {failed: 0, finished: 9, scores: flat(9, 0.7)}, 'too-few'],
    ['stable: 10 scores, one level', {failed: 0, finished: 10, scores: flat(10, 0.7)}, 'stable'],
  ])('%s', (_, group, verdict) => {
    expect(verdictOf(group, judge).verdict).toBe(verdict)
  })

  it('the change comes with shifted only', () => {
    expect(verdictOf({failed: 0, finished: 40, scores: moved}, judge).change).toMatchObject({at: 20})
    expect(verdictOf({failed: 0, finished: 40, scores: flat(40, 0.7)}, judge).change).toBeUndefined()
  })
})
