import {describe, expect, it} from 'vitest'
import {isFinished, scoreDelta, shortfall, WatchState} from '../../src/gate/state.js'
import type {Run} from '../../src/contract/types.js'

const CREATED = '2026-01-01T00:00:00Z'
const run = (id: string, status: unknown, score: number | null = null): Run =>
  ({id, status, evalSetId: null, batchId: null, createdAt: CREATED, forkedFrom: null, agent: null, model: null, score}) as Run

const found = (...runs: Run[]) => new Map(runs.map((r) => [r.id, r]))

/** Feeds the statuses of one run poll by poll; returns the verdict after each. */
function sequence(statuses: unknown[], rules = {failFast: false}): Array<string | undefined> {
  const state = new WatchState(['r1'], rules)
  return statuses.map((status, i) => {
    state.apply(found(run('r1', status, status === 'succeeded' ? 0.9 : null)), i * 1000)
    return state.verdict()
  })
}

describe('run statuses (contract 5)', () => {
  it.each([
    ['succeeded', true],
    ['failed', true],
    ['cancelled', true],
    ['queued', false],
    ['running', false],
    ['paused', false],
    ['SUCCEEDED', false],
    ['', false],
    [null, false],
    [42, false],
  ])('%j finished: %s', (status, finished) => {
    expect(isFinished(run('r', status))).toBe(finished)
  })
})

describe('the wait state machine', () => {
  it.each([
    [
      ['queued', 'running', 'succeeded'],
      [undefined, undefined, 'passed'],
    ],
    [
      ['queued', 'succeeded'],
      [undefined, 'passed'],
    ],
    [['succeeded'], ['passed']],
    [
      ['queued', 'running', 'failed'],
      [undefined, undefined, 'not-passed'],
    ],
    [
      ['running', 'cancelled'],
      [undefined, 'not-passed'],
    ],
    [
      ['queued', 'paused', 'running', 'succeeded'],
      [undefined, undefined, undefined, 'passed'],
    ],
    [
      ['queued', 'queued', 'queued'],
      [undefined, undefined, undefined],
    ],
    // a finished run is final: what a later poll says of it is not read
    [
      ['succeeded', 'failed'],
      ['passed', 'passed'],
    ],
    [
      ['failed', 'running', 'succeeded'],
      ['not-passed', 'not-passed', 'not-passed'],
    ],
  ])('%j → %j', (statuses, verdicts) => {
    expect(sequence(statuses)).toEqual(verdicts)
  })

  it('reports each status change once, with where it came from; the first sighting has no "from"', () => {
    const state = new WatchState(['r1', 'r2'], {failFast: false})
    expect(state.apply(found(run('r1', 'queued'), run('r2', 'running')), 0)).toEqual([
      {id: 'r1', from: undefined, to: 'queued', run: run('r1', 'queued')},
      {id: 'r2', from: undefined, to: 'running', run: run('r2', 'running')},
    ])
    expect(state.apply(found(run('r1', 'queued'), run('r2', 'running', 0.3)), 1000)).toEqual([])
    expect(state.runs()[1].score).toBe(0.3) // the last known state is kept even without a change
    const changes = state.apply(found(run('r1', 'weird-state'), run('r2', 'succeeded', 0.5)), 2000)
    expect(changes.map((c) => `${c.id} ${c.from} → ${c.to}`)).toEqual(['r1 queued → weird-state', 'r2 running → succeeded'])
  })

  it('pending holds the runs not finished, unknown statuses included', () => {
    const state = new WatchState(['r1', 'r2', 'r3'], {failFast: false})
    expect(state.pending()).toEqual(new Set(['r1', 'r2', 'r3']))
    state.apply(found(run('r1', 'succeeded'), run('r2', 'mystery'), run('r3', 'cancelled')), 0)
    expect(state.pending()).toEqual(new Set(['r2']))
    expect(state.unfinished().map((w) => w.id)).toEqual(['r2'])
  })

  it('keeps the order given, and knows which runs were finished before the watch found them', () => {
    const state = new WatchState(['r2', 'r1'], {failFast: false})
    state.apply(found(run('r1', 'succeeded'), run('r2', 'running')), 500)
    state.apply(found(run('r2', 'failed')), 9000)
    expect(state.runs().map((r) => r.id)).toEqual(['r2', 'r1'])
    expect(state.entries()).toMatchObject([
      {id: 'r2', finishedAt: 9000, finishedBefore: false},
      {id: 'r1', finishedAt: 500, finishedBefore: true},
    ])
    expect(state.failures()).toEqual([{id: 'r2', rule: 'status', reason: 'failed'}])
  })

  it('without --fail-fast, a failed run waits for the others; with it, the wait ends at once', () => {
    for (const [failFast, verdict] of [
      [false, undefined],
      [true, 'not-passed'],
    ] as const) {
      const state = new WatchState(['r1', 'r2'], {failFast})
      state.apply(found(run('r1', 'failed'), run('r2', 'running')), 0)
      expect(state.verdict()).toBe(verdict)
    }
    const cancelled = new WatchState(['r1', 'r2'], {failFast: true})
    cancelled.apply(found(run('r1', 'running'), run('r2', 'cancelled')), 0)
    expect(cancelled.verdict()).toBe('not-passed')
    const fine = new WatchState(['r1', 'r2'], {failFast: true})
    fine.apply(found(run('r1', 'succeeded'), run('r2', 'running')), 0)
    expect(fine.verdict()).toBeUndefined()
  })

  it('--min-score: a succeeded run below X or without a score does not pass; X itself passes', () => {
    const state = new WatchState(['low', 'none', 'exact', 'high'], {failFast: false, minScore: 0.5})
    state.apply(
      found(run('low', 'succeeded', 0.49), run('none', 'succeeded', null), run('exact', 'succeeded', 0.5), run('high', 'succeeded', 1)),
      0,
    )
    expect(state.verdict()).toBe('not-passed')
    expect(state.failures()).toEqual([
      {id: 'low', rule: 'min-score', reason: 'scored 0.49 (below 0.5)'},
      {id: 'none', rule: 'min-score', reason: 'succeeded without a score (--min-score 0.5)'},
    ])
    const ok = new WatchState(['exact'], {failFast: false, minScore: 0.5})
    ok.apply(found(run('exact', 'succeeded', 0.5)), 0)
    expect(ok.verdict()).toBe('passed')
  })

  it('--fail-fast with --min-score ends at the first succeeded run below X', () => {
    const state = new WatchState(['r1', 'r2'], {failFast: true, minScore: 0.8})
    state.apply(found(run('r1', 'succeeded', 0.7), run('r2', 'queued')), 0)
    expect(state.verdict()).toBe('not-passed')
  })

  it('shortfall: why a finished run did not pass', () => {
    expect(shortfall(run('r', 'failed'), {})).toEqual({rule: 'status', reason: 'failed'})
    expect(shortfall(run('r', 'cancelled'), {minScore: 0.1})).toEqual({rule: 'status', reason: 'cancelled'})
    expect(shortfall(run('r', 'succeeded', null), {})).toBeUndefined()
    expect(shortfall(run('r', 'succeeded', 0), {minScore: 0})).toBeUndefined()
  })
})

describe('WatchState: the regression gate (--baseline, --max-drop)', () => {
  const previous = {kind: 'previous', windowS: 30 * 86_400} as const
  const base = (runId: string, score: number) => ({runId, score})

  it('a drop of more than --max-drop below the baseline does not pass; exactly --max-drop does (0.8 - 0.7 is 0.1)', () => {
    const state = new WatchState(['drop', 'edge', 'up'], {failFast: false, baseline: previous, maxDrop: 0.1})
    state.apply(found(run('drop', 'succeeded', 0.61), run('edge', 'succeeded', 0.7), run('up', 'succeeded', 0.95)), 0)
    expect(state.needsBaselines()).toBe(true)
    state.setBaselines(
      new Map([
        ['drop', base('b1', 0.88)],
        ['edge', base('b2', 0.8)],
        ['up', base('b3', 0.5)],
      ]),
    )
    expect(state.needsBaselines()).toBe(false)
    expect(state.verdict()).toBe('not-passed')
    expect(state.failures()).toEqual([{id: 'drop', rule: 'max-drop', reason: 'scored 0.61, 0.27 below baseline b1 (0.88; --max-drop 0.1)'}])
  })

  it('a run without a baseline is not held to --max-drop; one without a score is, when its baseline has one', () => {
    const state = new WatchState(['orphan', 'blank'], {failFast: false, baseline: previous, maxDrop: 0})
    state.apply(found(run('orphan', 'succeeded', 0.1), run('blank', 'succeeded', null)), 0)
    state.setBaselines(new Map([['blank', base('b1', 0.5)]]))
    expect(state.entries().map((w) => w.baseline)).toEqual([null, base('b1', 0.5)])
    expect(state.failures()).toEqual([
      {id: 'blank', rule: 'max-drop', reason: 'succeeded without a score, baseline b1 (0.5; --max-drop 0)'},
    ])
  })

  it('--min-score is judged before --max-drop; a failed run fails on its status whatever its baseline', () => {
    const state = new WatchState(['low', 'bad'], {failFast: false, minScore: 0.5, baseline: previous, maxDrop: 0.05})
    state.apply(found(run('low', 'succeeded', 0.2), run('bad', 'failed', 0.9)), 0)
    state.setBaselines(
      new Map([
        ['low', base('b1', 0.9)],
        ['bad', base('b2', 0.1)],
      ]),
    )
    expect(state.failures().map((f) => f.rule)).toEqual(['min-score', 'status'])
  })

  it('--baseline RUN_ID: every run gets that baseline, without a lookup', () => {
    const state = new WatchState(['a', 'b'], {failFast: false, baseline: {kind: 'run', baseline: base('fixed', 0.9)}, maxDrop: 0.2})
    state.apply(found(run('a', 'succeeded', 0.75), run('b', 'succeeded', 0.65)), 0)
    state.setBaselines(new Map())
    expect(state.entries().map((w) => w.baseline?.runId)).toEqual(['fixed', 'fixed'])
    expect(state.failures().map((f) => f.id)).toEqual(['b'])
  })

  it('scoreDelta: score minus the baseline, rounded (no 0.10000000000000009); null without either score', () => {
    expect(scoreDelta(run('r', 'succeeded', 0.8), base('b', 0.7))).toBe(0.1)
    expect(scoreDelta(run('r', 'succeeded', 0.3), base('b', 0.5))).toBe(-0.2)
    expect(scoreDelta(run('r', 'succeeded', null), base('b', 0.5))).toBeNull()
    expect(scoreDelta(run('r', 'succeeded', 0.3), null)).toBeNull()
  })
})
