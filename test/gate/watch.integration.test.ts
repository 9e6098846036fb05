import {isDeepStrictEqual} from 'node:util'
import {describe, expect, it} from 'vitest'
import {normalDraws} from '../../bench/random.mjs'
import type {Run} from '../../src/contract/types.js'
import type {PollResult} from '../../src/gate/poll.js'
import {groupLabel, type HistoryBaseline, isSample, type RunVerdict} from '../../src/gate/rules.js'
import type {WatchState} from '../../src/gate/state.js'
import {loadQuantile, type Quantile} from '../../src/gate/stats.js'
import {judgeGroup} from '../../src/gate/verdict.js'
import {type WatchOptions, watchRuns} from '../../src/gate/watch.js'
import {worded} from '../../src/gate/words.js'
import {fakeClock} from '../helpers/fake-clock.js'

// A wait of 10,000 groups at full size (issue 37 item 11): a capacity check, so in the integration
// project. Each group's judgement is kept until a poll changes its runs (src/gate/state.ts); this
// holds the kept judgements to fresh ones after every poll, and counts the judgements made through
// the t quantile the rules hand the judge (two a group judged against its history), with no clock
// of the machine's.

const GROUPS = 10_000
const PER_GROUP = 2
/** Poll 1 finds every run queued; polls 2–6 each finish a fifth of them. */
const POLLS = 6
const CREATED = '2026-01-01T00:00:00Z'

const draws = normalDraws(4242)
const two = (x: number) => Math.min(1, Math.max(0, Math.round(x * 100) / 100))

/** Each group's target and its history of 20 runs (its own mean and sd; some failed), by group ID. */
function step(): {runs: Run[]; baselines: Map<string, HistoryBaseline>} {
  const runs: Run[] = []
  const baselines = new Map<string, HistoryBaseline>()
  for (let g = 0; g < GROUPS; g++) {
    const sd = 0.02 + 0.02 * Math.abs(draws())
    const scores = Array.from({length: 20}, () => two(0.7 + sd * draws()))
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length
    const spread = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (scores.length - 1))
    const failed = g % 3
    const target = {evalSetId: 'es_big', agent: `agent_${g}`, model: 'm'}
    // one group in 7 dropped by 0.08 (few of them beyond the margin of 10,000 comparisons); one run in 15 failed
    const drop = g % 7 === 0 ? 0.08 : 0
    for (let r = 0; r < PER_GROUP; r++) {
      const fails = (g * PER_GROUP + r) % 15 === 0
      runs.push({
        id: `run_${g}_${r}`,
        status: fails ? 'failed' : 'succeeded',
        score: fails ? null : two(0.7 - drop + sd * draws()),
        batchId: null,
        forkedFrom: null,
        createdAt: CREATED,
        ...target,
      } as Run)
    }
    baselines.set(groupLabel(target as Run), {
      kind: 'history',
      runs: scores.length,
      mean,
      sd: spread,
      window: null,
      runIds: scores.map((_, i) => `base_${g}_${i}`),
      scores,
      times: scores.map(() => CREATED),
      outliers: [],
      outcomes: {failed, cancelled: 0, finished: scores.length + failed, runs: []},
    })
  }
  return {runs, baselines}
}

describe('a wait of 10,000 groups', () => {
  it('judges each group again only when a poll changed its runs, with the verdicts of fresh judgements after every poll', async () => {
    const {runs, baselines} = step()
    const t: Quantile = await loadQuantile()
    let asked = 0
    const options: WatchOptions = {
      intervalS: 10,
      timeoutS: 0,
      failFast: false,
      grouped: true,
      asGroups: true,
      baseline: {kind: 'history', windowS: 0, runs: 20, confidence: 0.95},
      quantile: (p, df) => {
        asked++
        return t(p, df)
      },
    }
    const byId = new Map(runs.map((run, index) => [run.id, {run, index}]))
    const poll = async (pending: ReadonlySet<string>, number: number): Promise<PollResult> => {
      const found = new Map<string, Run>()
      for (const id of pending) {
        const {run, index} = byId.get(id) as {run: Run; index: number}
        found.set(id, number >= 2 && index % (POLLS - 1) <= number - 2 ? run : {...run, status: 'queued', score: null})
      }
      return {found, missing: [], pages: 1}
    }
    const mismatched: string[] = []
    const finishedGroups: number[] = []
    const check = (state: WatchState) => {
      // every run's verdict read, as the live view reads them at each redraw
      for (const w of state.entries()) state.runVerdict(w)
      const comparisons = state.groups().filter((g) => isSample(g.baseline)).length
      const fresh = {...state.rules, quantile: t}
      let finished = 0
      for (const group of state.groups()) {
        const kept = state.judge(group)
        if (kept.decided) finished++
        const made = worded(judgeGroup({rules: fresh, group, runs: state.runsOf(group), comparisons}))
        if (!isDeepStrictEqual(kept, made)) mismatched.push(group.id)
      }
      finishedGroups.push(finished)
    }
    const clock = fakeClock()
    const outcome = await watchRuns(
      runs.map((run) => run.id),
      options,
      {
        poll,
        baselines: async () => ({found: baselines}),
        listName: 'the runs of acme',
        clock,
        // (the fresh judgements ask the quantile that is not counted)
        onPoll: check,
      },
    )
    expect(outcome).toMatchObject({end: 'not-passed', polls: POLLS})
    expect(mismatched).toEqual([])
    // groups finish over the polls: none at the first, all at the last
    expect(finishedGroups[0]).toBe(0)
    expect(finishedGroups.at(-1)).toBe(GROUPS)
    expect(new Set(finishedGroups).size).toBeGreaterThan(2)
    const verdicts = new Map<RunVerdict, number>()
    for (const {judgement} of outcome.state.judged()) verdicts.set(judgement.verdict, (verdicts.get(judgement.verdict) ?? 0) + 1)
    expect([...verdicts.keys()].sort()).toEqual(['passed', 'regressed'])
    expect(verdicts.get('regressed')).toBeGreaterThan(GROUPS / 200)
    // each group was judged against its history once, when its last run finished: two quantiles
    // (its margin and what it could detect), where judging every group after each poll asks them
    // for every finished group at every poll, and again for every read
    expect(asked).toBeLessThanOrEqual(2 * GROUPS)
    expect(asked).toBeGreaterThan(GROUPS)
  })
})
