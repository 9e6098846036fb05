import {describe, expect, it} from 'vitest'
import {HISTORY_SEED, derivedProfile, drawOutcome, type Triple, type TripleProfile, tripleKey} from '../../src/devserver/history.js'

const triple: Triple = {evalSetId: 'es_1', agent: 'codex', model: 'gpt-5'}
const flaky: TripleProfile = {kind: 'flaky', mean: 0.6, sd: 0.05, failed: 0.15, cancelled: 0.05}

/** The outcomes of runs 0 … n−1 of a triple. */
function series(profile: TripleProfile, of: Triple, n: number, seed = HISTORY_SEED) {
  return Array.from({length: n}, (_, k) => drawOutcome(profile, of, k, seed))
}

function meanSd(values: number[]): {mean: number; sd: number} {
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  return {mean, sd: Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1))}
}

describe('drawOutcome', () => {
  it('is a function of the seed, the triple and k alone', () => {
    expect(series(flaky, triple, 50)).toEqual(series(flaky, {...triple}, 50))
    expect(series(flaky, triple, 50, 'another seed')).not.toEqual(series(flaky, triple, 50))
    expect(series(flaky, {...triple, model: 'gpt-5-mini'}, 50)).not.toEqual(series(flaky, triple, 50))
  })

  it('follows the profile: failed and cancelled shares, then scores of mean ± sd, clipped to 0–1 and rounded to 2 decimals', () => {
    const drawn = series(flaky, triple, 10_000)
    const share = (outcome: string) => drawn.filter((o) => o.outcome === outcome).length / drawn.length
    expect(share('failed')).toBeCloseTo(0.15, 1)
    expect(share('cancelled')).toBeCloseTo(0.05, 1)
    for (const o of drawn) if (o.outcome !== 'succeeded') expect(o.score).toBeNull()
    const scores = drawn.filter((o) => o.outcome === 'succeeded').map((o) => o.score as number)
    const {mean, sd} = meanSd(scores)
    expect(Math.abs(mean - 0.6)).toBeLessThan(0.002)
    expect(Math.abs(sd - 0.05)).toBeLessThan(0.002)
    expect(scores.every((s) => Math.round(s * 100) / 100 === s)).toBe(true)
    const extreme = series({...flaky, mean: 0.97, sd: 0.1, failed: 0, cancelled: 0}, triple, 2000).map((o) => o.score as number)
    expect(Math.max(...extreme)).toBe(1)
    expect(extreme.every((s) => s >= 0 && s <= 1)).toBe(true)
  })

  it('a stream is another series from the same profile; stream 0 is the series without one', () => {
    expect(series({...flaky, stream: 0}, triple, 50)).toEqual(series(flaky, triple, 50))
    expect(series({...flaky, stream: 7}, triple, 50)).not.toEqual(series(flaky, triple, 50))
    expect(series({...flaky, stream: 7}, triple, 50)).toEqual(series({...flaky, stream: 7}, {...triple}, 50))
  })

  it('a change of level: the first `earlier.runs` runs draw around `earlier.mean`, the same draws moved; the later runs are untouched', () => {
    const shifted: TripleProfile = {...flaky, kind: 'shifted', earlier: {runs: 30, mean: 0.75}}
    const moved = series(shifted, triple, 60)
    const plain = series(flaky, triple, 60)
    expect(moved.slice(30)).toEqual(plain.slice(30))
    moved.slice(0, 30).forEach((o, k) => {
      expect(o.outcome).toBe(plain[k].outcome)
      if (o.score !== null) expect(o.score - (plain[k].score as number)).toBeCloseTo(0.15, 6)
    })
  })

  it('a triple with no agent or model is a triple of its own', () => {
    expect(tripleKey({evalSetId: 'es_1', agent: null, model: null})).not.toBe(tripleKey({evalSetId: 'es_1', agent: 'null', model: 'null'}))
  })
})

describe('derivedProfile', () => {
  it('is fixed by the triple; across triples half are steady, three in ten noisy, two in ten flaky with 10–20 % failed runs', () => {
    expect(derivedProfile(triple)).toEqual(derivedProfile({...triple}))
    const profiles = Array.from({length: 2000}, (_, i) => derivedProfile({evalSetId: `es_${i}`, agent: 'a', model: 'm'}))
    const share = (kind: string) => profiles.filter((p) => p.kind === kind).length / profiles.length
    expect(share('steady')).toBeCloseTo(0.5, 1)
    expect(share('noisy')).toBeCloseTo(0.3, 1)
    expect(share('flaky')).toBeCloseTo(0.2, 1)
    for (const p of profiles) {
      expect(p.mean).toBeGreaterThanOrEqual(0.55)
      expect(p.mean).toBeLessThanOrEqual(0.85)
      if (p.kind === 'flaky') expect(p.failed >= 0.1 && p.failed <= 0.2).toBe(true)
      else expect(p.failed).toBeLessThanOrEqual(0.05)
      expect(p.sd).toBeLessThanOrEqual(p.kind === 'noisy' ? 0.08 : 0.05)
    }
  })
})
