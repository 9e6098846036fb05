import {readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import EvalsReport, {type EvalsReportResult} from '../../../src/commands/evals/report.js'
import {fileBaselineOf} from '../../../src/gate/baseline.js'
import {baselineFileText, groupStats} from '../../../src/gate/baseline-file.js'
import {reportFileChoice} from '../../../src/gate/history-report.js'
import {loadQuantile, loadToleranceFactor} from '../../../src/gate/stats.js'
import {oneRunMargin} from '../../../src/gate/verdict.js'
import {runCommand} from '../../helpers/cli.js'
import {reply, useFakeApi} from '../../helpers/fake-api.js'
import {FAKE_WALL_START} from '../../helpers/fake-clock.js'
import {tempDir} from '../../helpers/temp.js'

const HOUR = 3_600_000
const ago = (hours: number) => new Date(FAKE_WALL_START - hours * HOUR).toISOString()

function run(id: string, hoursAgo: number, fields: Record<string, unknown> = {}) {
  return {
    id,
    status: 'succeeded',
    evalSetId: 'es_1',
    batchId: null,
    createdAt: ago(hoursAgo),
    forkedFrom: null,
    agent: 'claude-code',
    model: 'sonnet',
    score: 0.8,
    ...fields,
  }
}

// newest first: 24 runs of claude-code that drop from 0.90 to 0.80 twelve hours ago, 6 of codex (2 failed: flaky), another eval set,
// and on the last page a run older than the window
const CLAUDE = Array.from({length: 24}, (_, i) => run(`c${i}`, i + 1, {score: i < 12 ? 0.8 + (i % 3) * 0.01 : 0.9 + (i % 3) * 0.01}))
const CODEX = Array.from({length: 6}, (_, i) =>
  run(`x${i}`, i + 1.5, {agent: 'codex', model: 'gpt-5', ...(i < 2 ? {status: 'failed', score: null} : {score: 0.6})}),
)
const PAGES: Record<string, {items: unknown[]; nextCursor: string | null}> = {
  '': {items: [...CLAUDE.slice(0, 12), ...CODEX, run('o1', 2, {evalSetId: 'es_other'})], nextCursor: 'c1'},
  c1: {items: [...CLAUDE.slice(12), run('old', 24 * 40)], nextCursor: 'c2'},
  c2: {items: [run('older', 24 * 50)], nextCursor: null},
}

const api = useFakeApi({}, {me: false})

function paged(): void {
  api.stub('GET /orgs/acme/runs', (req) => {
    const cursor = new URL(req.path, 'http://x').searchParams.get('cursor') ?? ''
    return reply(200, PAGES[cursor])
  })
}

const report = (args: string[], env: Record<string, string> = {}) =>
  runCommand(EvalsReport, ['es_1', '--org', 'acme', ...args], {env: api.env(env)})

describe('evals report', () => {
  it('reads the run list as evals stats does (newest first, 200 to a page, up to the window) and writes every run of the window', async () => {
    paged()
    const dir = tempDir('amctl-report-')
    const html = join(dir, 'out', 'report.html')
    const r = await report(['--html', html, '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(api.requests().map((q) => q.path)).toEqual(['/api/v1/orgs/acme/runs?limit=200', '/api/v1/orgs/acme/runs?limit=200&cursor=c1'])
    const doc = JSON.parse(r.stdout) as EvalsReportResult
    expect(r.result).toEqual(doc)
    const text = readFileSync(html, 'utf8')
    expect(doc).toMatchObject({path: html, bytes: Buffer.byteLength(text), evalSetId: 'es_1', runs: 30})
    expect(doc.groups).toEqual([
      {agent: 'claude-code', model: 'sonnet', runs: 24, drawn: 24, verdict: 'shifted', band: null},
      {agent: 'codex', model: 'gpt-5', runs: 6, drawn: 4, verdict: 'flaky', band: null},
    ])
    expect(statSync(html).mode & 0o777).toBe(0o644)
    expect(readdirSync(join(dir, 'out'))).toEqual(['report.html'])
    // the shift, where evals stats finds it: the first run at 0.80
    expect(text).toContain('level change: 0.91 → 0.81')
    const data = JSON.parse((/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(text) as RegExpExecArray)[1])
    expect(data.runs.id).toHaveLength(30)
    // oldest first within each group
    expect(data.runs.id.slice(0, 2)).toEqual(['c23', 'c22'])
    expect(r.stderr).toContain(`Wrote ${html}: 30 runs of es_1 in 2 groups`)
  })

  it('--baseline-file: each group the file holds gets its band, and the bar one run must stay above, as the gate computes it', async () => {
    paged()
    const dir = tempDir('amctl-report-file-')
    const runs = Array.from({length: 10}, (_, i) => ({id: `b${i}`, score: 0.85 + (i % 4) * 0.01, createdAt: ago(100 + i)})).reverse()
    const file = {
      version: 2 as const,
      org: 'acme',
      evalSetId: 'es_1',
      savedAt: ago(90),
      keep: 50,
      groups: [
        {
          agent: 'claude-code',
          model: 'sonnet',
          ...groupStats(runs),
          runs,
          setAside: [],
          failed: [{id: 'bf', createdAt: ago(105)}],
          cancelled: [],
        },
      ],
    }
    const path = join(dir, 'base.json')
    writeFileSync(path, baselineFileText(file))
    const r = await report(['--html', join(dir, 'r.html'), '--baseline-file', path, '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout) as EvalsReportResult
    const rules = {
      failFast: false,
      baseline: reportFileChoice(path, file, true, 0.95),
      quantile: await loadQuantile(),
      tolerance: await loadToleranceFactor(),
    }
    const expected = oneRunMargin(rules, fileBaselineOf({file, path, maxAgeS: 0, outcomes: true}, file.groups[0], FAKE_WALL_START), 1)
    expect(doc.groups.map((g) => g.band)).toEqual([{mean: file.groups[0].mean, sd: file.groups[0].sd, margin: expected.margin}, null])
    expect(readFileSync(join(dir, 'r.html'), 'utf8')).toContain(`${path} has no baseline of this agent and model`)
  })

  it('--run-url (or $AMCTL_RUN_URL) makes each run ID a link; bad input is exit 2 before any request', async () => {
    paged()
    const dir = tempDir('amctl-report-flags-')
    const ok = await report(['--html', join(dir, 'a.html')], {AMCTL_RUN_URL: 'https://app.example.com/r/{id}'})
    expect(ok.exitCode, ok.stderr).toBe(0)
    expect(readFileSync(join(dir, 'a.html'), 'utf8')).toContain('"runUrl":"https://app.example.com/r/{id}"')
    const requests = api.requests().length
    writeFileSync(join(dir, 'other.json'), '{}')
    for (const [args, message] of [
      [['--html', join(dir, 'b.html'), '--run-url', 'javascript:alert(1)//{id}'], /^error: --run-url must use https/],
      [['--html', join(dir, 'b.html'), '--window', 'soon'], /--window/],
      [['--html', join(dir, 'b.html'), '--confidence', '2'], /--confidence/],
      [['--html', '/dev/stdout'], /--html \/dev\/stdout names a stream of this process/],
      [['--html', join(dir, 'other.json'), '--baseline-file', join(dir, 'other.json')], /are the same file/],
      [['--html', join(dir, 'b.html'), '--baseline-file', join(dir, 'other.json')], /^error: baseline file/],
    ] as const) {
      const r = await report([...args])
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toMatch(message)
    }
    expect(api.requests()).toHaveLength(requests)
  })
})
