import {describe, expect, it} from 'vitest'
import {SPARK_BARS, sparkline} from '../../src/output/sparkline.js'

describe('sparkline', () => {
  it('places each score on the fixed scale 0–1, oldest first', () => {
    expect(sparkline([0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1])).toBe(`${SPARK_BARS}█`)
    expect(sparkline([0.7, 0.71, 0.69])).toBe('▆▆▆')
  })

  it('a flat line is a steady score, not stretched to the values’ own range', () => {
    expect(sparkline([0.5, 0.52])).toBe('▅▅')
  })

  it('clamps scores outside 0–1 and shows a missing score as a space', () => {
    expect(sparkline([-1, null, 2, Number.NaN])).toBe('▁ █ ')
  })

  it('is empty for no scores', () => {
    expect(sparkline([])).toBe('')
  })
})
