import jstat from 'jstat'
import {describe, expect, it} from 'vitest'
import type {Run} from '../../src/contract/types.js'
import {type TripleProfile, tripleKey} from '../../src/devserver/history.js'
import {ORGS, TRIPLE_PROFILES, profileOf, seedState, seededOutcome} from '../../src/devserver/seed.js'
import {outcomeOf} from '../../src/devserver/runs.js'

// The seeded history behaves like real evals (issue 23 §4): each eval set × agent × model has its
// own true mean and noise, some steady, some noisy, some flaky; the same on every start.

const SEEDED_AT = Date.parse('2026-06-01T12:34:56.789Z')
const state = seedState('default', SEEDED_AT)
const allRuns = Object.values(state.runs).flat()
const finished = allRuns.filter((run) => ['succeeded', 'failed', 'cancelled'].includes(run.status))

function byTriple(runs: Run[]): Map<string, Run[]> {
  const groups = new Map<string, Run[]>()
  for (const run of runs) {
    const key = tripleKey({evalSetId: run.evalSetId, agent: run.agent, model: run.model})
    groups.set(key, [...(groups.get(key) ?? []), run])
  }
  return groups
}

function meanSd(values: number[]): {mean: number; sd: number} {
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  return {mean, sd: Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1))}
}

describe('the seeded history', () => {
  it('is the same for the same seed: every start gives the same runs, outcomes and scores (only the dates follow the start)', () => {
    expect(seedState('default', SEEDED_AT)).toEqual(state)
    const later = seedState('default', SEEDED_AT + 86_400_000).runs
    const withoutDates = (runs: Record<string, Run[]>) => Object.values(runs).flatMap((list) => list.map(({createdAt, ...rest}) => rest))
    expect(withoutDates(later)).toEqual(withoutDates(state.runs))
  })

  it("is launches of each organization's eval sets: one run per target, the runs of a launch in one batch", () => {
    for (const [orgId, runs] of Object.entries(state.runs)) {
      const targets = new Map(
        Object.values(state.evalSets)
          .filter((owned) => owned.orgId === orgId)
          .map(({item}) => [item.id, (item.targets as Array<{agent: string; model: string}>).map((t) => `${t.agent}/${t.model}`)]),
      )
      const batches = new Map<string, Run[]>()
      for (const run of runs) {
        expect(targets.get(run.evalSetId as string)).toContain(`${run.agent}/${run.model}`)
        batches.set(run.batchId as string, [...(batches.get(run.batchId as string) ?? []), run])
      }
      for (const batch of batches.values()) {
        expect(new Set(batch.map((run) => run.evalSetId)).size).toBe(1)
        expect(batch.map((run) => `${run.agent}/${run.model}`)).toEqual(targets.get(batch[0].evalSetId as string))
      }
    }
  })

  it('gives each eval set × agent × model its own mean and noise: steady, noisy, flaky and shifted ones, each close to its profile', () => {
    const groups = byTriple(finished)
    expect([...groups.keys()].sort()).toEqual([...TRIPLE_PROFILES.keys()].sort())
    expect(new Set([...TRIPLE_PROFILES.values()].map((p) => p.kind))).toEqual(new Set(['steady', 'noisy', 'flaky', 'shifted']))
    const means = new Set<number>()
    for (const [key, all] of groups) {
      const profile = TRIPLE_PROFILES.get(key)!
      // a shifted triple is judged on the runs of its level now (the level before: the next test)
      const runs = all.slice(profile.earlier?.runs ?? 0)
      const scores = runs.filter((run) => run.status === 'succeeded').map((run) => run.score as number)
      const {mean, sd} = meanSd(scores)
      expect(runs.length, key).toBeGreaterThanOrEqual(profile.kind === 'shifted' ? 24 : 37)
      // the observed history is within two standard errors of its true mean, and its spread within 20 % of the true one
      expect(Math.abs(mean - profile.mean), key).toBeLessThan((2 * profile.sd) / Math.sqrt(scores.length))
      expect(sd / profile.sd, key).toBeGreaterThan(0.8)
      expect(sd / profile.sd, key).toBeLessThan(1.2)
      const failed = runs.filter((run) => run.status === 'failed').length / runs.length
      if (profile.kind === 'flaky') {
        expect(failed, key).toBeGreaterThanOrEqual(0.1)
        expect(failed, key).toBeLessThanOrEqual(0.2)
      } else expect(failed, key).toBeLessThanOrEqual(0.05)
      if (profile.kind === 'steady' || profile.kind === 'shifted') expect(sd, key).toBeLessThan(0.03)
      if (profile.kind === 'noisy') expect(sd, key).toBeGreaterThan(0.06)
      means.add(profile.mean)
    }
    expect(means.size).toBe(groups.size)
  })

  it('has one shifted triple: its first runs drew around the earlier level, 3 sd away, in the middle of its history', () => {
    const shifted = [...TRIPLE_PROFILES.entries()].filter(([, p]) => p.kind === 'shifted')
    expect(shifted.map(([key]) => key)).toEqual([
      tripleKey({evalSetId: 'es_acme_checkout', agent: 'claude-code', model: 'claude-sonnet-4-5'}),
    ])
    const [key, profile] = shifted[0]
    const earlier = profile.earlier as NonNullable<TripleProfile['earlier']>
    expect(Math.abs(earlier.mean - profile.mean) / profile.sd).toBeCloseTo(3, 6)
    const runs = byTriple(finished).get(key) as Run[]
    const before = runs.slice(0, earlier.runs).filter((run) => run.status === 'succeeded')
    const {mean, sd} = meanSd(before.map((run) => run.score as number))
    expect(Math.abs(mean - earlier.mean)).toBeLessThan((2 * profile.sd) / Math.sqrt(before.length))
    expect(sd / profile.sd).toBeGreaterThan(0.8)
    expect(sd / profile.sd).toBeLessThan(1.2)
  })

  it('the first launches after it fail and are cancelled about as often as each profile says (within the middle 95 % for 8 and 20 launches)', () => {
    const {binomial} = (jstat as unknown as {jStat: {binomial: {cdf(k: number, n: number, p: number): number}}}).jStat
    /** The smallest k with P(X ≤ k) ≥ q, X ~ Binomial(n, p). */
    const quantile = (q: number, n: number, p: number) => {
      let k = 0
      while (binomial.cdf(k, n, p) < q) k++
      return k
    }
    for (const runs of Object.values(state.runs)) {
      for (const [key, seeded] of byTriple(runs)) {
        const profile = TRIPLE_PROFILES.get(key)!
        const launched = Array.from({length: 20}, (_, i) => outcomeOf(seeded[0], seeded.length + i))
        for (const n of [8, 20]) {
          for (const outcome of ['failed', 'cancelled'] as const) {
            const share = profile[outcome]
            const count = launched.slice(0, n).filter((o) => o.outcome === outcome).length
            const band = [quantile(0.025, n, share), quantile(0.975, n, share)]
            expect(count, `${key}: ${outcome} in the first ${n} launches, against ${share * 100} %`).toBeGreaterThanOrEqual(band[0])
            expect(count, `${key}: ${outcome} in the first ${n} launches, against ${share * 100} %`).toBeLessThanOrEqual(band[1])
          }
        }
      }
    }
    // codex on es_acme_checkout, 15 % failed: its first launch fails (README's quick start), then 1 of the first 8, 3 of the first 20
    const codex = {evalSetId: 'es_acme_checkout', agent: 'codex', model: 'gpt-5'}
    const first = Array.from({length: 20}, (_, i) => seededOutcome(codex, 52 + i).outcome)
    expect(first[0]).toBe('failed')
    expect(first.slice(0, 8).filter((o) => o === 'failed')).toHaveLength(1)
    expect(first.filter((o) => o === 'failed')).toHaveLength(3)
  })

  it('only succeeded runs have a score; the newest three of each organization are not finished and have none', () => {
    for (const run of allRuns) if (run.status !== 'succeeded') expect(run.score).toBeNull()
    for (const runs of Object.values(state.runs)) {
      expect(runs.slice(-3).map((run) => run.status)).toEqual(['running', 'running', 'queued'])
    }
  })

  it("is the start of each triple's series: its k-th run drew outcome k, and a launch draws the next (runs.ts outcomeOf)", () => {
    for (const runs of byTriple(state.runs[ORGS.acme.publicId]).values()) {
      runs.forEach((run, k) => {
        if (run.status === 'running' || run.status === 'queued') return
        expect({outcome: run.status, score: run.score}).toEqual(seededOutcome(run, k))
        expect(outcomeOf(run, k)).toEqual(seededOutcome(run, k))
      })
    }
  })

  it('a triple the seed does not name gets a profile of its own, fixed by the triple', () => {
    const other = {evalSetId: 'es_new', agent: 'codex', model: 'gpt-5'}
    expect(profileOf(other)).toEqual(profileOf({...other}))
    expect(TRIPLE_PROFILES.has(tripleKey(other))).toBe(false)
    expect(profileOf({...other, evalSetId: 'es_acme_checkout'})).toBe(
      TRIPLE_PROFILES.get(tripleKey({...other, evalSetId: 'es_acme_checkout'})),
    )
  })
})
