import {describe, expect, it} from 'vitest'
import {EvalStatsTally, RECENT_IDS, statsColumns} from '../../src/gate/history-stats.js'
import {TREND_LENGTH} from '../../src/output/sparkline.js'
import {type Judge, VERDICT} from '../../src/gate/history-verdict.js'
import type {Run} from '../../src/contract/types.js'
import {BadResponseError} from '../../src/core/errors.js'
import {loadVerdictDistributions} from '../../src/gate/stats.js'
import {tsvRows, ttyCells, ttyColumns} from '../../src/output/format.js'
import {palette} from '../../src/output/style.js'

const NOW = Date.parse('2026-06-01T12:00:00.000Z')
let seq = 0
const judge: Judge = {confidence: 0.95, ...(await loadVerdictDistributions())}

/** A run of es_1 by claude-code / sonnet, `minutesAgo` before NOW. */
function run(fields: Partial<Run> & {minutesAgo?: number} = {}): Run {
  const {minutesAgo = 1, ...rest} = fields
  seq += 1
  return {
    id: `run_${seq}`,
    status: 'succeeded',
    evalSetId: 'es_1',
    batchId: null,
    createdAt: new Date(NOW - minutesAgo * 60_000).toISOString(),
    forkedFrom: null,
    agent: 'claude-code',
    model: 'sonnet',
    score: 0.8,
    ...rest,
  }
}

/** Tallies runs given newest first. */
function tally(runs: Run[], since?: number) {
  const t = new EvalStatsTally('es_1', since)
  for (const r of runs) t.add(r)
  return t.result(since === undefined ? 0 : (NOW - since) / 1000, NOW, judge)
}

describe('EvalStatsTally', () => {
  it("counts each agent × model's runs by status; shares are of the finished runs", () => {
    const stats = tally([
      run({status: 'running', score: null}),
      run({status: 'succeeded', score: 0.9}),
      run({status: 'failed', score: null}),
      run({status: 'cancelled', score: null}),
      run({status: 'succeeded', score: 0.7}),
      run({status: 'paused', score: null}),
    ])
    expect(stats.runs).toBe(6)
    expect(stats.groups).toHaveLength(1)
    expect(stats.groups[0]).toMatchObject({
      agent: 'claude-code',
      model: 'sonnet',
      runs: 6,
      succeeded: 2,
      failed: 1,
      cancelled: 1,
      unfinished: 2,
      share: {succeeded: 0.5, failed: 0.25, cancelled: 0.25},
      scored: 2,
      mean: 0.8,
      sd: 0.141421,
    })
  })

  it('mean and sd are those of the succeeded runs with a score (sample sd, n − 1), as the gate reads a history', () => {
    const scores = [0.61, 0.74, 0.7, 0.69, 0.72]
    const stats = tally([
      ...scores.map((score) => run({score})),
      run({status: 'failed', score: 0.1}),
      run({status: 'succeeded', score: null}),
    ])
    const mean = scores.reduce((a, b) => a + b) / scores.length
    const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (scores.length - 1))
    expect(stats.groups[0]).toMatchObject({succeeded: 6, scored: 5, mean: Number(mean.toFixed(6)), sd: Number(sd.toFixed(6))})
  })

  it('the last score is the newest scored run; the trend holds the newest 20 scores, oldest first', () => {
    const runs = Array.from({length: 30}, (_, i) => run({score: (30 - i) / 100, minutesAgo: i + 1}))
    const stats = tally([run({status: 'failed', score: null, minutesAgo: 0}), ...runs])
    const group = stats.groups[0]
    expect(group.last).toEqual({runId: runs[0].id, score: 0.3, createdAt: runs[0].createdAt})
    expect(group.trend).toHaveLength(TREND_LENGTH)
    expect(group.trend).toEqual(Array.from({length: 20}, (_, i) => (11 + i) / 100))
  })

  it('keeps nothing per run: 100,000 runs leave one group, its trend at 20 scores', () => {
    const t = new EvalStatsTally('es_1', undefined)
    const one = run()
    for (let i = 0; i < 100_000; i++) t.add({...one, id: `r${i}`, score: (i % 100) / 100})
    const [group] = t.result(0, NOW, judge).groups
    expect(group.runs).toBe(100_000)
    expect(group.trend).toHaveLength(TREND_LENGTH)
    expect(group.mean).toBeCloseTo(0.495, 6)
  })

  it('a run listed again within RECENT_IDS runs of its first listing counts once, at either end of a generation', () => {
    for (const before of [0, RECENT_IDS - 1, RECENT_IDS + 7]) {
      const t = new EvalStatsTally('es_1', undefined)
      for (let i = 0; i < before; i++) t.add(run({id: `b${i}`, score: 0.5}))
      t.add(run({id: 'again', score: 0.9}))
      for (let i = 0; i < RECENT_IDS - 1; i++) t.add(run({id: `a${i}`, score: 0.5}))
      t.add(run({id: 'again', score: 0.1, status: 'failed'}))
      const [group] = t.result(0, NOW, judge).groups
      expect([group.runs, group.failed], `after ${before} runs`).toEqual([before + RECENT_IDS, 0])
    }
  })

  it('counts only the eval set, and only runs created at or after the window start', () => {
    const since = NOW - 60 * 60_000
    const stats = tally(
      [
        run({minutesAgo: 10}),
        run({evalSetId: 'es_other', score: 'bad' as unknown as number}),
        run({minutesAgo: 60}),
        run({minutesAgo: 61}),
        run({minutesAgo: 3000, score: 0.1}),
      ],
      since,
    )
    expect(stats.runs).toBe(2)
    expect(stats.window).toEqual({seconds: 3600, since: '2026-06-01T11:00:00.000Z', until: '2026-06-01T12:00:00.000Z'})
    expect(tally([run(), run({minutesAgo: 10 ** 6})]).window).toEqual({seconds: 0, since: null, until: '2026-06-01T12:00:00.000Z'})
  })

  it('answers whether a run, of any eval set, is older than the window: where the newest-first list can stop', () => {
    const t = new EvalStatsTally('es_1', NOW - 60 * 60_000)
    expect(t.add(run({minutesAgo: 10}))).toBe(false)
    expect(t.add(run({minutesAgo: 90, evalSetId: 'es_other'}))).toBe(true)
    expect(t.add(run({minutesAgo: 90}))).toBe(true)
    // another eval set's run without a date is passed over, and does not end the list
    expect(t.add(run({evalSetId: 'es_other', createdAt: 'yesterday'}))).toBe(false)
    expect(new EvalStatsTally('es_1', undefined).add(run({minutesAgo: 10 ** 6}))).toBe(false)
    expect(t.result(3600, NOW, judge).runs).toBe(1)
  })

  it('one group per agent × model, by agent then model, runs without either last', () => {
    const stats = tally([
      run({agent: 'codex', model: 'gpt-5'}),
      run({agent: null, model: null}),
      run({agent: 'claude-code', model: 'sonnet'}),
      run({agent: 'codex', model: 'gpt-4'}),
      run({agent: 'claude-code', model: null}),
    ])
    expect(stats.groups.map((g) => [g.agent, g.model])).toEqual([
      ['claude-code', 'sonnet'],
      ['claude-code', null],
      ['codex', 'gpt-4'],
      ['codex', 'gpt-5'],
      [null, null],
    ])
  })

  it('no finished run: share null; no score: mean, sd and last null, empty trend; one score: sd null', () => {
    const [queued] = tally([run({status: 'queued', score: null})]).groups
    expect(queued).toMatchObject({share: null, scored: 0, mean: null, sd: null, last: null, trend: []})
    expect(tally([run({score: 0.5})]).groups[0]).toMatchObject({scored: 1, mean: 0.5, sd: null})
  })

  it.each([
    [{score: '0.9'}, 'score that is not a number from 0 to 1: "0.9"'],
    [{score: 5}, 'score that is not a number from 0 to 1: 5'],
    [{score: -0.1}, 'score that is not a number from 0 to 1: -0.1'],
    [{score: true}, 'score that is not a number from 0 to 1: true'],
    [{createdAt: 'yesterday'}, 'createdAt that is not a date: "yesterday"'],
    [{agent: 7}, 'agent that is not a string: 7'],
  ])('a run of the eval set with %j is a bad answer (exit 1), never counted', (fields, says) => {
    const bad = run(fields as Partial<Run>)
    const t = new EvalStatsTally('es_1', undefined)
    const error = (() => {
      try {
        t.add(bad)
      } catch (caught) {
        return caught
      }
    })()
    expect(error).toBeInstanceOf(BadResponseError)
    expect((error as BadResponseError).exitCode).toBe(1)
    expect((error as Error).message).toBe(`the server's run "${bad.id}" has a ${says}`)
  })
})

/**
 * Scored runs of one group, given newest first as the list comes: `older` runs at `before`, then
 * `newer` runs at `after`, each ± 0.01 in turn (a little noise, the same every time).
 */
function levels(older: number, before: number, newer: number, after: number): Run[] {
  const scores = [...Array.from({length: older}, () => before), ...Array.from({length: newer}, () => after)]
  return scores
    .map((level, i) => run({score: Math.round((level + (i % 2 === 0 ? 0.01 : -0.01)) * 100) / 100, minutesAgo: scores.length - i}))
    .reverse()
}

describe('EvalStatsTally: the verdicts (./verdict.ts) on the runs of each group', () => {
  it('shifted: the first run of the new level, the mean before and since; the newest first list is read oldest first', () => {
    const runs = levels(24, 0.8, 16, 0.7)
    const [group] = tally(runs).groups
    // runs are newest first: the 16 newest at 0.70, the first of them (the oldest of the 16) is runs[15]
    expect(group.verdict).toBe('shifted')
    expect(group.shift).toEqual({runId: runs[15].id, createdAt: runs[15].createdAt, before: 0.8, after: 0.7, delta: -0.1})
  })

  it('stable: one level within its noise', () => {
    const [group] = tally(levels(20, 0.7, 20, 0.7)).groups
    expect(group).toMatchObject({verdict: 'stable', shift: null})
  })

  it('flaky: more failed runs than one in twenty explains (4 of 20, not 3 of 20); cancelled runs are not failures', () => {
    const steady = levels(8, 0.7, 8, 0.7)
    const failed = (n: number) => Array.from({length: n}, () => run({status: 'failed', score: null}))
    const cancelled = (n: number) => Array.from({length: n}, () => run({status: 'cancelled', score: null}))
    expect(tally([...failed(4), ...steady]).groups[0]).toMatchObject({failed: 4, verdict: 'flaky', shift: null})
    expect(tally([...failed(3), run({status: 'succeeded', score: null}), ...steady]).groups[0]).toMatchObject({
      failed: 3,
      verdict: 'stable',
    })
    expect(tally([...cancelled(10), ...steady]).groups[0]).toMatchObject({cancelled: 10, verdict: 'stable'})
  })

  it('too-few: fewer than 10 scores and not flaky; a group that failed every run is flaky however few', () => {
    expect(tally(levels(5, 0.7, 4, 0.7)).groups[0].verdict).toBe('too-few')
    expect(tally([run({status: 'queued', score: null})]).groups[0].verdict).toBe('too-few')
    expect(tally([run({status: 'failed', score: null}), run({status: 'failed', score: null})]).groups[0].verdict).toBe('flaky')
    expect(tally([run({status: 'failed', score: null})]).groups[0].verdict).toBe('too-few')
  })

  it('shifted before flaky: a group whose scores moved and that fails often is shifted', () => {
    const failing = Array.from({length: 6}, () => run({status: 'failed', score: null}))
    expect(tally([...failing, ...levels(20, 0.8, 20, 0.6)]).groups[0].verdict).toBe('shifted')
  })

  it(`reads the newest ${VERDICT.maxScores} scores of a group, so memory stays bounded: a change older than them is not seen`, () => {
    const feed = (older: number, newer: number) => {
      const t = new EvalStatsTally('es_1', undefined)
      const one = run()
      for (let i = 0; i < newer; i++) t.add({...one, id: `new_${i}`, score: i % 2 === 0 ? 0.71 : 0.69})
      for (let i = 0; i < older; i++) t.add({...one, id: `old_${i}`, score: i % 2 === 0 ? 0.51 : 0.49})
      return t.result(0, NOW, judge).groups[0]
    }
    // the newest 200 are one level: stable, though the mean of the whole window is far from them
    expect(feed(800, VERDICT.maxScores)).toMatchObject({scored: 1000, verdict: 'stable', shift: null})
    // 150 at the new level, and 50 of the old within the newest 200: the change is found at the oldest of the 150
    expect(feed(850, 150)).toMatchObject({verdict: 'shifted', shift: {runId: 'new_149', before: 0.5, after: 0.7, delta: 0.2}})
  })
})

describe('statsColumns', () => {
  const stats = tally([run({score: 0.9}), run({score: 0.7}), run({status: 'failed', score: null}), run({status: 'queued', score: null})])

  it('piped: agent, model, runs, the three shares as fractions, mean, sd, last score in their places; no trend', () => {
    const fields = tsvRows(stats.groups, statsColumns(stats.groups)).replace(/\n$/, '').split('\t')
    expect(fields.slice(0, 9)).toEqual(['claude-code', 'sonnet', '4', '0.6667', '0.3333', '0', '0.8', '0.141421', '0.9'])
  })

  it('piped: the verdict and the shift appended after the last score (empty unless shifted), never inserted', () => {
    expect(tsvRows(stats.groups, statsColumns(stats.groups))).toBe(
      'claude-code\tsonnet\t4\t0.6667\t0.3333\t0\t0.8\t0.141421\t0.9\ttoo-few\t\t\t\t\t\n',
    )
    const moved = tally(levels(20, 0.6, 20, 0.7))
    const [fields] = tsvRows(moved.groups, statsColumns(moved.groups))
      .split('\n')
      .map((line) => line.split('\t'))
    const {shift} = moved.groups[0]
    expect(shift).not.toBeNull()
    expect(fields.slice(0, 3)).toEqual(['claude-code', 'sonnet', '40'])
    expect(fields.slice(9)).toEqual([
      'shifted',
      shift?.runId,
      shift?.createdAt,
      String(shift?.before),
      String(shift?.after),
      String(shift?.delta),
    ])
  })

  it('on a terminal: FAILED and CANCELLED as percentages (OK is what they leave), two decimals, the verdict, the trend as a sparkline', () => {
    const columns = ttyColumns(statsColumns(stats.groups), stats.groups)
    expect(columns.map((c) => c.header)).toEqual([
      'AGENT',
      'MODEL',
      'RUNS',
      'FAILED',
      'CANCELLED',
      'MEAN',
      'SD',
      'LAST',
      'VERDICT',
      'TREND',
    ])
    const cells = ttyCells(stats.groups[0], columns, palette(false), NOW).map((cell) => cell.text)
    expect(cells).toEqual(['claude-code', 'sonnet', '4', '33%', '0%', '0.80', '0.14', '0.90', 'too-few', '▁█'])
  })

  it("every row's trend on one scale: a steadier agent's line stays within the noisier one's height", () => {
    const two = tally([
      run({agent: 'noisy', score: 0.6}),
      run({agent: 'noisy', score: 0.8}),
      run({agent: 'steady', score: 0.7}),
      run({agent: 'steady', score: 0.71}),
    ])
    const columns = ttyColumns(statsColumns(two.groups), two.groups)
    const trends = two.groups.map((group) => ttyCells(group, columns, palette(false), NOW).at(-1)?.text)
    expect(trends).toEqual(['█▁', '▅▅'])
  })
})
