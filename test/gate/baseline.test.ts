import {describe, expect, it} from 'vitest'
import {findBaselineRun, findBaselines, lookUpBaselines} from '../../src/gate/baseline.js'
import {WatchState} from '../../src/gate/state.js'
import {loadQuantile} from '../../src/gate/stats.js'
import type {Run} from '../../src/contract/types.js'
import {countedPages, runAt} from '../helpers/pages.js'

const DAY = 86_400
const at = (day: number) => new Date(Date.UTC(2026, 10, day)).toISOString()
const run = (id: string, day: number, fields: Partial<Run> = {}): Run => runAt(id, at(day), fields)

/** One run per page, newest first, counting the pages requested. */
const list = (runs: Run[]) => countedPages(runs.map((r) => [r]))

describe('findBaselines (--baseline previous)', () => {
  it('the newest earlier run of the same eval set, agent and model that succeeded with a score; stops once all are found', async () => {
    const watched = [run('w1', 20, {score: null, status: 'running'}), run('w2', 20, {agent: 'b', status: 'queued', score: null})]
    const src = list([
      watched[0],
      watched[1],
      run('other-model', 19, {model: 'x'}),
      run('failed', 18, {status: 'failed', score: 0.9}),
      run('no-score', 17, {score: null}),
      run('base1', 16, {score: 0.8}),
      run('base2', 15, {agent: 'b', score: 0.7}),
      run('older1', 14, {score: 0.1}),
      run('never-read', 13),
    ])
    const found = await findBaselines(src.pages, watched, 30 * DAY)
    expect(Object.fromEntries(found)).toEqual({w1: {runId: 'base1', score: 0.8}, w2: {runId: 'base2', score: 0.7}})
    expect(src.requested()).toBe(7)
  })

  it('only runs created before the watched run; watched runs are never baselines of each other', async () => {
    const watched = [run('new', 20), run('old', 10)]
    const src = list([run('later', 21, {score: 0.9}), watched[0], watched[1], run('base', 5, {score: 0.6})])
    const found = await findBaselines(src.pages, watched, 0)
    expect(Object.fromEntries(found)).toEqual({new: {runId: 'base', score: 0.6}, old: {runId: 'base', score: 0.6}})
  })

  it('stops at the first page older than the oldest watched run minus the window: no baseline beyond it', async () => {
    const watched = [run('w', 20, {status: 'running', score: null})]
    const src = list([watched[0], run('x', 14, {model: 'other'}), run('too-old', 12, {score: 0.9}), run('never-read', 10)])
    const found = await findBaselines(src.pages, watched, 7 * DAY)
    expect(found.size).toBe(0)
    expect(src.requested()).toBe(3)
  })

  it.each([
    ['a score that is a string', {score: '0.9'}],
    ['a score of true', {score: true}],
    ['a score that is an object', {score: {}}],
    ['a score above 1', {score: 5}],
    ['a negative score', {score: -0.1}],
    ['a createdAt that is not a date', {createdAt: 'yesterday'}],
  ])(
    'a candidate of the same eval set, agent and model with %s is a bad answer (exit 1), never "no baseline" (issue 26 item 2)',
    async (_, bad) => {
      const watched = [run('w', 20, {status: 'running', score: null})]
      const src = list([watched[0], run('bad', 19, bad as Partial<Run>), run('fine', 18, {score: 0.7})])
      await expect(findBaselines(src.pages, watched, 30 * DAY)).rejects.toMatchObject({code: 'bad_response', exitCode: 1})
    },
  )
})

describe('findBaselineRun (--baseline RUN_ID)', () => {
  it('the run and its score, read no further than it', async () => {
    const src = list([run('a', 3), run('b', 2, {score: 0.42}), run('c', 1)])
    expect(await findBaselineRun(src.pages, 'b', 'the runs of acme')).toEqual({runId: 'b', score: 0.42})
    expect(src.requested()).toBe(2)
  })

  it('exit 5 when the whole list does not hold it; exit 2 when it did not succeed with a score', async () => {
    await expect(findBaselineRun(list([run('a', 1)]).pages, 'zz', 'the runs of acme')).rejects.toMatchObject({
      exitCode: 5,
      message: '--baseline: run "zz" is not among the runs of acme',
    })
    await expect(findBaselineRun(list([run('f', 1, {status: 'failed'})]).pages, 'f', 'x')).rejects.toMatchObject({
      exitCode: 2,
      message: '--baseline f cannot be a baseline: its status is failed; a baseline is a run that succeeded with a score',
    })
    await expect(findBaselineRun(list([run('n', 1, {score: null})]).pages, 'n', 'x')).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('it succeeded without a score'),
    })
  })
})

describe('a run listed more than once counts once (issue 32 item 3)', () => {
  const history = async (pages: Run[][]) => {
    const state = new WatchState(['w'], {
      failFast: false,
      baseline: {kind: 'history', windowS: 30 * DAY, runs: 20, confidence: 0.95},
      quantile: await loadQuantile(),
    })
    const watched = run('w', 20, {status: 'running', score: null})
    state.apply(new Map([['w', watched]]), 0)
    return lookUpBaselines(countedPages([[watched], ...pages]).pages, state)
  }

  it('--baseline history: one earlier run listed five times (a server repeating items) is a history of one run, no baseline', async () => {
    const h1 = run('h1', 19, {score: 0.7})
    const lookup = await history([[h1, h1], [h1], [h1, h1]])
    expect(lookup.found.size).toBe(0)
    expect(Object.fromEntries(lookup.historyFound ?? [])).toEqual({w: 1})
  })

  it('--baseline history: pages that overlap while the list grows count each run once, in order', async () => {
    const [h4, h3, h2, h1] = [
      run('h4', 19, {score: 0.74}),
      run('h3', 18, {score: 0.7}),
      run('h2', 17, {score: 0.72}),
      run('h1', 16, {score: 0.68}),
    ]
    const lookup = await history([[h4, h3], [h3, h2], [h2, h1], [h1]])
    expect(lookup.found.get('w')).toMatchObject({
      kind: 'history',
      runs: 4,
      runIds: ['h1', 'h2', 'h3', 'h4'],
      scores: [0.68, 0.72, 0.7, 0.74],
    })
  })

  it('--baseline history --baseline-runs 3: a repeated run does not fill the history early', async () => {
    const state = new WatchState(['w'], {
      failFast: false,
      baseline: {kind: 'history', windowS: 0, runs: 3, confidence: 0.95},
      quantile: await loadQuantile(),
    })
    const watched = run('w', 20, {status: 'running', score: null})
    state.apply(new Map([['w', watched]]), 0)
    const [h3, h2, h1] = [run('h3', 19, {score: 0.7}), run('h2', 18, {score: 0.72}), run('h1', 17, {score: 0.68})]
    const lookup = await lookUpBaselines(
      countedPages([
        [watched, h3],
        [h3, h3],
        [h2, h1],
      ]).pages,
      state,
    )
    expect(lookup.found.get('w')).toMatchObject({runs: 3, runIds: ['h1', 'h2', 'h3']})
  })

  it('--baseline previous: the same run found twice is one baseline', async () => {
    const watched = [run('w', 20, {status: 'running', score: null})]
    const found = await findBaselines(
      countedPages([[watched[0], run('b', 19, {score: 0.6})], [run('b', 19, {score: 0.6})]]).pages,
      watched,
      0,
    )
    expect(Object.fromEntries(found)).toEqual({w: {runId: 'b', score: 0.6}})
  })
})
