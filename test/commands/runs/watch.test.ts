import {linkSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import RunsList from '../../../src/commands/runs/list.js'
import RunsWatch from '../../../src/commands/runs/watch.js'
import {runCommand} from '../../helpers/cli.js'
import {FAKE_WALL_START, type FakeClock, fakeClock} from '../../helpers/fake-clock.js'
import {type Reply, reply, useFakeApi} from '../../helpers/fake-api.js'
import {tempDir} from '../../helpers/temp.js'
import {readRecent} from '../../../src/core/recent.js'
import {parseJunit} from '../../gate/reports/fixtures.js'
import {type FakeSignals, fakeSignals} from '../../helpers/fake-signals.js'
import {run} from './fixtures.js'
import {baselineAt, writeBaseline} from '../../helpers/baseline.js'
import {baselineFileText, groupStats} from '../../../src/gate/baseline-file.js'
import {roundAndRound} from '../../helpers/pages.js'
import {AMCTL_TOKEN_HINT, lines} from '../../helpers/output.js'
import {fieldCounts, GATE_FIELDS, LIST_FIELDS, RUN_FIELDS, type Row, rowsIn, runRow, runRows} from '../../helpers/tsv.js'

// runs watch (contract 5), in-process against a fake API, with a fake clock: no real waiting.

const api = useFakeApi()
let clock: FakeClock
let signals: FakeSignals
beforeEach(() => {
  clock = fakeClock()
  signals = fakeSignals()
})
afterEach(() => {
  expect(signals.listening('SIGINT'), 'no SIGINT listener outlives the wait').toBe(0)
  expect(signals.listening('SIGTERM'), 'no SIGTERM listener outlives the wait').toBe(0)
  expect(signals.exitHandlers(), 'nothing is left to erase at exit').toBe(0)
})

/** `status` or `status:score` of each run, per poll (the last repeats). */
type Timeline = Array<Record<string, string>>

/**
 * The org's run list as the fake server serves it: `pages` of IDs, newest first (cursors p1,
 * p2 …); the statuses change at every poll (a request without a cursor) along `timeline`.
 */
function serveRuns(pages: string[][], timeline: Timeline): void {
  let poll = -1
  api.stub('GET /orgs/acme/runs', (req) => {
    const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
    if (cursor === null) poll++
    const page = cursor === null ? 0 : Number(cursor.slice(1))
    const states = timeline[Math.min(poll, timeline.length - 1)]
    const items = pages[page].map((id) => {
      const [status, score] = (states[id] ?? 'succeeded:0.5').split(':')
      return run(id, status, score === undefined ? null : Number(score))
    })
    return reply(200, {items, nextCursor: page < pages.length - 1 ? `p${page + 1}` : null})
  })
}

/** The `runs list` fields of a run of ./fixtures.ts (eval set es_1, codex / gpt-5, created 2026-01-01), by the names docs/scripting.md gives them. */
const listed = (id: string, status: string, score: number | '' = ''): Row => ({
  ID: id,
  status,
  'eval set': 'es_1',
  created: '2026-01-01T00:00:00Z',
  agent: 'codex',
  model: 'gpt-5',
  score: String(score),
})

const AGAIN = 'interrupted (Ctrl-C): stopped watching; the runs go on. Watch them again with:'
const AGAIN_SIGTERM = 'interrupted (SIGTERM): stopped watching; the runs go on. Watch them again with:'
const GOING = '1 run still going on the server (the API cannot cancel runs):'
const paths = () => api.requests().map((r) => r.path.replace('/api/v1', ''))
const ERASE = /\u001B\[\d+F\u001B\[J/

describe('runs watch: what it keeps for shell completion', () => {
  it('keeps the watched runs in their last state, also when the verdict is 10; nothing when the wait failed', async () => {
    serveRuns(
      [['r2', 'r1']],
      [
        {r1: 'running', r2: 'running'},
        {r1: 'failed', r2: 'succeeded:0.9'},
      ],
    )
    const env = {...api.env(), AMCTL_CACHE_DIR: tempDir('amctl-cache-')}
    const r = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme'], {clock, signals, env})
    expect(r.exitCode).toBe(10)
    const seen = readRecent(env, FAKE_WALL_START)
    expect(seen.runs.map(({id, org, note}) => [id, org, note])).toEqual([
      ['r1', 'acme', 'failed, es_1'],
      ['r2', 'acme', 'succeeded, es_1'],
    ])
    expect(seen.evalSets.map((e) => e.id)).toEqual(['es_1'])
    expect(seen.orgs.map((o) => o.id)).toEqual(['acme'])

    const none = {...api.env(), AMCTL_CACHE_DIR: tempDir('amctl-cache-')}
    expect((await runCommand(RunsWatch, ['missing', '--org', 'acme'], {clock, signals, env: none})).exitCode).toBe(5)
    expect(readRecent(none, FAKE_WALL_START)).toEqual({orgs: [], runs: [], evalSets: []})
  })
})

describe('runs watch: polling on the wire', () => {
  it('one GET ?limit=200 per poll when every watched run is on the first page', async () => {
    serveRuns(
      [['r3', 'r2', 'r1']],
      [
        {r1: 'queued', r2: 'running'},
        {r1: 'running', r2: 'running'},
        {r1: 'succeeded:0.9', r2: 'succeeded:0.8'},
      ],
    )
    const r = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(paths()).toEqual(Array(3).fill('/orgs/acme/runs?limit=200'))
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(10_000) // default interval 5 s
  })

  it('follows nextCursor only until every unfinished watched run was seen in this poll', async () => {
    serveRuns(
      [
        ['r6', 'r5'],
        ['r4', 'r3'],
        ['r2', 'r1'],
      ],
      [{r5: 'running', r3: 'running'}, {r5: 'running', r3: 'succeeded'}, {r5: 'succeeded'}],
    )
    const r = await runCommand(RunsWatch, ['r5', 'r3', '--org', 'acme', '--interval', '2'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(paths()).toEqual([
      '/orgs/acme/runs?limit=200',
      '/orgs/acme/runs?limit=200&cursor=p1',
      '/orgs/acme/runs?limit=200',
      '/orgs/acme/runs?limit=200&cursor=p1',
      // r3 finished: the third poll needs the first page only
      '/orgs/acme/runs?limit=200',
    ])
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(4000)
  })

  it('a run missing from the whole list: exit 5 naming it, after reading every page', async () => {
    serveRuns([['r3', 'r2'], ['r1']], [{}])
    const r = await runCommand(RunsWatch, ['r2', 'nope', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('error: run "nope" is not among the runs of acme (not_found)\n')
    expect(paths()).toEqual(['/orgs/acme/runs?limit=200', '/orgs/acme/runs?limit=200&cursor=p1'])
    const json = await runCommand(RunsWatch, ['nope', '--org', 'acme', '--json'], {clock, signals, env: api.env()})
    expect(JSON.parse(json.stdout)).toEqual({error: {code: 'not_found', message: 'run "nope" is not among the runs of acme'}})
  })

  it("a 404 on the first poll says the server's words once, not the organization twice", async () => {
    api.stub('GET /orgs/acme/runs', () => reply(404, {error: {code: 'not_found', message: 'Organization not found'}}))
    const r = await runCommand(RunsWatch, ['run_1', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toMatch(/\nerror: Organization not found \(not_found, HTTP 404\)\n$/)
  })

  it("a 404 at a later poll is that poll's page, not the organization (which answered a poll earlier)", async () => {
    const answers = [reply(200, {items: [run('run_1', 'running')]}), reply(404, {error: {code: 'not_found', message: 'gone away'}})]
    api.stub('GET /orgs/acme/runs', () => answers.shift() ?? reply(500, {}))
    const r = await runCommand(RunsWatch, ['run_1', '--org', 'acme', '--interval', '1'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toMatch(/error: page 1 of the runs of acme at poll 2 not found: gone away \(not_found, HTTP 404\)\n$/)
    expect(paths()).toEqual(['/orgs/acme/runs?limit=200', '/orgs/acme/runs?limit=200'])
  })

  it('a poll answered 503 is retried (GET retries of contract 1.6), and the wait goes on', async () => {
    const answers = ['running', '503', '503', 'succeeded:0.9']
    api.stub('GET /orgs/acme/runs', () => {
      const next = answers.shift() ?? 'succeeded:0.9'
      if (next === '503') return reply(503, {error: {code: 'unavailable', message: 'try again'}})
      const [status, score] = next.split(':')
      return reply(200, {items: [run('r1', status, score === undefined ? null : Number(score))], nextCursor: null})
    })
    const r = await runCommand(RunsWatch, ['r1', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(paths()).toEqual(Array(4).fill('/orgs/acme/runs?limit=200'))
    // the poll interval (in 1 s steps) once, and back-off waits between the retried attempts
    expect(clock.sleeps.slice(0, 5)).toEqual([1000, 1000, 1000, 1000, 1000])
    expect(clock.sleeps).toHaveLength(7)
  })

  it('an error that survives the retries ends the wait with its own exit code', async () => {
    let polls = 0
    api.stub('GET /orgs/acme/runs', () => {
      if (++polls < 3) return reply(200, {items: [run('r1', 'running')], nextCursor: null})
      return reply(401, {error: {code: 'unauthorized', message: 'token revoked'}})
    })
    const r = await runCommand(RunsWatch, ['r1', '--org', 'acme'], {clock, signals, env: api.env(), tty: true})
    expect(r.exitCode).toBe(3)
    expect(r.stdout).toBe('')
    // the live view is erased before the error line
    const afterView = r.stderr.split(ERASE).at(-1)
    const [error, hint, ...rest] = lines(afterView ?? '')
    expect(error).toBe('error: token revoked (unauthorized, HTTP 401)')
    expect(hint).toMatch(AMCTL_TOKEN_HINT)
    expect(rest).toEqual([])
  })

  it('resolves the org from GET /me like every org command', async () => {
    serveRuns([['r1']], [{r1: 'succeeded'}])
    const r = await runCommand(RunsWatch, ['r1'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(paths()).toEqual(['/me', '/orgs/acme/runs?limit=200'])
  })
})

describe('runs watch: output and exit codes', () => {
  const TIMELINE: Timeline = [
    {r1: 'queued', r2: 'queued'},
    {r1: 'running', r2: 'queued'},
    {r1: 'succeeded:0.9', r2: 'failed'},
  ]

  it('piped: one stderr line per status change, then a summary; stdout the runs as TSV rows in the order given; exit 10', async () => {
    serveRuns([['r2', 'r1']], TIMELINE)
    const r = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(10)
    expect(r.stderr).toBe(
      [
        'watching 2 runs of acme: a poll every 5s, up to 1h',
        'r1 queued',
        'r2 queued',
        'r1 queued → running',
        'r1 running → succeeded (score 0.90)',
        'r2 queued → failed',
        '✗ 1 of 2 runs did not pass: r2 failed (10s)',
        '',
      ].join('\n'),
    )
    expect(runRows(r.stdout)).toEqual([
      runRow({...listed('r1', 'succeeded', 0.9), verdict: 'passed'}),
      runRow({...listed('r2', 'failed'), verdict: 'failed'}),
    ])
  })

  it('--json: {"items":[…]} with the runs as the API sent them, in the order given', async () => {
    serveRuns([['r2', 'r1']], TIMELINE)
    const r = await runCommand(RunsWatch, ['r2', 'r1', '--org', 'acme', '--json'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(10)
    const {gate, ...doc} = JSON.parse(r.stdout)
    expect(doc).toEqual({
      items: [
        {...run('r2', 'failed'), verdict: 'failed', decision: {rule: 'status', failed: 1, of: 1, statuses: ['failed']}},
        {...run('r1', 'succeeded', 0.9), verdict: 'passed', decision: {rule: 'succeeded'}},
      ],
      unfinishedRunIds: [],
    })
    expect(gate).toMatchObject({
      end: 'not-passed',
      runs: [
        {id: 'r2', outcome: 'failed'},
        {id: 'r1', outcome: 'passed'},
      ],
    })
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
  })

  it('on a terminal: a live view on stderr redrawn in place and erased, a summary, and a table on stdout', async () => {
    serveRuns(
      [['r2', 'r1']],
      [
        {r1: 'queued', r2: 'running'},
        {r1: 'succeeded:0.9', r2: 'succeeded:0.75'},
      ],
    )
    const r = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme', '--interval', '3'], {clock, signals, env: api.env(), tty: true})
    expect(r.exitCode).toBe(0)
    const frames = r.stderr.split(ERASE)
    const footer = (done: number, took: string) => `${done} of 2 runs finished · ${took} of 1h · Ctrl-C stops watching, not the runs`
    const frame = (...rows: string[]) => `${rows.join('\n')}\n`
    expect(frames[0]).toBe(frame('RUN  STATUS   ELAPSED  SCORE  VERDICT', 'r1   queued   0s', 'r2   running  0s', footer(0, '0s')))
    expect(frames).toContain(frame('RUN  STATUS   ELAPSED  SCORE  VERDICT', 'r1   queued   2s', 'r2   running  2s', footer(0, '2s')))
    // each run's verdict once it finished
    expect(frames.at(-2)).toBe(
      frame(
        'RUN  STATUS     ELAPSED  SCORE  VERDICT',
        'r1   succeeded  3s       0.90   passed',
        'r2   succeeded  3s       0.75   passed',
        footer(2, '3s'),
      ),
    )
    // erased, then the summary alone
    expect(frames.at(-1)).toBe('✓ all 2 runs succeeded (3s)\n')
    expect(r.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+EVAL SET\s+AGENT\s+MODEL\s+SCORE\s+CREATED\s+VERDICT$/)
    expect(r.stdout).toMatch(/^r1\s+succeeded\s+es_1\s+codex\s+gpt-5\s+0\.90\s+/m)
    expect(r.stdout.trim().split('\n')).toHaveLength(3)
  })

  it('on a terminal with --verbose: change lines instead of the live view (request lines would break it)', async () => {
    serveRuns([['r1']], [{r1: 'queued'}, {r1: 'succeeded:0.5'}])
    const r = await runCommand(RunsWatch, ['r1', '--org', 'acme', '--verbose'], {clock, signals, env: api.env(), tty: true})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).not.toMatch(ERASE)
    expect(r.stderr).toMatch(/GET .*\/orgs\/acme\/runs\?limit=200/)
    expect(r.stderr).toContain('r1 queued\n')
    expect(r.stderr).toContain('r1 queued → succeeded (score 0.50)\n')
  })

  it('the time limit: exit 11, stdout still holds the last known states; the runs still going are named (issue 32 item 18)', async () => {
    serveRuns([['r2', 'r1']], [{r1: 'queued', r2: 'succeeded'}, {r1: 'running'}])
    const r = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme', '--wait-timeout', '1m', '--interval', '20'], {
      clock,
      signals,
      env: api.env(),
    })
    expect(r.exitCode).toBe(11)
    expect(paths()).toHaveLength(4) // at 0, 20, 40 and 60 s
    expect(runRows(r.stdout)).toEqual([
      runRow({...listed('r1', 'running'), verdict: 'unfinished'}),
      runRow({...listed('r2', 'succeeded'), verdict: 'passed'}),
    ])
    const [gaveUp, going] = r.stderr.trim().split('\n').slice(-2)
    expect(gaveUp).toBe('! gave up after 1m (--wait-timeout): 1 of 2 runs not finished: r1 running')
    expect(going).toBe(`${GOING} r1`)
    const json = await runCommand(RunsWatch, ['r1', '--org', 'acme', '--wait-timeout', '5', '--json'], {clock, signals, env: api.env()})
    expect(json.exitCode).toBe(11)
    const {gate, ...doc} = JSON.parse(json.stdout)
    expect(doc).toEqual({
      items: [{...run('r1', 'running'), verdict: 'unfinished', decision: {rule: 'pending'}}],
      unfinishedRunIds: ['r1'],
    })
    expect(gate).toMatchObject({end: 'timeout', runs: [{id: 'r1', outcome: 'skipped'}], unfinishedRunIds: ['r1']})
    expect(json.stderr.trim().split('\n').at(-1)).toBe('1 run still going on the server (the API cannot cancel runs): r1')
  })

  it('--fail-fast ends at the first failed run; without it the wait goes on until all finished', async () => {
    const timeline: Timeline = [{r1: 'running', r2: 'queued'}, {r1: 'cancelled', r2: 'running'}, {r2: 'running'}, {r2: 'succeeded'}]
    serveRuns([['r2', 'r1']], timeline)
    const fast = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme', '--fail-fast'], {clock, signals, env: api.env()})
    expect(fast.exitCode).toBe(10)
    expect(paths()).toHaveLength(2)
    expect(fast.stderr).toContain('✗ 1 of 2 runs did not pass: r1 cancelled; stopped at the first (--fail-fast), 1 not finished')
    expect(fast.stderr.trim().split('\n').at(-1)).toBe(`${GOING} r2`)
    expect(runRows(fast.stdout)).toEqual([
      runRow({...listed('r1', 'cancelled'), verdict: 'failed'}),
      runRow({...listed('r2', 'running'), verdict: 'unfinished'}),
    ])

    api.requests().length = 0
    serveRuns([['r2', 'r1']], timeline)
    const slow = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(slow.exitCode).toBe(10)
    expect(paths()).toHaveLength(4)
    // every run finished: none named
    expect(slow.stderr).not.toContain('still going')
  })

  it('--min-score: a succeeded run below X, or without a score, exits 10; at or above X exits 0', async () => {
    serveRuns([['r3', 'r2', 'r1']], [{r1: 'succeeded:0.8', r2: 'succeeded:0.5', r3: 'succeeded'}])
    const low = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme', '--min-score', '0.6'], {clock, signals, env: api.env()})
    expect(low.exitCode).toBe(10)
    expect(low.stderr).toContain('✗ 1 of 2 runs did not pass: r2 scored 0.5 (below 0.6)')
    const none = await runCommand(RunsWatch, ['r3', '--org', 'acme', '--min-score', '0'], {clock, signals, env: api.env()})
    expect(none.exitCode).toBe(10)
    expect(none.stderr).toContain('r3 succeeded without a score (--min-score 0)')
    const ok = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme', '--min-score', '0.5'], {clock, signals, env: api.env()})
    expect(ok.exitCode).toBe(0)
    expect(ok.stderr).toContain('✓ all 2 runs succeeded, each with a score of at least 0.5')
  })

  it('an unknown status is shown as it is and counts as not finished', async () => {
    serveRuns([['r1']], [{r1: 'paused'}, {r1: 'resuming'}, {r1: 'succeeded'}])
    const r = await runCommand(RunsWatch, ['r1', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain('r1 paused\nr1 paused → resuming\nr1 resuming → succeeded')
  })

  it('server text in statuses cannot drive the terminal', async () => {
    serveRuns([['r1']], [{r1: 'evil\u001b]0;pwned\u0007'}, {r1: 'succeeded'}])
    const piped = await runCommand(RunsWatch, ['r1', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(piped.stderr).toContain('r1 evil\\u001b]0;pwned\\u0007\n')
    serveRuns([['r1']], [{r1: 'evil\u001b]0;pwned\u0007'}, {r1: 'succeeded'}])
    const tty = await runCommand(RunsWatch, ['r1', '--org', 'acme'], {clock, signals, env: api.env(), tty: true})
    expect(tty.stderr).toContain('evil\\u001b]0;pwned\\u0007')
    expect(tty.stderr).not.toContain('\u0007')
  })

  it('a run given twice is watched and printed once', async () => {
    serveRuns([['r1']], [{r1: 'succeeded'}])
    const r = await runCommand(RunsWatch, ['r1', 'r1', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(runRows(r.stdout)).toEqual([runRow({...listed('r1', 'succeeded'), verdict: 'passed'})])
  })
})

describe('runs watch: run IDs from stdin', () => {
  it('- reads whitespace-separated IDs (what `jq -r .runIds[]` writes)', async () => {
    serveRuns([['r3', 'r2', 'r1']], [{r1: 'succeeded', r3: 'succeeded'}])
    const r = await runCommand(RunsWatch, ['-', '--org', 'acme'], {clock, signals, env: api.env(), stdin: 'r3\n  r1\t\n'})
    expect(r.exitCode).toBe(0)
    expect(runRows(r.stdout)).toEqual([
      runRow({...listed('r3', 'succeeded'), verdict: 'passed'}),
      runRow({...listed('r1', 'succeeded'), verdict: 'passed'}),
    ])
  })

  it.each([
    ['- with other IDs', ['-', 'r1'], 'r1', /RUN_ID - \(read the IDs from stdin\) must be the only RUN_ID/],
    ['nothing on stdin', ['-'], ' \n', /RUN_ID -: no run IDs on standard input/],
    ['an ID with a control character on stdin', ['-'], 'r1 r\u00072', /RUN_ID \(stdin\) must not contain control characters/],
  ])('%s: exit 2, nothing sent', async (_what, argv, stdin, message) => {
    const r = await runCommand(RunsWatch, [...argv, '--org', 'acme'], {clock, signals, env: api.env(), stdin})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(api.requests()).toEqual([])
  })
})

describe('runs watch: bad input exits 2 before any request', () => {
  it.each([
    [['--interval', '0.5'], /--interval must be a number of seconds from 1 to 86400, got "0.5"/],
    [['--interval', 'fast'], /--interval must be a number of seconds from 1 to 86400, got "fast"/],
    [['--wait-timeout', '5x'], /--wait-timeout must be a duration such as 90s, 15m, 2h or a number of seconds, got "5x"/],
    [['--wait-timeout', '-1'], /--wait-timeout must be a duration/],
    [['--min-score', '1.5'], /--min-score must be a score from 0 to 1, got "1.5"/],
    [['--min-score', '-0.1'], /--min-score must be a score from 0 to 1/],
    [['--bogus'], /unknown flag --bogus\b/],
    [['-x'], /unknown flag -x\b/],
    [['..'], /RUN_ID cannot be "\.\."/],
  ])('%j', async (extra, message) => {
    const r = await runCommand(RunsWatch, ['r1', ...extra, '--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(api.requests()).toEqual([])
  })

  it('after --, an ID may start with - (contract 3: only empty, ., .. and control characters are refused)', async () => {
    serveRuns([['-r1']], [{'-r1': 'succeeded:0.9'}])
    const r = await runCommand(RunsWatch, ['--org', 'acme', '--', '-r1'], {clock, signals, env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^-r1\tsucceeded\t/)
  })

  it('no RUN_ID', async () => {
    const r = await runCommand(RunsWatch, ['--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/missing argument RUN_ID\b/)
  })
})

/** Ctrl-C, or SIGTERM (a CI system cancelling the job), through the command's world: the wait listens for both while it runs. */
function stop(signal: 'SIGINT' | 'SIGTERM'): void {
  expect(signals.listening(signal), `the wait listens for ${signal} while it runs`).toBe(1)
  signals.raise(signal)
}
const pressCtrlC = () => stop('SIGINT')

describe('runs watch: Ctrl-C, and SIGTERM (a CI job cancelled or timed out), which ends the wait the same way with 143', () => {
  it.each([
    ['SIGINT', 130, AGAIN],
    ['SIGTERM', 143, AGAIN_SIGTERM],
  ] as const)(
    '%s: exit %i, stdout empty, the live view erased, a line naming the runs still going, one saying how to watch again',
    async (signal, exit, again) => {
      serveRuns([['r1']], [{r1: 'running'}])
      clock.onSleep = (n) => n === 4 && stop(signal)
      const r = await runCommand(RunsWatch, ['r1', '--org', 'acme', '--interval', '2', '--min-score', '0.5', '--base-url', api.url], {
        clock,
        signals,
        env: api.env(),
        tty: true,
      })
      expect(r.exitCode).toBe(exit)
      expect(r.stdout).toBe('')
      const frames = r.stderr.split(ERASE)
      expect(frames.length).toBeGreaterThan(1)
      expect(frames.at(-1)).toBe(
        `${GOING} r1\n${again} amctl runs watch r1 --org acme --base-url ${api.url} --interval 2 --min-score 0.5\n`,
      )
      expect(paths()).toHaveLength(2) // at 0 and 2 s; the signal at the 4th second
    },
  )

  it('during a poll that hangs: ends at once', async () => {
    api.stub('GET /orgs/acme/runs', () => {
      setImmediate(pressCtrlC)
      return new Promise<Reply>(() => {}) // never answers
    })
    const r = await runCommand(RunsWatch, ['r 1', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(130)
    const [watching, going, again, ...rest] = lines(r.stderr)
    expect(watching).toBe('watching 1 run of acme: a poll every 5s, up to 1h')
    expect(going).toBe(`${GOING} 'r 1'`)
    expect(again).toBe(`${AGAIN} amctl runs watch 'r 1' --org acme`)
    expect(rest).toEqual([])
  })

  it('SIGTERM during a poll that hangs, piped, with --json: ends at once, nothing on stdout (as after Ctrl-C)', async () => {
    api.stub('GET /orgs/acme/runs', () => {
      setImmediate(() => stop('SIGTERM'))
      return new Promise<Reply>(() => {}) // never answers
    })
    const r = await runCommand(RunsWatch, ['r1', '--org', 'acme', '--json'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(143)
    expect(r.stdout).toBe('')
    expect(lines(r.stderr)).toEqual([
      'watching 1 run of acme: a poll every 5s, up to 1h',
      `${GOING} r1`,
      `${AGAIN_SIGTERM} amctl runs watch r1 --org acme`,
    ])
  })

  it('the first signal is the one the wait ends with: Ctrl-C after SIGTERM changes nothing (143), SIGTERM after Ctrl-C neither (130)', async () => {
    for (const [first, second, exit, words] of [
      ['SIGTERM', 'SIGINT', 143, 'SIGTERM'],
      ['SIGINT', 'SIGTERM', 130, 'Ctrl-C'],
    ] as const) {
      serveRuns([['r1']], [{r1: 'running'}])
      clock = fakeClock()
      clock.onSleep = (n) => {
        if (n !== 1) return
        stop(first)
        signals.raise(second)
      }
      const r = await runCommand(RunsWatch, ['r1', '--org', 'acme'], {clock, signals, env: api.env()})
      expect(r.exitCode).toBe(exit)
      expect(lines(r.stderr).at(-1)).toMatch(new RegExp(`^interrupted \\(${words}\\): `))
    }
  })
})

describe('runs watch: typed result and renderer', () => {
  it('returns the finished wait (exit 10, the runs in the order given); the renderer gets them as one list', async () => {
    serveRuns(
      [['r2', 'r1']],
      [
        {r1: 'running', r2: 'queued'},
        {r1: 'succeeded:0.9', r2: 'failed'},
      ],
    )
    const r = await runCommand(RunsWatch, ['r1', 'r2', '--org', 'acme'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(10)
    const runs = [
      {...run('r1', 'succeeded', 0.9), verdict: 'passed', decision: {rule: 'succeeded'}},
      {...run('r2', 'failed'), verdict: 'failed', decision: {rule: 'status', failed: 1, of: 1, statuses: ['failed']}},
    ]
    expect(r.result).toMatchObject({kind: 'finished', exitCode: 10, document: {items: runs}, list: {items: runs}})
    // the changes as notices while it waits, then the runs as one list
    expect(r.rendered.filter((c) => c.method === 'notice').map((c) => (c as {text: string}).text)).toContain('r2 queued → failed')
    expect(r.rendered.at(-1)).toEqual({
      method: 'list',
      rows: runs,
      // (on a terminal the runs list's columns and VERDICT; piped, the gate's fields, by the names docs/scripting.md gives them)
      columns: ['ID', 'STATUS', 'EVAL SET', 'AGENT', 'MODEL', 'SCORE', 'CREATED', 'VERDICT', ...GATE_FIELDS],
    })
  })
})

describe('runs watch: the regression gate and the CI reports', () => {
  const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T09:00:00.000Z`
  const item = (id: string, day: number, status: string, score: number | null, fields: Record<string, unknown> = {}) => ({
    ...run(id, status, score),
    createdAt: at(day),
    ...fields,
  })
  /** Two pages: the watched runs (day 20) whose states move along `timeline`, then the history. */
  function serveHistory(timeline: Array<Record<string, string>>, history = HISTORY): void {
    let poll = -1
    api.stub('GET /orgs/acme/runs', (req) => {
      const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
      if (cursor === 'p1') return reply(200, {items: history, nextCursor: null})
      poll++
      const states = timeline[Math.min(poll, timeline.length - 1)]
      const items = Object.entries(states).map(([id, state]) => {
        const [status, score] = state.split(':')
        return item(
          id,
          20,
          status,
          score === undefined ? null : Number(score),
          id === 'w2' ? {agent: 'claude-code', model: 'claude-sonnet-4-5'} : {},
        )
      })
      return reply(200, {items, nextCursor: 'p1'})
    })
  }
  const HISTORY = [
    item('h3', 19, 'failed', 0.99),
    item('h2', 18, 'succeeded', 0.8),
    item('h1', 17, 'succeeded', 0.9, {agent: 'claude-code', model: 'claude-sonnet-4-5'}),
  ]

  it('--baseline previous --max-drop: a drop beyond it exits 10 naming the baseline; --json adds baseline and delta', async () => {
    serveHistory([{w1: 'succeeded:0.61', w2: 'succeeded:0.95'}])
    const r = await runCommand(RunsWatch, ['w1', 'w2', '--org', 'acme', '--baseline', 'previous', '--max-drop', '0.1', '--json'], {
      clock,
      signals,
      env: api.env(),
    })
    expect(r.exitCode, r.stderr).toBe(10)
    const doc = JSON.parse(r.stdout)
    expect(doc.items.map((x: any) => [x.id, x.baseline, x.delta])).toEqual([
      ['w1', {runId: 'h2', score: 0.8}, -0.19],
      ['w2', {runId: 'h1', score: 0.9}, 0.05],
    ])
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      '✗ 1 of 2 runs did not pass: w1 scored 0.61, 0.19 below baseline h2 (0.8; --max-drop 0.1) (0s)',
    )
    // one poll, then one scan for the baselines (its first page again, then the history)
    expect(paths()).toEqual(['/orgs/acme/runs?limit=200', '/orgs/acme/runs?limit=200', '/orgs/acme/runs?limit=200&cursor=p1'])
  })

  it('an improvement passes; the table gains BASELINE and Δ, tab-separated rows the baseline ID, its score and the delta after the verdict', async () => {
    serveHistory([{w1: 'succeeded:0.85'}])
    const tty = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'previous', '--max-drop', '0.1'], {
      clock,
      signals,
      tty: true,
      env: api.env(),
    })
    expect(tty.exitCode, tty.stderr).toBe(0)
    expect(tty.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+EVAL SET\s+AGENT\s+MODEL\s+SCORE\s+CREATED\s+BASELINE\s+Δ\s+VERDICT$/)
    expect(tty.stdout.split('\n')[1]).toMatch(/^w1\s+succeeded\s+es_1\s+codex\s+gpt-5\s+0\.85\s+.+\s+h2\s+\+0\.05\s+passed$/)
    serveHistory([{w1: 'succeeded:0.85'}])
    const piped = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'previous'], {clock, signals, env: api.env()})
    expect(runRows(piped.stdout)).toEqual([
      runRow({
        ...listed('w1', 'succeeded', 0.85),
        created: at(20),
        verdict: 'passed',
        'baseline run': 'h2',
        'baseline score': 0.8,
        delta: 0.05,
      }),
    ])
  })

  it('without a baseline a run is "no baseline": not held to --max-drop, null in --json, said on stderr', async () => {
    serveHistory([{w1: 'succeeded:0.1'}], [])
    const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'previous', '--max-drop', '0', '--json'], {
      clock,
      signals,
      env: api.env(),
    })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout).items[0]).toMatchObject({id: 'w1', baseline: null, delta: null})
  })

  it('--baseline RUN_ID: looked up first (exit 2 when it has no score, 5 when absent), then every run compared with it', async () => {
    serveHistory([{w1: 'succeeded:0.7', w2: 'succeeded:0.75'}])
    const r = await runCommand(RunsWatch, ['w1', 'w2', '--org', 'acme', '--baseline', 'h1', '--max-drop', '0.15', '--json'], {
      clock,
      signals,
      env: api.env(),
    })
    expect(r.exitCode, r.stderr).toBe(10)
    expect(JSON.parse(r.stdout).items.map((x: any) => [x.baseline.runId, x.delta])).toEqual([
      ['h1', -0.2],
      ['h1', -0.15],
    ])
    serveHistory([{w1: 'succeeded:0.7'}])
    const failed = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'h3'], {clock, signals, env: api.env()})
    expect(failed.exitCode).toBe(2)
    expect(failed.stderr).toBe(
      'error: --baseline h3 cannot be a baseline: its status is failed; a baseline is a run that succeeded with a score (invalid_request)\n',
    )
    serveHistory([{w1: 'succeeded:0.7'}])
    const absent = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'nope'], {clock, signals, env: api.env()})
    expect(absent.exitCode).toBe(5)
    expect(absent.stderr).toContain('--baseline: run "nope" is not among the runs of acme')
  })

  it('--baseline RUN_ID on a run list that comes round again with new cursors: bad_response (exit 1) naming the cursor, not a search without end', async () => {
    const list = roundAndRound([run('w1', 'succeeded', 0.7), ...Array.from({length: 499}, (_, i) => run(`h${i}`, 'succeeded', 0.5))])
    api.stub('GET /orgs/acme/runs', (req) => reply(200, list(new URL(req.path, 'http://x'))))
    const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'nope'], {clock, signals, env: api.env()})
    expect(r.exitCode, r.stderr).toBe(1)
    expect(r.stderr).toContain(
      'error: page 4 (cursor "w600") of the runs of acme holds only items already listed: the list comes round again; stopping instead of looping forever (bad_response)',
    )
  })

  it('--junit, --summary and --html are written atomically on a pass, a failure and a timeout, with the runs not finished skipped', async () => {
    const dir = tempDir('amctl-watch-reports-')
    const junit = join(dir, 'reports', 'evals.xml')
    const summary = join(dir, 'reports', 'evals.md')
    const html = join(dir, 'reports', 'evals.html')
    for (const [timeline, exit] of [
      [[{w1: 'succeeded:0.9'}], 0],
      [[{w1: 'failed'}], 10],
      [[{w1: 'running'}], 11],
    ] as const) {
      serveHistory([...timeline])
      const reports = ['--junit', junit, '--summary', summary, '--html', html]
      const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', ...reports, '--wait-timeout', '10s'], {
        clock,
        signals,
        env: api.env(),
      })
      expect(r.exitCode, r.stderr).toBe(exit)
      // (the report against the JUnit schema: test/gate/reports/junit.integration.test.ts)
      const xml = readFileSync(junit, 'utf8')
      const testcase = parseJunit(xml).testsuites.testsuite[0].testcase[0]
      expect(testcase['@_name']).toBe('codex / gpt-5 (w1)')
      if (exit === 0) expect(Object.keys(testcase).filter((k) => !k.startsWith('@_'))).toEqual([])
      if (exit === 10) expect(testcase.failure['@_type']).toBe('status')
      if (exit === 11) expect(testcase.skipped['@_message']).toBe('not finished within --wait-timeout 10s (running)')
      expect(readFileSync(summary, 'utf8').split('\n')[0]).toMatch(exit === 0 ? /^### ✅/ : exit === 10 ? /^### ❌/ : /^### ⏱️/)
      const title =
        exit === 0 ? '1 run passed' : exit === 10 ? '1 of 1 run did not pass' : '1 of 1 run not finished within --wait-timeout 10s'
      expect(readFileSync(html, 'utf8')).toContain(`<title>amctl: ${title}</title>`)
      expect(readdirSync(join(dir, 'reports')).sort()).toEqual(['evals.html', 'evals.md', 'evals.xml']) // no temp file left
      expect(statSync(junit).mode & 0o777).toBe(0o644)
      expect(statSync(html).mode & 0o777).toBe(0o644)
    }
  })

  it('Ctrl-C (exit 130) still writes the reports: the runs seen so far, the unfinished ones skipped', async () => {
    const dir = tempDir('amctl-watch-reports-')
    serveHistory([{w1: 'succeeded:0.9', w2: 'running'}])
    clock.onSleep = (n) => n === 2 && pressCtrlC()
    const reports = ['--junit', join(dir, 'e.xml'), '--summary', join(dir, 'e.md'), '--html', join(dir, 'e.html')]
    const r = await runCommand(RunsWatch, ['w1', 'w2', '--org', 'acme', ...reports], {
      clock,
      signals,
      env: api.env(),
    })
    expect(r.exitCode).toBe(130)
    expect(readFileSync(join(dir, 'e.html'), 'utf8')).toContain('<title>amctl: interrupted (Ctrl-C): 1 of 2 runs not finished</title>')
    const [suite] = parseJunit(readFileSync(join(dir, 'e.xml'), 'utf8')).testsuites.testsuite
    expect(suite).toMatchObject({'@_tests': '2', '@_failures': '0', '@_skipped': '1'})
    expect(suite.testcase[1].skipped['@_message']).toBe('not finished when the wait was interrupted (Ctrl-C) (running)')
    expect(readFileSync(join(dir, 'e.md'), 'utf8').split('\n')[0]).toBe('### ⏹️ Interrupted (Ctrl-C): 1 of 2 runs not finished')
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^interrupted \(Ctrl-C\): stopped watching/)
  })

  it('SIGTERM during the search for the baselines (--baseline previous): ends at once, exit 143, the watch-again line', async () => {
    api.stub('GET /orgs/acme/runs', (req) => {
      if (new URL(req.path, 'http://x').searchParams.get('cursor') === null) {
        return reply(200, {items: [item('w1', 20, 'succeeded', 0.9)], nextCursor: 'p1'})
      }
      setImmediate(() => stop('SIGTERM'))
      return new Promise<Reply>(() => {}) // the search's next page never answers
    })
    const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'previous'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(143)
    expect(r.stdout).toBe('')
    expect(lines(r.stderr).at(-1)).toBe(`${AGAIN_SIGTERM} amctl runs watch w1 --org acme --baseline previous`)
  })

  it('SIGTERM (exit 143) writes them too, and the step summary in GitHub Actions, each saying SIGTERM', async () => {
    const dir = tempDir('amctl-watch-reports-')
    const stepSummary = join(dir, 'step-summary.md')
    serveHistory([{w1: 'succeeded:0.9', w2: 'running'}])
    clock.onSleep = (n) => n === 2 && stop('SIGTERM')
    const reports = ['--junit', join(dir, 'e.xml'), '--summary', join(dir, 'e.md'), '--html', join(dir, 'e.html')]
    const r = await runCommand(RunsWatch, ['w1', 'w2', '--org', 'acme', ...reports], {
      clock,
      signals,
      env: api.env({GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary}),
    })
    expect(r.exitCode).toBe(143)
    expect(readFileSync(join(dir, 'e.html'), 'utf8')).toContain('<title>amctl: interrupted (SIGTERM): 1 of 2 runs not finished</title>')
    const [suite] = parseJunit(readFileSync(join(dir, 'e.xml'), 'utf8')).testsuites.testsuite
    expect(suite).toMatchObject({'@_tests': '2', '@_failures': '0', '@_skipped': '1'})
    expect(suite.testcase[1].skipped['@_message']).toBe('not finished when the wait was interrupted (SIGTERM) (running)')
    const heading = '### ⏹️ Interrupted (SIGTERM): 1 of 2 runs not finished'
    expect(readFileSync(join(dir, 'e.md'), 'utf8').split('\n')[0]).toBe(heading)
    expect(readFileSync(stepSummary, 'utf8').split('\n')[0]).toBe(heading)
    expect(readFileSync(join(dir, 'e.md'), 'utf8')).toContain('  Not finished when the wait was interrupted (SIGTERM) (running).')
    expect(lines(r.stderr).slice(-2)).toEqual([
      `${GOING} w2`,
      `${AGAIN_SIGTERM} amctl runs watch w1 w2 --org acme --junit ${join(dir, 'e.xml')} --summary ${join(dir, 'e.md')} --html ${join(dir, 'e.html')}`,
    ])
  })

  it('a report path that cannot be written: exit 2 naming it, before any request', async () => {
    const dir = tempDir('amctl-watch-reports-')
    writeFileSync(join(dir, 'file'), '')
    for (const [flag, path, message] of [
      [
        '--junit',
        join(dir, 'file', 'evals.xml'),
        /^error: --junit .*file\/evals\.xml cannot be written: cannot create directory .*file: file already exists \(EEXIST\)/,
      ],
      ['--summary', dir, /^error: --summary .* is a directory; give a file path/],
      ['--junit', '/dev/null', /^error: --junit \/dev\/null is not a regular file/],
    ]) {
      const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', flag as string, path as string], {clock, signals, env: api.env()})
      expect(r.exitCode, r.stderr).toBe(2)
      expect(r.stderr).toMatch(message as RegExp)
    }
    expect(api.requests()).toHaveLength(0)
  })

  it('report paths are compared as files, stream paths are refused up front (issue 26 items 3, 4)', async () => {
    const dir = tempDir('amctl-watch-reports-')
    mkdirSync(join(dir, 'r'))
    writeFileSync(join(dir, 'r', 'a.xml'), '')
    symlinkSync(join(dir, 'r', 'a.xml'), join(dir, 'link.md'))
    symlinkSync('/dev/stdout', join(dir, 'out.md'))
    const cases: Array<[string[], RegExp]> = [
      [['--junit', join(dir, 'r', 'a.xml'), '--summary', `${dir}/./r/../r/a.xml`], /are the same file/],
      [['--junit', join(dir, 'r', 'a.xml'), '--summary', join(dir, 'link.md')], /are the same file/],
      [['--junit', join(dir, 'r', 'new.xml'), '--summary', join(dir, 'r', 'new.xml')], /are the same file/],
      [['--summary', '/dev/stdout'], /--summary \/dev\/stdout names a stream of this process/],
      [['--junit', '/dev/fd/1'], /names a stream of this process/],
      [['--junit', '/proc/self/fd/1'], /names a stream of this process/],
      [['--summary', join(dir, 'out.md')], /names a stream of this process/],
      [['--junit', join(dir, 'r', 'a.xml'), '--html', join(dir, 'link.md')], /--junit .* and --html .* are the same file/],
      [['--html', '/dev/stdout'], /--html \/dev\/stdout names a stream of this process/],
      [['--html', join(dir, 'r')], /--html .* is a directory/],
      // a run page's template: https (http only for loopback hosts), with {id}, and only with --html
      [['--html', join(dir, 'r.html'), '--run-url', 'http://app.example.com/runs/{id}'], /--run-url must use https/],
      [['--html', join(dir, 'r.html'), '--run-url', 'https://app.example.com/runs/'], /--run-url must hold \{id\}/],
      [['--html', join(dir, 'r.html'), '--run-url', 'https://ada:pw@app.example.com/{id}'], /--run-url must not carry a user name/],
      [['--run-url', 'https://app.example.com/runs/{id}'], /--run-url acts only with --html/],
      // --baseline RUN_ID naming a watched run
      [['--baseline', 'w1'], /--baseline w1 is one of the watched runs/],
    ]
    for (const [flags, message] of cases) {
      const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', ...flags], {clock, signals, env: api.env()})
      expect(r.exitCode, `${flags.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toMatch(message)
    }
    expect(api.requests()).toHaveLength(0)
  })

  it('$AMCTL_RUN_URL is --run-url for CI: checked with --html (exit 2 naming it), ignored without a report to put it in', async () => {
    const dir = tempDir('amctl-watch-run-url-')
    const bad = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--html', join(dir, 'r.html')], {
      clock,
      signals,
      env: api.env({AMCTL_RUN_URL: 'ftp://app.example.com/{id}'}),
    })
    expect(bad.exitCode, bad.stderr).toBe(2)
    expect(bad.stderr).toMatch(/^error: AMCTL_RUN_URL must use https/)
    expect(api.requests()).toHaveLength(0)
    serveHistory([{w1: 'succeeded:0.9'}])
    const ignored = await runCommand(RunsWatch, ['w1', '--org', 'acme'], {clock, signals, env: api.env({AMCTL_RUN_URL: 'ftp://x/{id}'})})
    expect(ignored.exitCode, ignored.stderr).toBe(0)
    serveHistory([{w1: 'succeeded:0.9'}])
    const html = join(dir, 'ok.html')
    const linked = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--html', html], {
      clock,
      signals,
      env: api.env({AMCTL_RUN_URL: 'https://app.example.com/runs/{id}?tab=logs'}),
    })
    expect(linked.exitCode, linked.stderr).toBe(0)
    expect(readFileSync(html, 'utf8')).toContain('"runUrl":"https://app.example.com/runs/{id}?tab=logs"')
  })

  it('a report that cannot be written at the end does not stop the others: they are written, then exit 1', async () => {
    const dir = tempDir('amctl-watch-reports-')
    mkdirSync(join(dir, 'j'))
    serveHistory([{w1: 'succeeded:0.9'}])
    // the JUnit path becomes a directory after the paths were checked: the summary is still written
    clock.onSleep = () => mkdirSync(join(dir, 'j', 'e.xml'), {recursive: true})
    serveHistory([{w1: 'running'}, {w1: 'succeeded:0.9'}])
    const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--junit', join(dir, 'j', 'e.xml'), '--summary', join(dir, 'e.md')], {
      clock,
      signals,
      env: api.env(),
    })
    expect(r.exitCode, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/e\.xml/)
    expect(readFileSync(join(dir, 'e.md'), 'utf8')).toMatch(/^### ✅ 1 run passed/)
  })

  it('GitHub Actions: the summary appended to $GITHUB_STEP_SUMMARY, one ::error per failing run on stderr; stdout stays data', async () => {
    const dir = tempDir('amctl-watch-gha-')
    const stepSummary = join(dir, 'step-summary.md')
    writeFileSync(stepSummary, '# earlier step\n')
    serveHistory([{w1: 'succeeded:0.61', w2: 'succeeded:0.95'}])
    const env = api.env({GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary})
    const r = await runCommand(RunsWatch, ['w1', 'w2', '--org', 'acme', '--baseline', 'previous', '--max-drop', '0.1'], {
      clock,
      signals,
      env,
    })
    expect(r.exitCode).toBe(10)
    expect(r.stdout).not.toContain('::')
    expect(r.stderr.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      '::error title=amctl%3A run w1 did not pass::es_1 codex / gpt-5: scored 0.61, 0.19 below baseline h2 (0.8; --max-drop 0.1)',
    ])
    const appended = readFileSync(stepSummary, 'utf8')
    expect(appended.startsWith('# earlier step\n### ❌ ')).toBe(true)
    serveHistory([{w1: 'succeeded:0.61'}])
    const off = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'previous', '--max-drop', '0.1', '--no-ci-annotations'], {
      clock,
      signals,
      env,
    })
    expect(off.exitCode).toBe(10)
    expect(off.stderr).not.toContain('::error')
    expect(readFileSync(stepSummary, 'utf8')).toBe(appended)
  })
})

describe('runs watch: piped rows keep their shape whatever the flags (issue 32 item 9)', () => {
  const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T09:00:00.000Z`
  const item = (id: string, day: number, score: number) => ({...run(id, 'succeeded', score), createdAt: at(day)})
  /** The watched run w1 (day 20) on the first page, its four earlier runs like it on the second. */
  function serve(): void {
    api.stub('GET /orgs/acme/runs', (req) => {
      const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
      if (cursor === 'p1')
        return reply(200, {
          items: [item('h4', 19, 0.71), item('h3', 18, 0.68), item('h2', 17, 0.72), item('h1', 16, 0.7)],
          nextCursor: null,
        })
      return reply(200, {items: [item('w1', 20, 0.75)], nextCursor: 'p1'})
    })
  }
  it('the `runs list` row of the run, then the gate’s fields: every field docs/scripting.md documents, in its place, whatever the flags', async () => {
    serve()
    const list = await runCommand(RunsList, ['--org', 'acme'], {clock, env: api.env()})
    const listRow = rowsIn(LIST_FIELDS, list.stdout).find((row) => row.ID === 'w1')
    expect(listRow).toEqual({...listed('w1', 'succeeded', 0.75), created: at(20)})
    const cases: Array<[string[], Record<string, string>]> = [
      [[], {verdict: 'passed'}],
      [['--min-score', '0.8'], {verdict: 'below-min-score'}],
      [['--baseline', 'previous'], {verdict: 'passed', 'baseline run': 'h4', 'baseline score': '0.71', delta: '0.04'}],
      [
        ['--baseline', 'previous', '--max-drop', '0.01', '--baseline-window', '0'],
        {verdict: 'improved', 'baseline run': 'h4', 'baseline score': '0.71', delta: '0.04'},
      ],
      [['--baseline', 'h2', '--max-drop', '0.1'], {verdict: 'passed', 'baseline run': 'h2', 'baseline score': '0.72', delta: '0.03'}],
      [
        ['--baseline', 'history'],
        {
          verdict: 'improved',
          'baseline score': '0.7025',
          delta: '0.0475',
          margin: '0.044935',
          'baseline sd': '0.017078',
          'baseline runs': '4',
          // margin + t(0.8, 3) × sd × √(1 + 1/4) = 0.044935 + 0.978472 × 0.017078 × 1.118034
          detectable: '0.063617',
          // runs watch launches nothing: one run can cross no threshold of a history that never failed, so the score keeps
          // the whole 95 % (docs/ci-reference.md "Failed and cancelled runs")
          confidence: '0.95',
          cancelled: '0',
          'baseline failure rate': '0',
        },
      ],
      [
        ['--baseline', 'history', '--baseline-runs', '3', '--confidence', '0.99', '--require-baseline'],
        {
          verdict: 'passed',
          'baseline score': '0.703333',
          delta: '0.046667',
          margin: '0.16741',
          'baseline sd': '0.020817',
          'baseline runs': '3',
          // 0.16741 + t(0.8, 2) × 0.020817 × √(1 + 1/3) = 0.16741 + 1.060660 × 0.020817 × 1.154701
          detectable: '0.192905',
          confidence: '0.99',
          cancelled: '0',
          'baseline failure rate': '0',
        },
      ],
      [['--baseline', 'history', '--baseline-window', '1d'], {verdict: 'no-baseline'}],
    ]
    for (const [flags, gate] of cases) {
      serve()
      const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', ...flags], {clock, env: api.env()})
      expect(fieldCounts(r.stdout), `${flags.join(' ')}: the fields docs/scripting.md documents, no more`).toEqual([RUN_FIELDS.length])
      expect(runRows(r.stdout), `${flags.join(' ')}: the runs list row, then the gate's fields`).toEqual([runRow({...listRow, ...gate})])
      // what `cut -f7` and `cut -f8` read: the score and the verdict, whatever the flags
      const fields = r.stdout.replace(/\n$/, '').split('\t')
      expect([fields[6], fields[7]]).toEqual(['0.75', gate.verdict])
    }
  })
})

describe('runs watch: a run the server lists more than once counts once in a baseline (issue 32 item 3)', () => {
  it('a history of one run listed five times is a history of one run: no baseline, and --require-baseline says 1', async () => {
    const at = (day: number) => `2026-11-${day}T09:00:00.000Z`
    const h1 = {...run('h1', 'succeeded', 0.7), createdAt: at(19)}
    // (each page with a run not listed before: a page of nothing but repeats ends the read, issue 37 item 12)
    const other = (id: string) => ({...run(id, 'succeeded', 0.9), evalSetId: 'es_other', createdAt: at(18)})
    api.stub('GET /orgs/acme/runs', (req) => {
      const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
      if (cursor === null) return reply(200, {items: [{...run('w1', 'succeeded', 0.5), createdAt: at(20)}, h1], nextCursor: 'p1'})
      if (cursor === 'p1') return reply(200, {items: [h1, h1, other('x1')], nextCursor: 'p2'})
      return reply(200, {items: [h1, other('x2'), h1], nextCursor: null})
    })
    const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'history', '--require-baseline', '--json'], {
      clock,
      env: api.env(),
    })
    expect(r.exitCode, r.stderr).toBe(10)
    expect(JSON.parse(r.stdout).items[0]).toMatchObject({id: 'w1', verdict: 'no-baseline', baseline: null})
    expect(r.stderr).toContain(
      'w1 no baseline: 1 earlier run of the same eval set, agent and model succeeded with a score within 30d (at least 3 needed) (--require-baseline)',
    )
  })
})

describe('runs watch: --wait-timeout bounds the whole wait, the search for baselines included (issue 32 item 4)', () => {
  const at = (day: number) => `2026-11-${day}T09:00:00.000Z`
  /** A list whose pages never end: each takes a second of the clock; the first holds w1, then pages of other targets' runs. */
  function endless(): {pages: () => number} {
    let pages = 0
    api.stub('GET /orgs/acme/runs', async (req) => {
      pages++
      await clock.sleep(1000)
      const page = Number(new URL(req.path, 'http://x').searchParams.get('cursor') ?? 0)
      const items =
        page === 0
          ? [{...run('w1', 'succeeded', 0.8), createdAt: at(20)}]
          : [{...run(`o${page}`, 'succeeded', 0.7), agent: 'other', createdAt: at(19)}]
      return reply(200, {items, nextCursor: String(page + 1)})
    })
    return {pages: () => pages}
  }

  it('--baseline history --wait-timeout 5 ends at 5 s with exit 11, saying the search was cut short; the run not judged', async () => {
    const server = endless()
    const dir = tempDir('amctl-cut-')
    const r = await runCommand(
      RunsWatch,
      [
        'w1',
        '--org',
        'acme',
        '--baseline',
        'history',
        '--wait-timeout',
        '5',
        '--junit',
        join(dir, 'e.xml'),
        '--summary',
        join(dir, 'e.md'),
      ],
      {clock, env: api.env()},
    )
    expect(r.exitCode, r.stderr).toBe(11)
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(5000)
    expect(server.pages()).toBe(5) // one poll, then four pages of the search, the fifth cut off
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      '! gave up after 5s (--wait-timeout) in the search for the baselines, which was cut short: 1 of 1 run not judged: w1',
    )
    // piped: the verdict is unfinished, the baseline fields empty
    expect(runRows(r.stdout)).toEqual([runRow({...listed('w1', 'succeeded', 0.8), created: at(20), verdict: 'unfinished'})])
    const [testcase] = parseJunit(readFileSync(join(dir, 'e.xml'), 'utf8')).testsuites.testsuite[0].testcase
    expect(testcase.skipped).toMatchObject({
      '@_message': 'not judged: the search for its baseline was cut short by --wait-timeout 5s (succeeded)',
    })
    expect(readFileSync(join(dir, 'e.md'), 'utf8').split('\n')[0]).toBe(
      '### ⏱️ 1 of 1 run not judged (the search for baselines was cut short) within --wait-timeout 5s',
    )
  })

  it('--json: the run\'s verdict is unfinished and it has no "baseline" member (null would say none was found)', async () => {
    endless()
    const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'previous', '--wait-timeout', '3', '--json'], {
      clock,
      env: api.env(),
    })
    expect(r.exitCode, r.stderr).toBe(11)
    const [item] = JSON.parse(r.stdout).items
    expect(item).toMatchObject({id: 'w1', status: 'succeeded', verdict: 'unfinished', delta: null})
    expect(item).not.toHaveProperty('baseline')
  })

  it('--baseline RUN_ID not in a list whose pages never end: exit 11 at the limit, wait_timeout, nothing watched', async () => {
    const server = endless()
    const r = await runCommand(RunsWatch, ['w1', '--org', 'acme', '--baseline', 'base', '--wait-timeout', '4'], {clock, env: api.env()})
    expect(r.exitCode).toBe(11)
    expect(r.stderr).toBe(
      'error: --baseline base: gave up after 4s (--wait-timeout) looking for it among the runs of acme; nothing was launched or watched (wait_timeout)\n',
    )
    expect(server.pages()).toBe(4)
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(4000)
  })
})

describe('runs watch --baseline-file --update-baseline: the update never takes the verdict with it (issue 37 items 3 and 6)', () => {
  /** A baseline file at `dir` whose codex / gpt-5 group holds 10 runs at 0.70 ± 0.01, created before the runs watched. */
  function baselineFile(dir: string): string {
    const path = join(dir, 'b.json')
    const runs = Array.from({length: 10}, (_, i) => ({
      id: `b${i}`,
      score: i % 2 === 0 ? 0.69 : 0.71,
      createdAt: new Date(Date.UTC(2025, 11, 1, 0, i)).toISOString(),
    }))
    writeFileSync(
      path,
      baselineFileText({
        version: 2,
        org: 'acme',
        evalSetId: 'es_1',
        savedAt: '2025-12-02T00:00:00.000Z',
        keep: 20,
        groups: [{agent: 'codex', model: 'gpt-5', ...groupStats(runs), runs, setAside: [], failed: [], cancelled: []}],
      }),
    )
    return path
  }

  it.each([
    ['passes', 0.7, 1],
    ['regressed', 0.3, 10],
  ])(
    "a step that %s (its run scores %s) and whose file was made invalid during the wait: exit %i, the update's failure its own line and member",
    async (_, score, code) => {
      const dir = tempDir('amctl-watch-update-')
      const path = baselineFile(dir)
      serveRuns([['r1']], [{r1: 'running'}, {r1: `succeeded:${score}`}])
      // the file truncated while the step waits (a checkout, another job)
      clock.onSleep = () => writeFileSync(path, '{"version": 2')
      const r = await runCommand(RunsWatch, ['r1', '--org', 'acme', '--baseline-file', path, '--update-baseline', '--json'], {
        clock,
        signals,
        env: api.env(),
      })
      expect(r.exitCode, r.stderr).toBe(code)
      const doc = JSON.parse(r.stdout)
      expect(doc.items[0].verdict).toBe(score === 0.7 ? 'passed' : 'regressed')
      expect(doc.baselineUpdate).toMatchObject({path, updated: false, added: 0, error: {code: 'invalid_request'}})
      expect(r.stderr).toContain(
        `error: --update-baseline: ${path} was not updated: baseline file ${path}: not JSON at line 1, column 14: a } expected (invalid_request)\n`,
      )
      expect(readFileSync(path, 'utf8')).toBe('{"version": 2')
    },
  )

  it('a report path that is the baseline file, a link or a hard link to it: exit 2 before any request, the file untouched (item 6)', async () => {
    const dir = tempDir('amctl-watch-update-')
    const path = baselineFile(dir)
    symlinkSync(path, join(dir, 'link.md'))
    linkSync(path, join(dir, 'hard.xml'))
    const before = readFileSync(path, 'utf8')
    for (const [flag, report] of [
      ['--junit', path],
      ['--summary', join(dir, 'link.md')],
      ['--junit', join(dir, 'hard.xml')],
    ]) {
      for (const update of [[], ['--update-baseline']]) {
        const r = await runCommand(RunsWatch, ['r1', '--org', 'acme', '--baseline-file', path, ...update, flag, report], {
          clock,
          signals,
          env: api.env(),
        })
        expect(r.exitCode, `${flag} ${report} ${update}`).toBe(2)
        expect(r.stderr).toMatch(/^error: --(junit|summary|baseline-file) .* and --(junit|summary|baseline-file) .* are the same file/)
      }
    }
    expect(api.requests()).toEqual([])
    expect(readFileSync(path, 'utf8')).toBe(before)
  })
})

describe('runs watch --baseline-file --update-baseline: a group whose level moved is said to be taken in (issue 35 §3)', () => {
  /** A file of codex / gpt-5's 20 runs around 0.84 (sd 0.02), created the hour before the runs watched. */
  function levelFile(dir: string): string {
    const scores = [0.84, 0.82, 0.86, 0.83, 0.85, 0.84, 0.81, 0.87, 0.84, 0.84, 0.83, 0.85, 0.86, 0.82, 0.84, 0.84, 0.85, 0.83, 0.82, 0.86]
    const runs = scores.map((score, i) => ({id: `b${i}`, score, createdAt: new Date(Date.UTC(2025, 11, 31, 23, i)).toISOString()}))
    return writeBaseline(join(dir, 'b.json'), {savedAt: '2025-12-31T23:30:00.000Z'}, [{agent: 'codex', model: 'gpt-5', runs}])
  }
  const STEP = ['r1', 'r2', 'r3', 'r4', 'r5']

  it('a step of 5 runs at 0.77: one warning line on stderr, `changes` and `warnings` in --json, a ::warning in GitHub Actions; the file updated all the same', async () => {
    const path = levelFile(tempDir('amctl-watch-level-'))
    serveRuns([STEP], [Object.fromEntries(STEP.map((id, i) => [id, `succeeded:${[0.77, 0.76, 0.78, 0.77, 0.77][i]}`]))])
    const line = 'codex / gpt-5 moved from 0.84 to 0.77 at r1 (−0.07, 4.4 sd): this update makes it the baseline'
    const r = await runCommand(RunsWatch, [...STEP, '--org', 'acme', '--baseline-file', path, '--update-baseline', '--json'], {
      clock,
      signals,
      env: api.env({GITHUB_ACTIONS: 'true'}),
    })
    expect(r.exitCode, r.stderr).toBe(10)
    expect(lines(r.stderr)).toContain(`warning: ${line}`)
    expect(lines(r.stderr)).toContain(`::warning title=amctl%3A --update-baseline takes in a change of level::${line}`)
    const doc = JSON.parse(r.stdout)
    expect(doc.baselineUpdate).toMatchObject({updated: true, added: 5, warnings: [line]})
    expect(doc.baselineUpdate.changes).toEqual([
      {
        kind: 'level',
        group: 'codex / gpt-5',
        agent: 'codex',
        model: 'gpt-5',
        from: 0.84,
        to: 0.77,
        delta: -0.07,
        // the sd of the level before (the file's 20 runs), and the drop in it
        sd: 0.015894,
        sds: 4.40407,
        runId: 'r1',
        createdAt: '2026-01-01T00:00:00.000Z',
      },
    ])
    expect(doc.gate.baselineUpdate.changes).toEqual(doc.baselineUpdate.changes)
    expect(
      baselineAt(path)
        .groups[0].runs.map((run) => run.id)
        .slice(-5),
    ).toEqual(STEP)
  })

  it("piped and on a terminal (no --json): the warning on stderr, after the update's line; stdout holds the runs only", async () => {
    const line = 'codex / gpt-5 moved from 0.84 to 0.77 at r1 (−0.07, 4.4 sd): this update makes it the baseline'
    for (const tty of [false, true]) {
      const path = levelFile(tempDir('amctl-watch-level-'))
      serveRuns([STEP], [Object.fromEntries(STEP.map((id, i) => [id, `succeeded:${[0.77, 0.76, 0.78, 0.77, 0.77][i]}`]))])
      const r = await runCommand(RunsWatch, [...STEP, '--org', 'acme', '--baseline-file', path, '--update-baseline'], {
        clock,
        signals,
        env: api.env(),
        tty,
        columns: 120,
      })
      expect(r.exitCode, r.stderr).toBe(10)
      const err = lines(r.stderr)
      const update = err.indexOf(`--update-baseline: added 5 runs to ${path}: 5 to codex / gpt-5`)
      expect(update, `tty ${tty}: ${r.stderr}`).toBeGreaterThanOrEqual(0)
      expect(err.slice(update + 1)).toContain(`warning: ${line}`)
      expect(err.filter((l) => l.startsWith('warning: '))).toEqual([`warning: ${line}`])
      expect(r.stderr, 'not in GitHub Actions: no annotation').not.toContain('::warning')
      expect(r.stdout).not.toContain('moved from')
      expect(r.stdout).toContain('r1')
    }
  })

  it('a step at the same level: no warning anywhere, `changes` and `warnings` empty', async () => {
    const path = levelFile(tempDir('amctl-watch-level-'))
    serveRuns([STEP], [Object.fromEntries(STEP.map((id, i) => [id, `succeeded:${[0.84, 0.83, 0.85, 0.84, 0.86][i]}`]))])
    const r = await runCommand(RunsWatch, [...STEP, '--org', 'acme', '--baseline-file', path, '--update-baseline', '--json'], {
      clock,
      signals,
      env: api.env({GITHUB_ACTIONS: 'true'}),
    })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).not.toMatch(/^(warning: |::warning)/m)
    expect(JSON.parse(r.stdout).baselineUpdate).toMatchObject({updated: true, added: 5, changes: [], warnings: []})
  })
})
