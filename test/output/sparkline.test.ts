import {describe, expect, it} from 'vitest'
import {SPARK_BARS, sparkline, sparkScale} from '../../src/output/sparkline.js'

describe('sparkline', () => {
  it('spreads the scores’ own range over the eight heights, oldest first', () => {
    expect(sparkline([0, 1 / 7, 2 / 7, 3 / 7, 4 / 7, 5 / 7, 6 / 7, 1])).toBe(SPARK_BARS)
    expect(sparkline([0.2, 0.6, 0.4])).toBe('▁█▅')
  })

  it('shows the noise of a history: scores a few points apart get different heights', () => {
    // twenty scores of noise 0.03 around 0.7 span about 0.1: the whole height
    expect(sparkline([0.65, 0.7, 0.75, 0.68, 0.72])).toBe('▁▅█▃▆')
  })

  it('a range narrower than 0.1 is widened around its middle: a steady score draws nearly flat', () => {
    expect(sparkline([0.7, 0.7, 0.7])).toBe('▅▅▅')
    expect(sparkline([0.7, 0.71, 0.69])).toBe('▅▅▄')
  })

  it('the widened range stays within 0–1', () => {
    expect(sparkline([1, 1, 0.99])).toBe('██▇')
    expect(sparkline([0, 0.01])).toBe('▁▂')
  })

  it('a missing score is a space; no scores is an empty line', () => {
    expect(sparkline([0.2, null, 0.6, Number.NaN])).toBe('▁ █ ')
    expect(sparkline([null, null])).toBe('  ')
    expect(sparkline([])).toBe('')
  })
})

describe('sparkScale', () => {
  it('lines drawn side by side share one scale: the noisier series spans the height, the steadier one a part of it', () => {
    const noisy = [0.6, 0.8, 0.7]
    const steady = [0.69, 0.7, 0.71]
    const scale = sparkScale([noisy, steady])
    expect(scale).toEqual({low: 0.6, high: 0.8})
    expect(sparkline(noisy, scale)).toBe('▁█▅')
    expect(sparkline(steady, scale)).toBe('▄▅▅')
  })

  it('at least 0.1 wide, within 0–1; the whole 0–1 with no scores at all', () => {
    expect(sparkScale([[0.5], [0.52]])).toEqual({low: expect.closeTo(0.46, 9), high: expect.closeTo(0.56, 9)})
    expect(sparkScale([[0.98, 1]])).toEqual({low: 0.9, high: 1})
    expect(sparkScale([[], [null]])).toEqual({low: 0, high: 1})
  })
})
