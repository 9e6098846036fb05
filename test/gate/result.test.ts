import {describe, expect, it} from 'vitest'
import {buildResult} from '../../src/gate/result.js'
import type {FinalOutcome} from '../../src/gate/watch.js'
import {WatchState} from '../../src/gate/state.js'
import {runAt} from '../helpers/pages.js'

// The gate's result: the wait's last state, judged, as typed data for every output.

const CREATED = Date.parse('2026-11-25T09:00:00.000Z')
const WALL_START = CREATED + 60_000 // the wait began a minute after the launch

function outcome(state: WatchState, end: FinalOutcome['end'], endedAt = 30_000): FinalOutcome {
  return {end, state, startedAt: 0, endedAt, polls: 3, timeoutS: 1800}
}

describe('buildResult', () => {
  it('time: from createdAt to when the wait saw the run finish (wall clock), or to the end of the wait', () => {
    const state = new WatchState(['done', 'slow'], {failFast: false})
    const created = new Date(CREATED).toISOString()
    state.apply(
      new Map([
        ['done', runAt('done', created)],
        ['slow', runAt('slow', created, {status: 'running'})],
      ]),
      12_500,
    )
    const report = buildResult(outcome(state, 'timeout'), {org: 'acme', host: 'h', wallStart: WALL_START})
    expect(report.runs.map((r) => [r.id, r.outcome, r.seconds])).toEqual([
      ['done', 'passed', 72.5],
      ['slow', 'skipped', 90],
    ])
    expect(report.runs[1].skipped).toBe('not finished within --wait-timeout 30m (running)')
    expect(report.rules).toEqual({minScore: undefined, maxDrop: undefined, baseline: undefined, baselineWindowS: undefined, timeoutS: 1800})
  })

  it("an interrupted wait names its signal: the report's `signal` and each unfinished run's reason (Ctrl-C, SIGTERM)", () => {
    const state = new WatchState(['slow'], {failFast: false})
    state.apply(new Map([['slow', runAt('slow', new Date(CREATED).toISOString(), {status: 'running'})]]), 1000)
    for (const [signal, words] of [
      ['SIGINT', 'Ctrl-C'],
      ['SIGTERM', 'SIGTERM'],
    ] as const) {
      const report = buildResult({...outcome(state, 'interrupted'), signal}, {org: 'acme', host: 'h', wallStart: WALL_START})
      expect(report.signal).toBe(signal)
      expect(report.runs[0].skipped).toBe(`not finished when the wait was interrupted (${words}) (running)`)
    }
    expect(buildResult(outcome(state, 'timeout'), {org: 'acme', host: 'h', wallStart: WALL_START})).not.toHaveProperty('signal')
  })

  it('failures carry the rule; runs never found take the launched eval set; baselines and deltas only with --baseline', () => {
    const state = new WatchState(['low', 'lost'], {failFast: true, minScore: 0.6, baseline: {kind: 'previous', windowS: 3600}})
    state.apply(new Map([['low', runAt('low', new Date(CREATED).toISOString(), {score: 0.5})]]), 1000)
    state.setBaselines(new Map([['low', {runId: 'b', score: 0.7}]]))
    const report = buildResult(outcome(state, 'not-passed'), {org: 'acme', host: 'h', wallStart: WALL_START, evalSetId: 'es_x'})
    expect(report.runs[0]).toMatchObject({
      verdict: 'below-min-score',
      outcome: 'failed',
      failure: {rule: 'min-score', reason: 'scored 0.5 (below 0.6)'},
      baseline: {runId: 'b', score: 0.7},
      delta: -0.2,
    })
    expect(report.runs[1]).toMatchObject({
      id: 'lost',
      evalSetId: 'es_x',
      status: null,
      seconds: null,
      outcome: 'skipped',
      skipped: 'not finished when the wait stopped at the first run that did not pass (--fail-fast) (not found yet)',
      baseline: null,
      delta: null,
    })
    expect(report.rules).toMatchObject({baseline: 'previous', baselineWindowS: 3600, minScore: 0.6})
  })
})
