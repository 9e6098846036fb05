import {beforeAll, expect, it} from 'vitest'
import {normalDraws} from '../../bench/random.mjs'
import type {Run} from '../../src/contract/types.js'
import {type ReadBaseline, updateBaselineFile} from '../../src/gate/baseline-file.js'
import {loadVerdictDistributions, type NormalQuantile} from '../../src/gate/stats.js'
import {baselineChanges} from '../../src/gate/update.js'

// What --update-baseline says of groups that did not change (issue 35 §3): on seeded noise, how
// often an update warns that a group's level moved or that it fails more. A check at full size
// (thousands of updates through the real file update), so beside the unit tests of
// ./update.test.ts; the figures of docs/ci.md ("--update-baseline") come from the same loop.

let normalQuantile: NormalQuantile
beforeAll(async () => {
  normalQuantile = (await loadVerdictDistributions()).normalQuantile
})

const NOW = Date.parse('2026-11-05T00:00:00.000Z')
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString()
const GROUPS = [
  // the dev server's rates (docs/dev-server.md): claude-code fails 2 % of its runs, codex 15 %
  {agent: 'claude-code', model: 'claude-sonnet-4-5', rate: 0.02, mean: 0.84, sd: 0.02},
  {agent: 'codex', model: 'gpt-5', rate: 0.15, mean: 0.72, sd: 0.04},
]
type Said = {level: number; failures: number}

/**
 * A file of `keep` runs a group, then `pushes` updates of one run a group, every outcome and score
 * drawn from `seed` (a failure: a normal draw below the rate's quantile; a score N(mean, sd), 2
 * decimals); for each group, how many of the updates said its level moved and how many that it
 * fails more, at 0.95.
 */
function unchanged(seed: number, keep: number, pushes: number): Map<string, Said> {
  const z = normalDraws(seed)
  const draw = (g: (typeof GROUPS)[number], id: string, minute: number): Run => {
    const failed = z() < normalQuantile(g.rate)
    const score = Math.min(1, Math.max(0, Math.round((g.mean + g.sd * z()) * 100) / 100))
    return {
      id,
      status: failed ? 'failed' : 'succeeded',
      evalSetId: 'es_1',
      batchId: 'b',
      createdAt: at(minute),
      forkedFrom: null,
      agent: g.agent,
      model: g.model,
      score: failed ? null : score,
    } as Run
  }
  const empty: ReadBaseline = {file: {version: 2, org: 'acme', evalSetId: 'es_1', savedAt: at(0), keep, groups: []}, outcomes: true}
  const first = GROUPS.flatMap((g) => Array.from({length: keep}, (_, i) => draw(g, `${g.agent}_f${i}`, i)))
  let read: ReadBaseline = {file: updateBaselineFile(empty, first, at(0), NOW).file, outcomes: true}
  const said = new Map(GROUPS.map((g): [string, Said] => [`${g.agent} / ${g.model}`, {level: 0, failures: 0}]))
  for (let push = 0; push < pushes; push++) {
    const step = GROUPS.map((g) => draw(g, `${g.agent}_p${push}`, keep + push))
    const {file} = updateBaselineFile(read, step, at(keep + push), NOW)
    for (const change of baselineChanges(read, file, 0.95, normalQuantile))
      (said.get(change.group) as Said)[change.kind === 'level' ? 'level' : 'failures']++
    read = {file, outcomes: true}
  }
  return said
}

it.each([20, 30, 50])(
  'a file of %i runs a group, 100 seeds, 20 pushes of one run: an unchanged group warns on at most 5 % of its updates (each test at 1 − C)',
  (keep) => {
    const total = new Map<string, Said>()
    for (let seed = 0; seed < 100; seed++) {
      for (const [group, said] of unchanged(keep * 1000 + seed, keep, 20)) {
        const sum = total.get(group) ?? {level: 0, failures: 0}
        total.set(group, {level: sum.level + said.level, failures: sum.failures + said.failures})
      }
    }
    for (const [group, {level, failures}] of total) {
      expect(level / 2000, `${group}: level`).toBeLessThanOrEqual(0.05)
      expect(failures / 2000, `${group}: failures`).toBeLessThanOrEqual(0.05)
    }
  },
)
