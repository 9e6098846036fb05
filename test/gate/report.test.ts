import {mkdirSync, symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {buildReport, checkReportPaths} from '../../src/gate/report.js'
import {tempDir} from '../helpers/temp.js'
import type {FinalOutcome} from '../../src/gate/watch.js'
import {WatchState} from '../../src/gate/state.js'
import {runAt} from '../helpers/pages.js'

// What the CI reports are built from: the wait's last state, as typed data for the renderers.

const CREATED = Date.parse('2026-11-25T09:00:00.000Z')
const WALL_START = CREATED + 60_000 // the wait began a minute after the launch

function outcome(state: WatchState, end: FinalOutcome['end'], endedAt = 30_000): FinalOutcome {
  return {end, state, startedAt: 0, endedAt, polls: 3, timeoutS: 1800}
}

describe('buildReport', () => {
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
    const report = buildReport(outcome(state, 'timeout'), {org: 'acme', host: 'h', wallStart: WALL_START})
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
      const report = buildReport({...outcome(state, 'interrupted'), signal}, {org: 'acme', host: 'h', wallStart: WALL_START})
      expect(report.signal).toBe(signal)
      expect(report.runs[0].skipped).toBe(`not finished when the wait was interrupted (${words}) (running)`)
    }
    expect(buildReport(outcome(state, 'timeout'), {org: 'acme', host: 'h', wallStart: WALL_START})).not.toHaveProperty('signal')
  })

  it('failures carry the rule; runs never found take the launched eval set; baselines and deltas only with --baseline', () => {
    const state = new WatchState(['low', 'lost'], {failFast: true, minScore: 0.6, baseline: {kind: 'previous', windowS: 3600}})
    state.apply(new Map([['low', runAt('low', new Date(CREATED).toISOString(), {score: 0.5})]]), 1000)
    state.setBaselines(new Map([['low', {runId: 'b', score: 0.7}]]))
    const report = buildReport(outcome(state, 'not-passed'), {org: 'acme', host: 'h', wallStart: WALL_START, evalSetId: 'es_x'})
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

describe('checkReportPaths: one file through a link is one file (issue 32 item 7)', () => {
  const check = (junit: string, summary?: string) => () => checkReportPaths({junit, summary, annotations: false})
  const SAME = /^--junit .* and --summary .* are the same file; give two different files$/

  it('a link not yet pointing at an existing file: the file it would make is the other path', () => {
    const dir = tempDir('amctl-report-paths-')
    symlinkSync(join(dir, 'a.xml'), join(dir, 'absolute.md'))
    symlinkSync('a.xml', join(dir, 'relative.md'))
    symlinkSync('relative.md', join(dir, 'chain.md'))
    for (const link of ['absolute.md', 'relative.md', 'chain.md']) {
      expect(check(join(dir, 'a.xml'), join(dir, link)), link).toThrow(SAME)
      expect(check(join(dir, link), join(dir, 'a.xml')), link).toThrow(SAME)
    }
  })

  it("a link's relative target is read from the link's real directory, as the kernel reads it", () => {
    const dir = tempDir('amctl-report-paths-')
    mkdirSync(join(dir, 'real'))
    mkdirSync(join(dir, 'x'))
    symlinkSync(join(dir, 'real'), join(dir, 'x', 'alias'))
    // x/alias/l.md is real/l.md → real/../t.xml, the t.xml beside real/ (not beside alias)
    symlinkSync('../t.xml', join(dir, 'real', 'l.md'))
    expect(check(join(dir, 't.xml'), join(dir, 'x', 'alias', 'l.md'))).toThrow(SAME)
  })

  it('a link to a missing file alone: exit 2 up front (the atomic write would refuse it at the end)', () => {
    const dir = tempDir('amctl-report-paths-')
    symlinkSync(join(dir, 'gone', 'a.xml'), join(dir, 'link.xml'))
    expect(check(join(dir, 'link.xml'))).toThrow(
      `--junit ${join(dir, 'link.xml')} is a symbolic link to a missing file (${join(dir, 'gone', 'a.xml')})`,
    )
  })

  it('two files, linked or not, are two files', () => {
    const dir = tempDir('amctl-report-paths-')
    symlinkSync(join(dir, 'real'), join(dir, 'alias'))
    mkdirSync(join(dir, 'real'))
    expect(check(join(dir, 'alias', 'a.xml'), join(dir, 'real', 'a.md'))).not.toThrow()
    expect(check(join(dir, 'j.xml'), join(dir, 's.md'))).not.toThrow()
  })
})
