import {describe, expect, it} from 'vitest'
import EvalsStats from '../../../src/commands/evals/stats.js'
import type {EvalStats} from '../../../src/gate/history-stats.js'
import {runCommand} from '../../helpers/cli.js'
import {reply, unchecked, useFakeApi} from '../../helpers/fake-api.js'
import {FAKE_WALL_START} from '../../helpers/fake-clock.js'
import {roundAndRound} from '../../helpers/pages.js'

// A run list of three pages (newest first): es_1 by two agents, other eval sets among them, and
// runs older than the window on the last page.

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

const PAGES = {
  '': {
    items: [
      run('r1', 1, {score: 0.9}),
      run('r2', 2, {agent: 'codex', model: 'gpt-5', status: 'failed', score: null}),
      run('r3', 3, {evalSetId: 'es_other', score: 0.1}),
    ],
    nextCursor: 'c1',
  },
  c1: {
    items: [run('r4', 24, {score: 0.7}), run('r5', 48, {agent: 'codex', model: 'gpt-5', score: 0.6}), run('r6', 24 * 6, {score: 0.8})],
    nextCursor: 'c2',
  },
  c2: {items: [run('r7', 24 * 8, {score: 0.2}), run('r8', 24 * 40, {score: 0.1})], nextCursor: 'c3'},
  c3: {items: [run('r9', 24 * 50, {score: 0.1})], nextCursor: null},
} as const

const api = useFakeApi({}, {me: false})

/** The three pages, answered by cursor. */
function paged(): void {
  api.stub('GET /orgs/acme/runs', (req) => {
    const cursor = new URL(req.path, 'http://x').searchParams.get('cursor') ?? ''
    return reply(200, PAGES[cursor as keyof typeof PAGES])
  })
}

const stats = (args: string[], opts: Parameters<typeof runCommand>[2] = {}) =>
  runCommand(EvalsStats, ['es_1', '--org', 'acme', ...args], {env: api.env(), ...opts})

describe('evals stats', () => {
  it('reads the run list newest first, 200 to a page, and stops at the first page that reaches runs older than the window', async () => {
    paged()
    const r = await stats(['--window', '7d', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(api.requests().map((q) => q.path)).toEqual([
      '/api/v1/orgs/acme/runs?limit=200',
      '/api/v1/orgs/acme/runs?limit=200&cursor=c1',
      '/api/v1/orgs/acme/runs?limit=200&cursor=c2',
    ])
    const doc = JSON.parse(r.stdout) as EvalStats
    expect(doc.runs).toBe(5)
    expect(doc.window.seconds).toBe(7 * 86_400)
    expect(Date.parse(doc.window.until) - Date.parse(doc.window.since as string)).toBe(7 * 86_400_000)
  })

  it('--json: the document, per agent × model; it is also the typed result', async () => {
    paged()
    const r = await stats(['--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout) as EvalStats
    expect(r.result).toEqual(doc)
    expect(Object.keys(doc)).toEqual(['evalSetId', 'window', 'runs', 'groups'])
    expect(doc.evalSetId).toBe('es_1')
    expect(doc.window.seconds).toBe(30 * 86_400)
    // r8 (40 days) is outside the default 30d; the page of r9 is never read
    expect(api.requests()).toHaveLength(3)
    expect(doc.groups).toEqual([
      {
        agent: 'claude-code',
        model: 'sonnet',
        runs: 4,
        succeeded: 4,
        failed: 0,
        cancelled: 0,
        unfinished: 0,
        share: {succeeded: 1, failed: 0, cancelled: 0},
        scored: 4,
        mean: 0.65,
        sd: 0.310913,
        last: {runId: 'r1', score: 0.9, createdAt: PAGES[''].items[0].createdAt},
        trend: [0.2, 0.8, 0.7, 0.9],
        verdict: 'too-few',
        shift: null,
      },
      {
        agent: 'codex',
        model: 'gpt-5',
        runs: 2,
        succeeded: 1,
        failed: 1,
        cancelled: 0,
        unfinished: 0,
        share: {succeeded: 0.5, failed: 0.5, cancelled: 0},
        scored: 1,
        mean: 0.6,
        sd: null,
        last: {runId: 'r5', score: 0.6, createdAt: PAGES.c1.items[1].createdAt},
        trend: [0.6],
        verdict: 'too-few',
        shift: null,
      },
    ])
  })

  it('--window 0 reads every page and counts every run', async () => {
    paged()
    const r = await stats(['--window', '0', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    const document = JSON.parse(r.stdout)
    expect([document.runs, document.window.since]).toEqual([8, null])
    expect(api.requests()).toHaveLength(4)
  })

  it('a run listed twice (pages that overlap while the list grows, a server that repeats items) counts once: its first listing', async () => {
    api.stub('GET /orgs/acme/runs', (req) => {
      const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
      if (cursor === null) return reply(200, {items: [run('r1', 1, {score: 0.9}), run('r2', 2, {score: 0.7})], nextCursor: 'c1'})
      // r2 again (a later listing of it says otherwise: the first is kept), then r3
      return reply(200, {items: [run('r2', 2, {score: 0.1, status: 'failed'}), run('r3', 3, {score: 0.8})], nextCursor: null})
    })
    const r = await stats(['--window', '0', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    const document = JSON.parse(r.stdout) as EvalStats
    expect(document.runs).toBe(3)
    expect(document.groups[0]).toMatchObject({runs: 3, succeeded: 3, failed: 0})
    expect(document.groups[0].mean).toBeCloseTo(0.8, 10)
  })

  it('a list that comes round again with new cursors (500 runs served again and again) ends with bad_response naming the cursor, no statistics', async () => {
    const list = roundAndRound(Array.from({length: 500}, (_, i) => run(`r${i}`, 1 + i / 100)))
    api.stub('GET /orgs/acme/runs', (req) => reply(200, list(new URL(req.path, 'http://x'))))
    const message =
      'page 4 (cursor "w600") of the runs of acme holds only items already listed: the list comes round again; stopping instead of looping forever'
    const piped = await stats(['--window', '0'])
    expect([piped.exitCode, piped.stdout, piped.stderr]).toEqual([1, '', `error: ${message} (bad_response)\n`])
    const json = await stats(['--window', '0', '--json'])
    expect([json.exitCode, JSON.parse(json.stdout)]).toEqual([1, {error: {code: 'bad_response', message}}])
    expect(api.requests()).toHaveLength(8)
  })

  it('piped: one tab-separated line per agent × model, no header, no trend; the verdict and the shift after the last score', async () => {
    paged()
    const r = await stats([])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toBe(
      'claude-code\tsonnet\t4\t1\t0\t0\t0.65\t0.310913\t0.9\ttoo-few\t\t\t\t\t\ncodex\tgpt-5\t2\t0.5\t0.5\t0\t0.6\t\t0.6\ttoo-few\t\t\t\t\t\n',
    )
    expect(r.stderr).toBe('')
  })

  it('on a terminal: a table with percentages, two decimals and the trend as a sparkline; what was counted on stderr', async () => {
    paged()
    const r = await stats([], {tty: true, stderrTTY: true, columns: 120})
    expect(r.exitCode, r.stderr).toBe(0)
    const [header, claude, codex] = r.stdout.trimEnd().split('\n')
    expect(header).toMatch(/^AGENT\s+MODEL\s+RUNS\s+FAILED\s+CANCELLED\s+MEAN\s+SD\s+LAST\s+VERDICT\s+TREND$/)
    expect(claude).toMatch(/^claude-code\s+sonnet\s+4\s+0%\s+0%\s+0\.65\s+0\.31\s+0\.90\s+too-few\s+▁▇▆█$/)
    expect(codex).toMatch(/^codex\s+gpt-5\s+2\s+50%\s+0%\s+0\.60\s+0\.60\s+too-few\s+▅$/)
    expect(r.stderr).toMatch(/es_1: 6 runs created since \d{4}-\d\d-\d\d \d\d:\d\d UTC\n$/)
  })

  it('on a terminal 100 columns wide the table fits: the model is cut before anything else; runs not finished are counted on stderr', async () => {
    api.stub('GET /orgs/acme/runs', {
      items: [
        run('r0', 1, {status: 'queued', score: null, model: 'claude-sonnet-4-5'}),
        ...Array.from({length: 20}, (_, i) => run(`r${i + 1}`, 2 + i, {model: 'claude-sonnet-4-5', score: 0.7 + (i % 3) / 10})),
        run('r21', 30, {agent: 'cursor-agent', model: 'gemini-2.5-pro'}),
      ],
      nextCursor: null,
    })
    const r = await stats([], {tty: true, stderrTTY: true, columns: 100})
    expect(r.exitCode, r.stderr).toBe(0)
    const rows = r.stdout.trimEnd().split('\n')
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(100)
    expect(rows[1]).toMatch(/^claude-code\s+claude-sonn…\s+21\s+0%\s+0%\s+0\.80\s+0\.08\s+0\.70\s+stable\s+[▁▂▃▄▅▆▇█]{20}$/)
    expect(rows[2]).toMatch(/^cursor-agent\s+gemini-2\.5-…\s+1\s+0%\s+0%\s+0\.80\s+0\.80\s+too-few\s+▅$/)
    expect(r.stderr).toMatch(/es_1: 22 runs created since .* UTC \(1 not finished\)\n$/)
  })

  /** es_1 by claude-code: 16 runs at 0.80, then the newest 14 at 0.70 (± 0.01), one an hour; and a flaky codex, 5 of 20 failed. */
  function moved(): Array<ReturnType<typeof run>> {
    const claude = Array.from({length: 30}, (_, i) => run(`c${i}`, 1 + i, {score: (i < 14 ? 0.7 : 0.8) + (i % 2 === 0 ? 0.01 : -0.01)}))
    const codex = Array.from({length: 20}, (_, i) =>
      run(`x${i}`, 1.5 + i, {agent: 'codex', model: 'gpt-5', ...(i % 4 === 0 ? {status: 'failed', score: null} : {score: 0.6})}),
    )
    return [...claude, ...codex].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
  }

  it('the verdicts: a group whose scores moved is shifted, with the first run of the new level; a group failing 5 of 20 is flaky', async () => {
    const items = moved()
    api.stub('GET /orgs/acme/runs', {items, nextCursor: null})
    const r = await stats(['--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    const [claude, codex] = (JSON.parse(r.stdout) as EvalStats).groups
    const first = items.find((item) => item.id === 'c13')
    expect(claude).toMatchObject({
      verdict: 'shifted',
      shift: {runId: 'c13', createdAt: first?.createdAt, before: 0.8, after: 0.7, delta: -0.1},
    })
    expect(codex).toMatchObject({failed: 5, verdict: 'flaky', shift: null})
  })

  it('on a terminal, each shift is described under the table; piped, its fields follow the verdict', async () => {
    const items = moved()
    api.stub('GET /orgs/acme/runs', {items, nextCursor: null})
    const tty = await stats([], {tty: true, stderrTTY: true, columns: 120})
    expect(tty.exitCode, tty.stderr).toBe(0)
    expect(tty.stdout).toMatch(/^claude-code\s+sonnet\s+30\s+0%\s+0%\s+0\.75\s+0\.05\s+0\.71\s+shifted\s+/m)
    expect(tty.stdout).toMatch(/^codex\s+gpt-5\s+20\s+25%\s+0%\s+0\.60\s+0\.00\s+0\.60\s+flaky\s+/m)
    const at = new Date(Date.parse(items.find((item) => item.id === 'c13')?.createdAt as string))
      .toISOString()
      .slice(0, 16)
      .replace('T', ' ')
    expect(tty.stderr.split('\n').at(-2)).toBe(`claude-code / sonnet shifted at c13 (${at} UTC): 0.80 before, 0.70 since (−0.10)`)

    api.stub('GET /orgs/acme/runs', {items, nextCursor: null})
    const piped = await stats([])
    const [claude] = piped.stdout.split('\n').map((line) => line.split('\t'))
    expect(claude.slice(9)).toEqual(['shifted', 'c13', items.find((item) => item.id === 'c13')?.createdAt, '0.8', '0.7', '-0.1'])
    expect(piped.stderr).toBe('')
  })

  it('--confidence 0.999 asks for more: 5 of 20 failed is not flaky there', async () => {
    api.stub('GET /orgs/acme/runs', {items: moved(), nextCursor: null})
    const r = await stats(['--confidence', '0.999', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).groups.map((group: {verdict: string}) => group.verdict)).toEqual(['shifted', 'stable'])
  })

  it('no runs of the eval set: an empty list (exit 0); on a terminal it says so', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run('r1', 1, {evalSetId: 'es_other'})], nextCursor: null})
    const piped = await runCommand(EvalsStats, ['es_none', '--org', 'acme'], {env: api.env()})
    expect([piped.exitCode, piped.stdout, piped.stderr]).toEqual([0, '', ''])
    const tty = await runCommand(EvalsStats, ['es_none', '--org', 'acme'], {env: api.env(), tty: true})
    expect(tty.exitCode).toBe(0)
    expect(tty.stderr).toMatch(/(^|\u001b\[2K)no runs of es_none created since .* UTC in acme\n$/)
    const json = await runCommand(EvalsStats, ['es_none', '--org', 'acme', '--json'], {env: api.env()})
    expect(JSON.parse(json.stdout).groups).toEqual([])
  })

  it('a run of the eval set with a score outside 0–1 is a bad answer: exit 1, no statistics', async () => {
    api.stub(
      'GET /orgs/acme/runs',
      unchecked('a score of 5 is outside the document: amctl must refuse it', 200, {
        items: [run('r1', 1), run('r2', 2, {score: 5})],
        nextCursor: null,
      }),
    )
    const r = await stats([])
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe('error: the server\'s run "r2" has a score that is not a number from 0 to 1: 5 (bad_response)\n')
    const json = await stats(['--json'])
    expect(json.exitCode).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual({error: {code: 'bad_response', message: expect.stringContaining('"r2" has a score')}})
  })

  it.each([
    [['--window', '2w'], '--window must be a duration such as 90s, 15m, 2h, 30d or a number of seconds, got "2w"'],
    [['--window', '-1d'], '--window must be a duration'],
    [['--window'], 'Flag --window expects a value'],
    [['--confidence', '0.4'], '--confidence must be a confidence from 0.5 to 0.999, got "0.4"'],
    [['--confidence', '1'], '--confidence must be a confidence from 0.5 to 0.999, got "1"'],
    [['--confidence', '95%'], '--confidence must be a confidence from 0.5 to 0.999, got "95%"'],
  ])('%j exits 2 before any request', async (args, says) => {
    const r = await stats(args)
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(says)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(api.requests()).toEqual([])
  })

  it('a bad EVAL_SET_ID exits 2 before any request', async () => {
    const r = await runCommand(EvalsStats, ['..', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: EVAL_SET_ID /)
    expect(api.requests()).toEqual([])
  })
})
