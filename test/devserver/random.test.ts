import {describe, expect, it} from 'vitest'
import {mulberry32} from '../../src/devserver/random.js'

describe('mulberry32 (the dev server seeded randomness: fault rules, outcome plans)', () => {
  it('the same seed gives the same sequence, in [0, 1); another seed another', () => {
    const take = (seed: number) => {
      const next = mulberry32(seed)
      return Array.from({length: 1000}, () => next())
    }
    const a = take(7)
    expect(take(7)).toEqual(a)
    expect(take(8)).not.toEqual(a)
    for (const x of a) expect(x >= 0 && x < 1).toBe(true)
    // mulberry32's first values for seed 7: the sequence is part of what a seed promises (the same faults and scores)
    expect(a.slice(0, 2)).toEqual([0.011704753153026104, 0.06195825757458806])
    // about uniform: a tenth of the draws in each tenth
    const tenths = Array(10).fill(0)
    for (const x of a) tenths[Math.floor(x * 10)]++
    for (const n of tenths) expect(n).toBeGreaterThan(60)
  })
})
