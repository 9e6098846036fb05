import {describe, expect, it} from 'vitest'
import {RunningStats, summarize} from '../../src/gate/stats.js'

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
