import {createHash} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import type {GateResult, GroupResult, RunResult} from '../../../src/gate/result.js'
import {REPORT_SCRIPT, REPORT_STYLE} from '../../../src/gate/reports/html-assets.js'
import {
  chartCounts,
  REPORT_CSP,
  type ReportModel,
  RunColumns,
  reportChunks,
  reportHtml,
  Statuses,
  scoreDomain,
  timeTicks,
  waitReport,
} from '../../../src/gate/reports/html.js'
import type {HistoryBaseline} from '../../../src/gate/rules.js'
import {loadVerdictDistributions} from '../../../src/gate/stats.js'

const {normalQuantile} = await loadVerdictDistributions()
const NOW = Date.parse('2026-11-26T12:00:00Z')
const HOUR = 3_600_000
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * HOUR).toISOString()

/** A history of `scores` (oldest first), one run an hour, ending 2 hours ago; its failed and cancelled runs given. */
function history(scores: number[], outcomes: Array<{id: string; status: 'failed' | 'cancelled'; hoursAgo: number}> = []): HistoryBaseline {
  const n = scores.length
  const mean = scores.reduce((a, b) => a + b, 0) / n
  const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1))
  return {
    kind: 'history',
    runs: n,
    mean: Math.round(mean * 1e6) / 1e6,
    sd: Math.round(sd * 1e6) / 1e6,
    window: '30d',
    runIds: scores.map((_, i) => `h${i}`),
    scores,
    times: scores.map((_, i) => at(2 + n - i)),
    outliers: [],
    outcomes: {
      failed: outcomes.filter((o) => o.status === 'failed').length,
      cancelled: outcomes.filter((o) => o.status === 'cancelled').length,
      finished: n + outcomes.filter((o) => o.status === 'failed').length,
      runs: outcomes.map((o) => ({id: o.id, status: o.status, createdAt: at(o.hoursAgo)})),
    },
  }
}

const STEADY = [0.84, 0.83, 0.85, 0.84, 0.82, 0.86, 0.84, 0.83, 0.85, 0.84, 0.83, 0.85]
// twelve runs at 0.90, then twelve at 0.80: a change of level at the 13th
const SHIFTED = [...Array.from({length: 12}, (_, i) => 0.9 + (i % 3) * 0.01), ...Array.from({length: 12}, (_, i) => 0.8 + (i % 3) * 0.01)]

function stepRun(id: string, fields: Partial<RunResult> = {}): RunResult {
  return {
    id,
    evalSetId: 'es_1',
    agent: 'claude-code',
    model: 'sonnet',
    status: 'succeeded',
    score: 0.84,
    createdAt: at(1),
    verdict: 'passed',
    outcome: 'passed',
    seconds: 10,
    ...fields,
  }
}

function groupResult(fields: Partial<GroupResult> & Pick<GroupResult, 'runIds'>): GroupResult {
  return {
    id: 'es_1 claude-code / sonnet',
    evalSetId: 'es_1',
    agent: 'claude-code',
    model: 'sonnet',
    scores: [],
    statuses: [],
    score: 0.84,
    failures: 0,
    flaky: false,
    k: fields.runIds.length,
    decidedAt: null,
    verdict: 'passed',
    outcome: 'passed',
    seconds: 10,
    ...fields,
  }
}

function result(fields: Partial<GateResult>): GateResult {
  return {
    end: 'passed',
    org: 'acme',
    host: 'amctl.example.com',
    rules: {baseline: 'history', confidence: 0.95, baselineWindowS: 30 * 86_400, timeoutS: 3600},
    runs: [],
    unfinishedRunIds: [],
    ...fields,
  }
}

/** The charts of a page: each `<svg class="chart">`, with its data attributes and the points and marks it draws. */
function charts(html: string): Array<{points: number; runs: number; marks: number; drawnPoints: number; drawnMarks: number}> {
  return [...html.matchAll(/<svg class="chart"[^>]*data-points="(\d+)" data-runs="(\d+)" data-marks="(\d+)">(.*?)<\/svg>/gs)].map((m) => ({
    points: Number(m[1]),
    runs: Number(m[2]),
    marks: Number(m[3]),
    drawnPoints: (m[4].match(/class="p /g) ?? []).length,
    drawnMarks: (m[4].match(/class="m /g) ?? []).length,
  }))
}

const dataOf = (html: string) =>
  JSON.parse((/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html) as RegExpExecArray)[1])

describe('the HTML report of a wait', () => {
  it('one chart per eval set × agent × model: every baseline run and every step run a point, the baseline failed and cancelled runs marks', () => {
    const baseline = history(STEADY, [
      {id: 'hf1', status: 'failed', hoursAgo: 8},
      {id: 'hc1', status: 'cancelled', hoursAgo: 5},
    ])
    const other = history(STEADY.map((s) => s - 0.1))
    const runs = [
      stepRun('r1'),
      stepRun('r2', {status: 'failed', score: null}),
      stepRun('r3', {agent: 'codex', model: 'gpt-5', score: 0.6, verdict: 'regressed', outcome: 'failed'}),
    ]
    const gate = result({
      runs,
      groups: [
        groupResult({runIds: ['r1', 'r2'], baseline, margin: 0.05, delta: 0, flaky: true, failures: 1}),
        groupResult({
          id: 'es_1 codex / gpt-5',
          agent: 'codex',
          model: 'gpt-5',
          runIds: ['r3'],
          score: 0.6,
          baseline: other,
          margin: 0.06,
          delta: -0.14,
          verdict: 'regressed',
          outcome: 'failed',
          failure: {rule: 'noise', reason: 'scored 0.60, 0.14 below the mean'},
        }),
      ],
    })
    const model = waitReport(gate, {now: NOW, normalQuantile})
    expect(model.groups.map((g) => g.label)).toEqual(['es_1 claude-code / sonnet', 'es_1 codex / gpt-5'])
    expect(model.groups.map(chartCounts)).toEqual([
      {points: STEADY.length + 2, drawn: STEADY.length + 2},
      {points: STEADY.length + 1, drawn: STEADY.length + 1},
    ])
    const [first, second] = model.groups
    expect(first.band).toEqual({
      mean: baseline.mean,
      sd: baseline.sd,
      bar: baseline.mean - 0.05,
      margin: 0.05,
      source: "the history's 12 runs",
    })
    expect(first.stepScore).toBe(0.84)
    expect(second.verdicts).toEqual([
      expect.objectContaining({verdict: 'regressed', tone: 'fail', note: 'scored 0.60, 0.14 below the mean'}),
    ])
    // the figures are the summary's labels of FIGURES, for a history
    expect(second.verdicts[0].figures.map(([label]) => label)).toEqual(['Verdict', 'Baseline', 'Δ', 'Margin', 'SD', 'Runs', 'K'])
    const html = reportHtml(model)
    expect(charts(html)).toEqual([
      {points: 14, runs: 14, marks: 2, drawnPoints: 14, drawnMarks: 2},
      {points: 13, runs: 13, marks: 0, drawnPoints: 13, drawnMarks: 0},
    ])
    // the table: every run, baseline and step, failed and cancelled ones too
    const data = dataOf(html)
    expect(data.runs.id).toHaveLength(STEADY.length + 2 + 2 + STEADY.length + 1)
    expect(data.runs.id.slice(-2)).toEqual(['h11', 'r3'])
    expect(data.runUrl).toBeNull()
  })

  it('a change of level in the baseline is marked at its first run with the means before and after (the test of evals stats)', () => {
    const gate = result({runs: [stepRun('r1', {baseline: history(SHIFTED), margin: 0.05, delta: 0})]})
    const [group] = waitReport(gate, {now: NOW, normalQuantile}).groups
    expect(group.change).toMatchObject({runId: 'h12', at: Date.parse(history(SHIFTED).times[12])})
    expect(group.change?.before).toBeCloseTo(0.91, 6)
    expect(group.change?.after).toBeCloseTo(0.81, 6)
    expect(reportHtml(waitReport(gate, {now: NOW, normalQuantile}))).toContain('level change: 0.91 → 0.81')
    const steady = waitReport(result({runs: [stepRun('r1', {baseline: history(STEADY), margin: 0.05})]}), {now: NOW, normalQuantile})
    expect(steady.groups[0].change).toBeUndefined()
  })

  it('without a baseline of many runs: no band; --baseline RUN_ID its run as a line, not a point', () => {
    const plain = waitReport(result({rules: {timeoutS: 60}, runs: [stepRun('r1'), stepRun('r2', {score: 0.7})]}), {
      now: NOW,
      normalQuantile,
    })
    expect(plain.groups).toHaveLength(1)
    expect(plain.groups[0].verdicts.map((v) => v.of)).toEqual(['r1', 'r2'])
    expect(plain.groups[0].band).toBeUndefined()
    expect(chartCounts(plain.groups[0]).points).toBe(2)
    const one = waitReport(
      result({
        rules: {baseline: 'run_0', maxDrop: 0.1, timeoutS: 60},
        runs: [stepRun('r1', {baseline: {runId: 'run_0', score: 0.8}, delta: 0.04})],
      }),
      {now: NOW, normalQuantile},
    )
    expect(one.groups[0].baselineRun).toEqual({runId: 'run_0', score: 0.8})
    expect(chartCounts(one.groups[0]).points).toBe(1)
  })
})

describe('the page', () => {
  const HOSTILE = '</script><img src=x onerror=alert(1)><!--'
  const gate = result({
    end: 'not-passed',
    runs: [
      stepRun('run<b>1</b>', {
        agent: HOSTILE,
        model: '"quoted" & \'single\'',
        status: '</script>',
        baseline: history(STEADY),
        margin: 0.05,
        delta: 0,
      }),
    ],
  })
  const html = reportHtml(waitReport(gate, {now: NOW, normalQuantile, runUrl: 'https://app.example.com/runs/{id}'}))

  it('server text is data: escaped where it is text, and in the JSON block with < written \\u003c, so nothing ends the block', () => {
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<b>')
    expect(html).not.toContain('<!--')
    // the page's own two scripts, and nothing else that closes one
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(html).toContain('&#60;/script&#62;&#60;img src=x onerror=alert(1)&#62;&#60;!--')
    expect(html).toContain('&#34;quoted&#34; &#38; &#39;single&#39;')
    const data = dataOf(html)
    expect(data.groups).toEqual([`es_1 ${HOSTILE} / "quoted" & 'single'`])
    expect(data.runs.id).toContain('run<b>1</b>')
    expect(data.statuses).toContain('</script>')
    expect(data.runUrl).toBe('https://app.example.com/runs/{id}')
  })

  it('a Content-Security-Policy that allows nothing but its own style and script, by their hashes', () => {
    const csp = (/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html) as RegExpExecArray)[1]
    expect(csp).toBe(REPORT_CSP)
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
    const style = (/<style>(.*?)<\/style>/s.exec(html) as RegExpExecArray)[1]
    const script = (/<script>(.*?)<\/script>/s.exec(html) as RegExpExecArray)[1]
    expect([style, script]).toEqual([REPORT_STYLE, REPORT_SCRIPT])
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      `style-src ${hash(style)}`,
      `script-src ${hash(script)}`,
      "base-uri 'none'",
      "form-action 'none'",
    ])
    expect(csp).not.toContain('unsafe')
    // nothing that would load: no link, no image or frame, no url(), no @import, no style attribute
    expect(html).not.toMatch(/<link|<img|<iframe|<object|url\(|@import|\sstyle=/)
  })

  it('the same model gives the same bytes', () => {
    expect(reportHtml(waitReport(gate, {now: NOW, normalQuantile, runUrl: 'https://app.example.com/runs/{id}'}))).toBe(html)
  })
})

describe('the runs as columns', () => {
  it('keeps each ID as given (ASCII or not) and reverses in place', () => {
    const runs = new RunColumns()
    const ids = Array.from({length: 40}, (_, i) => (i % 7 === 3 ? `rün_${i}_日本_😀` : `run_${i}`))
    ids.forEach((id, i) => {
      runs.add(id, NOW + i, i % 5 === 0 ? null : i / 100, i % 3, i % 2 === 0 ? 'history' : 'step')
    })
    expect(Array.from({length: runs.length}, (_, i) => runs.id(i))).toEqual(ids)
    runs.reverse()
    expect(Array.from({length: runs.length}, (_, i) => runs.id(i))).toEqual([...ids].reverse())
    expect(Array.from(runs.times.subarray(0, 40))).toEqual(ids.map((_, i) => NOW + i).reverse())
    expect(Array.from(runs.scores.subarray(0, 3))).toEqual([0.39, 0.38, 0.37])
    expect(Number.isNaN(runs.scores[4])).toBe(true)
    expect(Array.from(runs.roles.subarray(0, 2))).toEqual([1, 2])
  })

  it('the JSON block of more runs than a piece holds, over several groups, lists every run once and in order', () => {
    const statuses = new Statuses()
    const group = (label: string, n: number) => {
      const runs = new RunColumns()
      for (let i = 0; i < n; i++)
        runs.add(
          `${label}<${i}`,
          NOW - (n - i) * 60_000,
          i % 9 === 0 ? null : 0.5 + (i % 50) / 100,
          statuses.of(i % 9 === 0 ? 'failed' : 'succeeded'),
          'history',
        )
      return {label, verdicts: [], runs, maxPoints: 500}
    }
    const model: ReportModel = {
      title: 'many',
      lede: 'runs',
      tone: 'none',
      generatedAt: NOW,
      facts: [],
      statuses,
      groups: [group('a', 5000), group('b', 0), group('c', 4097)],
    }
    const pieces = [...reportChunks(model)]
    // written in pieces (evals report writes them as they come), none of them the whole page
    expect(pieces.length).toBeGreaterThan(10)
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(200_000)
    const html = pieces.join('')
    const data = dataOf(html)
    const ids = [...Array.from({length: 5000}, (_, i) => `a<${i}`), ...Array.from({length: 4097}, (_, i) => `c<${i}`)]
    expect(data.runs.id).toEqual(ids)
    expect(data.runs.g).toEqual(ids.map((id) => (id.startsWith('a') ? 0 : 2)))
    expect(data.runs.s.slice(0, 3)).toEqual([null, 0.51, 0.52])
    expect(data.runs.t).toHaveLength(9097)
    expect(data.runs.st).toHaveLength(9097)
    expect(data.runs.r).toEqual(ids.map(() => 2))
    expect(html).not.toContain('a<1')
    // thinned charts say so; their counts stay every run's
    expect(charts(html).map((c) => c.runs)).toEqual([5000 - 556, 0, 4097 - 456])
  })
})

describe('the axes', () => {
  it('time ticks on round steps, at most about six, labelled in UTC', () => {
    const from = Date.parse('2026-11-20T00:00:00Z')
    expect(timeTicks(from, from + 6 * 86_400_000).map((t) => t.label)).toEqual([
      'Nov 20',
      'Nov 21',
      'Nov 22',
      'Nov 23',
      'Nov 24',
      'Nov 25',
      'Nov 26',
    ])
    expect(timeTicks(from + 3_600_000, from + 5 * 3_600_000).map((t) => t.label)).toEqual(['01:00', '02:00', '03:00', '04:00', '05:00'])
    expect(timeTicks(Date.parse('2026-01-15T00:00:00Z'), Date.parse('2026-06-20T00:00:00Z')).map((t) => t.label)).toEqual([
      'Feb 2026',
      'Mar 2026',
      'Apr 2026',
      'May 2026',
      'Jun 2026',
    ])
  })

  it('the score axis spans what is drawn, on steps of 0.05, at least 0.2 wide, within 0–1', () => {
    expect(scoreDomain([0.82, 0.86])).toEqual({low: 0.75, high: 0.95, step: 0.05})
    expect(scoreDomain([0, 1])).toEqual({low: 0, high: 1, step: 0.25})
    expect(scoreDomain([])).toEqual({low: 0, high: 1, step: 0.25})
    expect(scoreDomain([0.99])).toEqual({low: 0.8, high: 1, step: 0.05})
  })
})
