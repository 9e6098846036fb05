import {describe, expect, it} from 'vitest'
import type {Run} from '../../src/contract/types.js'
import {tripleKey} from '../../src/devserver/history.js'
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

  it('gives each eval set × agent × model its own mean and noise: steady, noisy and flaky ones, each close to its profile', () => {
    const groups = byTriple(finished)
    expect([...groups.keys()].sort()).toEqual([...TRIPLE_PROFILES.keys()].sort())
    expect(new Set([...TRIPLE_PROFILES.values()].map((p) => p.kind))).toEqual(new Set(['steady', 'noisy', 'flaky']))
    const means = new Set<number>()
    for (const [key, runs] of groups) {
      const profile = TRIPLE_PROFILES.get(key)!
      const scores = runs.filter((run) => run.status === 'succeeded').map((run) => run.score as number)
      const {mean, sd} = meanSd(scores)
      expect(runs.length, key).toBeGreaterThanOrEqual(37)
      // the observed history is within two standard errors of its true mean, and its spread within 20 % of the true one
      expect(Math.abs(mean - profile.mean), key).toBeLessThan((2 * profile.sd) / Math.sqrt(scores.length))
      expect(sd / profile.sd, key).toBeGreaterThan(0.8)
      expect(sd / profile.sd, key).toBeLessThan(1.2)
      const failed = runs.filter((run) => run.status === 'failed').length / runs.length
      if (profile.kind === 'flaky') {
        expect(failed, key).toBeGreaterThanOrEqual(0.1)
        expect(failed, key).toBeLessThanOrEqual(0.2)
      } else expect(failed, key).toBeLessThanOrEqual(0.05)
      if (profile.kind === 'steady') expect(sd, key).toBeLessThan(0.03)
      if (profile.kind === 'noisy') expect(sd, key).toBeGreaterThan(0.06)
      means.add(profile.mean)
    }
    expect(means.size).toBe(groups.size)
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
