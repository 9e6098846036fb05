import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {beforeEach, describe, expect, it} from 'vitest'
import EvalsRun from '../../../src/commands/evals/run.js'
import {runCommand} from '../../helpers/cli.js'
import {FAKE_WALL_START, type FakeClock, fakeClock} from '../../helpers/fake-clock.js'
import {dropConnection, envelope, json, type Reply, reply, unchecked, useFakeApi} from '../../helpers/fake-api.js'
import {readRecent} from '../../../src/core/recent.js'
import {tempDir} from '../../helpers/temp.js'
import {fakeSignals} from '../../helpers/fake-signals.js'
import {baselineFileText, groupStats} from '../../../src/gate/baseline-file.js'
import {parseJunit} from '../../gate/reports/fixtures.js'
import {lines} from '../../helpers/output.js'
import {gatedRun, numberedLaunches as launchesOf, saveBaselineFile, serveRuns, terminalTable} from './fixtures.js'
import {fieldCounts, GROUP_FIELDS, LIST_FIELDS, rowOf, rowsIn, runRow, runRows} from '../../helpers/tsv.js'

const runs = [
  {
    id: 'run_2',
    status: 'queued',
    evalSetId: 'es_1',
    batchId: 'b_1',
    createdAt: '2026-01-02T00:00:00Z',
    forkedFrom: null,
    agent: null,
    model: null,
    score: null,
  },
]
const api = useFakeApi(
  {
    'POST /orgs/acme/eval-sets/es_1/run': {batchIds: ['b_1'], runIds: ['run_2', 'run_3']},
    'GET /orgs/acme/runs': {items: runs, nextCursor: null},
  },
  {me: false},
)

describe('evals run', () => {
  it('sends POST …/eval-sets/{id}/run with {} and prints batchIds and runIds', async () => {
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(api.requests()[0]).toMatchObject({method: 'POST', path: '/api/v1/orgs/acme/eval-sets/es_1/run'})
    expect(json(api.requests()[0])).toEqual({})
    expect(r.stdout).toBe('batchIds\t["b_1"]\nrunIds\t["run_2","run_3"]\n')
    expect(r.stderr).toContain('Launched eval set es_1: 1 batch, 2 runs')
    const j = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--json'], {env: api.env()})
    expect(JSON.parse(j.stdout)).toEqual({batchIds: ['b_1'], runIds: ['run_2', 'run_3']})
  })

  it('keeps the eval set, the runs it launched and the organization for shell completion', async () => {
    const env = {...api.env(), AMCTL_CACHE_DIR: tempDir('amctl-cache-')}
    expect((await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env})).exitCode).toBe(0)
    const seen = readRecent(env, FAKE_WALL_START)
    expect(seen.evalSets.map((e) => [e.id, e.org])).toEqual([['es_1', 'acme']])
    expect(seen.runs.map((e) => [e.id, e.org, e.note])).toEqual([
      ['run_2', 'acme', 'launched, es_1'],
      ['run_3', 'acme', 'launched, es_1'],
    ])
    expect(seen.orgs.map((o) => o.id)).toEqual(['acme'])
  })

  it('when the connection drops after sending: no resubmission, newest runs listed, exit 9', async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
      throw dropConnection()
    })
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--json'], {env: api.env()})
    expect(r.exitCode).toBe(9)
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({outcome: 'unknown', recentRuns: runs})
    expect(doc.error.code).toBe('outcome_unknown')
    const launches = api.requests().filter((q) => q.method === 'POST')
    expect(launches).toHaveLength(1)
    expect(api.requests().at(-1)!.path).toBe('/api/v1/orgs/acme/runs?limit=10')

    const human = await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env: api.env()})
    expect(human.exitCode).toBe(9)
    expect(human.stderr).toMatch(/the server may have accepted the request; check before retrying \(outcome_unknown\)/)
    // the newest runs' `runs list` rows (docs/scripting.md), agent, model and score empty
    expect(rowsIn(LIST_FIELDS, human.stdout)).toEqual([
      rowOf(LIST_FIELDS, {ID: 'run_2', status: 'queued', 'eval set': 'es_1', created: '2026-01-02T00:00:00Z'}),
    ])
    expect(fieldCounts(human.stdout)).toEqual([LIST_FIELDS.length])
  })

  it('402 insufficient_credits exits 8', async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => envelope(402, 'insufficient_credits', 'no credits left'))
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(8)
    expect(r.stderr).toBe('error: no credits left (insufficient_credits, HTTP 402)\n')
  })
})

describe('evals run --wait (contract 5)', () => {
  let clock: FakeClock
  beforeEach(() => {
    clock = fakeClock()
  })

  const launched = (id: string, status: string, score: number | null = null) => ({
    id,
    status,
    evalSetId: 'es_1',
    batchId: 'b_1',
    createdAt: '2026-01-02T00:00:00Z',
    forkedFrom: null,
    agent: null,
    model: null,
    score,
  })

  /** The launched runs queued at the first poll, then `final` (status:score per run). */
  function progress(final: Record<string, string>): void {
    let polls = 0
    api.stub('GET /orgs/acme/runs', () => {
      polls++
      const items = ['run_3', 'run_2'].map((id) => {
        const [status, score] = polls === 1 ? ['queued'] : final[id].split(':')
        return launched(id, status, score === undefined ? null : Number(score))
      })
      return reply(200, {items, nextCursor: 'older'})
    })
  }

  const wire = () => api.requests().map((q) => `${q.method} ${q.path.replace('/api/v1', '')}`)

  /** Launch N answers batch b_N and run run_N (`runIds` says otherwise). */
  function numberedLaunches(runIds = (n: number) => [`run_${n}`]): void {
    let launches = 0
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
      launches++
      return reply(200, {batchIds: [`b_${launches}`], runIds: runIds(launches)})
    })
  }

  it('launches once, then waits for the runIds: piped, stdout holds the runs alone; exit 0', async () => {
    progress({run_2: 'succeeded:0.9', run_3: 'succeeded:0.7'})
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--interval', '2'], {clock, env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(wire()).toEqual(['POST /orgs/acme/eval-sets/es_1/run', 'GET /orgs/acme/runs?limit=200', 'GET /orgs/acme/runs?limit=200'])
    const launchedRow = (id: string, score: number) =>
      runRow({ID: id, status: 'succeeded', 'eval set': 'es_1', created: '2026-01-02T00:00:00Z', score, verdict: 'passed'})
    expect(runRows(r.stdout)).toEqual([launchedRow('run_2', 0.9), launchedRow('run_3', 0.7)])
    expect(r.stderr).toBe(
      [
        'Launched eval set es_1: 1 batch, 2 runs',
        'watching 2 runs of acme: a poll every 2s, up to 1h',
        'run_2 queued',
        'run_3 queued',
        'run_2 queued → succeeded (score 0.90)',
        'run_3 queued → succeeded (score 0.70)',
        '✓ all 2 runs succeeded (2s)',
        '',
      ].join('\n'),
    )
  })

  it('--json: the launch response with a "runs" member; exit 10 when a run did not pass', async () => {
    progress({run_2: 'succeeded:0.9', run_3: 'failed'})
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--json'], {clock, env: api.env()})
    expect(r.exitCode).toBe(10)
    const runs = [
      {...launched('run_2', 'succeeded', 0.9), verdict: 'passed', decision: {rule: 'succeeded'}},
      {...launched('run_3', 'failed'), verdict: 'failed', decision: {rule: 'status', failed: 1, of: 1, statuses: ['failed']}},
    ]
    const {gate, ...doc} = JSON.parse(r.stdout)
    expect(doc).toEqual({batchIds: ['b_1'], runIds: ['run_2', 'run_3'], runs, unfinishedRunIds: []})
    // the result the reports are made from, the server's objects left to "runs"
    expect(gate).toMatchObject({
      end: 'not-passed',
      org: 'acme',
      runs: [
        {id: 'run_2', verdict: 'passed', outcome: 'passed', score: 0.9},
        {id: 'run_3', verdict: 'failed', outcome: 'failed', failure: {rule: 'status'}},
      ],
      unfinishedRunIds: [],
    })
    expect(gate.runs[0]).not.toHaveProperty('run')
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
  })

  it('on a terminal: the live view, then the runs as a table; --min-score applies', async () => {
    progress({run_2: 'succeeded:0.9', run_3: 'succeeded:0.3'})
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--min-score', '0.5'], {clock, env: api.env(), tty: true})
    expect(r.exitCode).toBe(10)
    expect(r.stderr).toMatch(/^Launched eval set es_1: 1 batch, 2 runs\nRUN +STATUS +ELAPSED +SCORE +VERDICT\n/)
    // the last frame before the view is erased: each run's verdict
    expect(r.stderr).toMatch(/\nrun_2 +succeeded +\S+ +0\.90 +passed\nrun_3 +succeeded +\S+ +0\.30 +below-min-score\n/)
    expect(r.stderr).toMatch(/\u001B\[\d+F\u001B\[J✗ 1 of 2 runs did not pass: run_3 scored 0\.3 \(below 0\.5\) \(5s\)\n$/)
    expect(r.stdout).toMatch(
      /^ID +STATUS +EVAL SET +SCORE +CREATED +VERDICT\nrun_2 +succeeded +es_1 +0\.90 .*\nrun_3 +succeeded +es_1 +0\.30 /,
    )
  })

  it('--wait keeps the runs in their last state for shell completion', async () => {
    progress({run_2: 'succeeded:0.9', run_3: 'failed'})
    const env = {...api.env(), AMCTL_CACHE_DIR: tempDir('amctl-cache-')}
    expect((await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait'], {clock, env})).exitCode).toBe(10)
    expect(readRecent(env, FAKE_WALL_START).runs.map((e) => [e.id, e.note])).toEqual([
      ['run_2', 'succeeded, es_1'],
      ['run_3', 'failed, es_1'],
    ])
  })

  it('the time limit: exit 11 with the last known states', async () => {
    progress({run_2: 'running', run_3: 'succeeded'})
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--wait-timeout', '30s', '--json'], {clock, env: api.env()})
    expect(r.exitCode).toBe(11)
    expect(JSON.parse(r.stdout).runs.map((run: {status: string}) => run.status)).toEqual(['running', 'succeeded'])
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(30_000)
  })

  it('an unknown launch outcome is still exit 9 with the recent runs: no second launch, no wait', async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
      throw dropConnection()
    })
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--json'], {clock, env: api.env()})
    expect(r.exitCode).toBe(9)
    expect(JSON.parse(r.stdout)).toMatchObject({outcome: 'unknown', recentRuns: runs})
    expect(wire()).toEqual(['POST /orgs/acme/eval-sets/es_1/run', 'GET /orgs/acme/runs?limit=10'])
    expect(clock.sleeps).toEqual([])
  })

  it('--repeat 3 whose second launch gets no answer: exit 9, no third launch, nothing waited for; the first launch named', async () => {
    let launches = 0
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
      if (++launches === 2) throw dropConnection()
      return reply(200, {batchIds: ['b_1'], runIds: ['run_2', 'run_3']})
    })
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--repeat', '3', '--json'], {clock, env: api.env()})
    expect(r.exitCode).toBe(9)
    expect(JSON.parse(r.stdout)).toMatchObject({outcome: 'unknown', launches: [{batchIds: ['b_1'], runIds: ['run_2', 'run_3']}]})
    expect(r.stderr).toContain(
      'launch 2 of 3 got no answer; no further launch was made and nothing is waited for: the earlier launches started run_2, run_3',
    )
    expect(wire()).toEqual(['POST /orgs/acme/eval-sets/es_1/run', 'POST /orgs/acme/eval-sets/es_1/run', 'GET /orgs/acme/runs?limit=10'])
    expect(clock.sleeps).toEqual([])
  })

  it('--repeat 2: two launches one after another, one group per agent and model judged on the mean; --json has launches and groups', async () => {
    numberedLaunches()
    api.stub('GET /orgs/acme/runs', () =>
      reply(200, {
        items: [
          {...launched('run_2', 'succeeded', 0.6), agent: 'a', model: 'm'},
          {...launched('run_1', 'failed', null), agent: 'a', model: 'm'},
        ],
        nextCursor: null,
      }),
    )
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--repeat', '2', '--json'], {clock, env: api.env()})
    // one of two failed: half, so the group failed (broken, not flaky)
    expect(r.exitCode, r.stderr).toBe(10)
    const doc = JSON.parse(r.stdout)
    expect(doc.launches).toEqual([
      {batchIds: ['b_1'], runIds: ['run_1']},
      {batchIds: ['b_2'], runIds: ['run_2']},
    ])
    expect(doc.runIds).toEqual(['run_1', 'run_2'])
    expect(doc.groups).toEqual([
      {
        id: 'es_1 a / m',
        agent: 'a',
        model: 'm',
        evalSetId: 'es_1',
        runIds: ['run_1', 'run_2'],
        scores: [null, 0.6],
        statuses: ['failed', 'succeeded'],
        score: null,
        failures: 1,
        flaky: false,
        verdict: 'failed',
        decision: {rule: 'status', failed: 1, of: 2, statuses: ['failed']},
        k: 0,
        decidedAt: null,
      },
    ])
    expect(doc.runs.map((x: any) => x.verdict)).toEqual(['failed', 'failed'])
    expect(wire().filter((w) => w.startsWith('POST'))).toHaveLength(2)
  })

  it("--repeat on a terminal: a run's verdict shows once its whole group is decided, not while another run of it is going", async () => {
    numberedLaunches()
    let polls = 0
    api.stub('GET /orgs/acme/runs', () => {
      polls++
      const items = [
        {...launched('run_2', polls === 1 ? 'running' : 'succeeded', polls === 1 ? null : 0.6), agent: 'a', model: 'm'},
        {...launched('run_1', 'succeeded', 0.7), agent: 'a', model: 'm'},
      ]
      return reply(200, {items, nextCursor: null})
    })
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--repeat', '2'], {clock, env: api.env(), tty: true})
    expect(r.exitCode, r.stderr).toBe(0)
    const frames = r.stderr.split(/\u001B\[\d+F\u001B\[J/)
    // the first frame: run_1 finished, its group not decided (run_2 is running): no verdict yet
    expect(frames[0]).toMatch(/\nrun_1 +succeeded +\S+ +0\.70\n/)
    expect(frames[0]).toMatch(/\nrun_2 +running +\S+\n/)
    // the last frame before the summary: both runs carry the group's verdict
    expect(frames.at(-2)).toMatch(/\nrun_1 +succeeded +\S+ +0\.70 +passed\nrun_2 +succeeded +\S+ +0\.60 +passed\n/)
  })

  it('--repeat piped: one row per group whose fields keep their places whatever the flags (issue 32 item 9)', async () => {
    const earlier = (id: string, hour: number, score: number) => ({
      ...launched(id, 'succeeded', score),
      agent: 'a',
      model: 'm',
      createdAt: `2026-01-01T0${hour}:00:00Z`,
    })
    const serve = () => {
      numberedLaunches()
      api.stub('GET /orgs/acme/runs', () =>
        reply(200, {
          items: [
            {...launched('run_3', 'failed'), agent: 'a', model: 'm'},
            {...launched('run_2', 'succeeded', 0.8), agent: 'a', model: 'm'},
            {...launched('run_1', 'succeeded', 0.7), agent: 'a', model: 'm'},
            earlier('h4', 4, 0.71),
            earlier('h3', 3, 0.68),
            earlier('h2', 2, 0.72),
            earlier('h1', 1, 0.7),
          ],
          nextCursor: null,
        }),
      )
    }
    // eval set, agent, model, run IDs, failed, score (docs/scripting.md), then the gate's fields: verdict
    // (never "passed (flaky)"), baseline run, baseline score, delta, margin, baseline sd, baseline runs … k
    const group = {'eval set': 'es_1', agent: 'a', model: 'm', 'run IDs': 'run_1,run_2,run_3', failed: '1', score: '0.75', k: '2'}
    // without a baseline of many runs nothing explains the failed run: the group fails on it (no score, k 0, no delta);
    // against the history (whose runs never failed) one failure in three is within its rate: judged on the other two
    const failed = {verdict: 'failed', score: '', k: '0'}
    const cases: Array<[string[], Record<string, string>, number]> = [
      [[], failed, 10],
      [['--baseline', 'previous'], {...failed, 'baseline run': 'h4', 'baseline score': '0.71'}, 10],
      [['--baseline', 'h1', '--max-drop', '0.01'], {...failed, 'baseline run': 'h1', 'baseline score': '0.7'}, 10],
      [
        ['--baseline', 'history'],
        {
          verdict: 'improved',
          'baseline score': '0.7025',
          delta: '0.0475',
          // at the score test's share once the failure test took its size (one failure of three, within the rate)
          margin: '0.042381',
          'baseline sd': '0.017078',
          'baseline runs': '4',
          // k = 2 (one of the three runs failed): 0.042381 + t(0.8, 3) × 0.017078 × √(1/2 + 1/4)
          detectable: '0.056853',
          confidence: '0.967857',
          cancelled: '0',
          'baseline failure rate': '0',
          // one failure of the 3 runs (7 with the relaunches) against 0 of 4: P(1 or more in 3) = 1 − (5·6·7)/(6·7·8)
          'failure p': '0.375',
          'detectable failure rate': '0.928318',
        },
        0,
      ],
    ]
    for (const [flags, gate, code] of cases) {
      serve()
      const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--repeat', '3', ...flags], {clock, env: api.env()})
      expect(r.exitCode, `${flags.join(' ')}: ${r.stderr}`).toBe(code)
      expect(fieldCounts(r.stdout), `${flags.join(' ')}: the fields docs/scripting.md documents, no more`).toEqual([GROUP_FIELDS.length])
      expect(rowsIn(GROUP_FIELDS, r.stdout), flags.join(' ')).toEqual([rowOf(GROUP_FIELDS, {...group, ...gate})])
    }
  })

  it("--repeat 3 whose second launch answers a run the first one did: a bad answer, exit 1, no third launch, nothing waited for, launch 1's runs named (issue 32 item 5, issue 35 §2)", async () => {
    numberedLaunches((n) => (n === 1 ? ['run_1', 'run_a'] : ['run_2', 'run_1']))
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--repeat', '3'], {clock, env: api.env()})
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      [
        '2 runs still going on the server (the API cannot cancel runs): run_1 run_a',
        'error: launch 2 of 3 failed: its answer repeats run IDs an earlier launch returned: run_1 (a launch starts new runs); no further launch was made (bad_response)',
        '',
      ].join('\n'),
    )
    expect(wire()).toEqual(['POST /orgs/acme/eval-sets/es_1/run', 'POST /orgs/acme/eval-sets/es_1/run'])
    // every launch answering the same run: the same; --json keeps the launches and their runs beside the error
    numberedLaunches(() => ['run_1'])
    const json = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--repeat', '2', '--json'], {clock, env: api.env()})
    expect(json.exitCode).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({
      batchIds: ['b_1'],
      runIds: ['run_1'],
      launches: [{batchIds: ['b_1'], runIds: ['run_1']}],
      runs: [],
      unfinishedRunIds: ['run_1'],
      error: {
        code: 'bad_response',
        message:
          'launch 2 of 2 failed: its answer repeats run IDs an earlier launch returned: run_1 (a launch starts new runs); no further launch was made',
      },
    })
    expect(clock.sleeps).toEqual([])
  })

  it('a launch answer that lists a run twice is a bad answer too: exit 1, nothing waited for (issue 32 item 5)', async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', {batchIds: ['b_1'], runIds: ['run_1', 'run_1']})
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait'], {clock, env: api.env()})
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toBe("error: the launch answer's runIds lists run_1 more than once (a launch starts new runs) (bad_response)\n")
    expect(wire()).toEqual(['POST /orgs/acme/eval-sets/es_1/run'])
  })

  it('--repeat is checked: 1–20, and only with --wait', async () => {
    for (const [args, message] of [
      [['--repeat', '2'], /--repeat acts only with --wait/],
      [['--wait', '--repeat', '21'], /--repeat must be from 1 to 20, got 21/],
      [['--wait', '--repeat', '0'], /--repeat must be from 1 to 20, got 0/],
    ] as const) {
      const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', ...args], {clock, env: api.env()})
      expect(r.exitCode).toBe(2)
      expect(r.stderr).toMatch(message)
    }
    expect(api.requests()).toEqual([])
  })

  it('Ctrl-C: exit 130 and the command that watches the launched runs again', async () => {
    progress({run_2: 'running', run_3: 'running'})
    const signals = fakeSignals()
    clock.onSleep = () => signals.raise('SIGINT')
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--fail-fast'], {clock, signals, env: api.env()})
    expect(r.exitCode).toBe(130)
    expect(r.stdout).toBe('')
    // (the notice's words: test/commands/runs/watch.test.ts; here the command it gives)
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(/^interrupted \(Ctrl-C\): .* amctl runs watch run_2 run_3 --org acme --fail-fast$/)
    expect(wire().filter((w) => w.startsWith('POST'))).toHaveLength(1)
    expect(signals.listening('SIGINT'), 'no SIGINT listener outlives the wait').toBe(0)
  })

  it('SIGTERM (a cancelled CI job): exit 143, the reports saying SIGTERM, the runs still going named, the command that watches them again', async () => {
    progress({run_2: 'running', run_3: 'running'})
    const signals = fakeSignals()
    clock.onSleep = () => signals.raise('SIGTERM')
    const dir = tempDir('amctl-run-sigterm-')
    const [junit, summary] = [join(dir, 'e.xml'), join(dir, 'e.md')]
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--json', '--junit', junit, '--summary', summary], {
      clock,
      signals,
      env: api.env(),
    })
    expect(r.exitCode).toBe(143)
    expect(r.stdout).toBe('')
    expect(lines(r.stderr).slice(-2)).toEqual([
      '2 runs still going on the server (the API cannot cancel runs): run_2 run_3',
      `interrupted (SIGTERM): stopped watching; the runs go on. Watch them again with: amctl runs watch run_2 run_3 --org acme --junit ${junit} --summary ${summary}`,
    ])
    const [suite] = parseJunit(readFileSync(junit, 'utf8')).testsuites.testsuite
    expect(suite.testcase.map((c: any) => c.skipped['@_message'])).toEqual([
      'not finished when the wait was interrupted (SIGTERM) (queued)',
      'not finished when the wait was interrupted (SIGTERM) (queued)',
    ])
    expect(readFileSync(summary, 'utf8').split('\n')[0]).toBe('### ⏹️ Interrupted (SIGTERM): 2 of 2 runs not finished')
    expect(wire().filter((w) => w.startsWith('POST'))).toHaveLength(1)
    expect(signals.listening('SIGTERM'), 'no SIGTERM listener outlives the wait').toBe(0)
  })

  it('--repeat 2, SIGTERM during the wait: exit 143, the groups reported as interrupted by SIGTERM, every launched run named', async () => {
    api.stub('GET /orgs/acme/runs', () =>
      reply(200, {
        items: [
          {...launched('run_2', 'running'), agent: 'a', model: 'm'},
          {...launched('run_1', 'succeeded', 0.7), agent: 'a', model: 'm'},
        ],
        nextCursor: null,
      }),
    )
    const signals = fakeSignals()
    const heard: number[] = []
    api.stub(
      'POST /orgs/acme/eval-sets/es_1/run',
      (() => {
        let launches = 0
        return () => {
          // a launch in flight is the step's: Ctrl-C and SIGTERM are listened for (issue 35 §2)
          heard.push(signals.listening('SIGTERM') + signals.listening('SIGINT'))
          launches++
          return reply(200, {batchIds: [`b_${launches}`], runIds: [`run_${launches}`]})
        }
      })(),
    )
    clock.onSleep = (n) => n === 3 && signals.raise('SIGTERM')
    const summary = join(tempDir('amctl-run-sigterm-'), 'e.md')
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--repeat', '2', '--summary', summary], {
      clock,
      signals,
      env: api.env(),
    })
    expect(r.exitCode).toBe(143)
    expect(r.stdout).toBe('')
    expect(heard).toEqual([2, 2])
    expect(lines(r.stderr).slice(-2)).toEqual([
      '1 run still going on the server (the API cannot cancel runs): run_2',
      'interrupted (SIGTERM): stopped watching; the runs go on. Watch them again with: amctl runs watch run_1 run_2 --org acme --summary ' +
        summary,
    ])
    const text = readFileSync(summary, 'utf8')
    expect(text.split('\n')[0]).toBe('### ⏹️ Interrupted (SIGTERM): 1 of 1 group not finished')
    expect(text).toContain('Not finished when the wait was interrupted (SIGTERM) (1 of 2 runs).')
    expect(signals.listening('SIGTERM')).toBe(0)
  })

  it("--repeat 3, launch 2 answers 500 after its retries: exit 1, launch 1's run named, --json keeps it, the reports written (issue 35 §2)", async () => {
    let posts = 0
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
      posts++
      return posts === 1 ? reply(200, {batchIds: ['b_1'], runIds: ['run_1']}) : reply(500, {error: {code: 'internal', message: 'fail'}})
    })
    const dir = tempDir('amctl-run-500-')
    const [summary, junit, html] = [join(dir, 'e.md'), join(dir, 'e.xml'), join(dir, 'e.html')]
    const r = await runCommand(
      EvalsRun,
      ['es_1', '--org', 'acme', '--wait', '--repeat', '3', '--json', '--summary', summary, '--junit', junit, '--html', html],
      {
        clock,
        env: api.env(),
      },
    )
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('1 run still going on the server (the API cannot cancel runs): run_1\n')
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({launches: [{batchIds: ['b_1'], runIds: ['run_1']}], runIds: ['run_1'], unfinishedRunIds: ['run_1']})
    expect(doc.error).toMatchObject({code: 'internal'})
    expect(doc.error.message).toMatch(/^launch 2 of 3 failed: fail; no further launch was made$/)
    const text = readFileSync(summary, 'utf8')
    expect(text.split('\n')[0]).toBe('### ⚠️ Launch 2 of 3 failed: fail; no further launch was made; 1 of 1 group not judged')
    expect(parseJunit(readFileSync(junit, 'utf8')).testsuites.testsuite[0].testcase[0].skipped['@_message']).toMatch(
      /^not judged: launch 2 of 3 failed/,
    )
    expect(readFileSync(html, 'utf8')).toContain(
      '<title>amctl: launch 2 of 3 failed: fail; no further launch was made; 1 of 1 group not judged</title>',
    )
    // no launch after it
    expect(wire().filter((w) => w.startsWith('POST'))).toHaveLength(2)
  })

  it.each([
    [1, ['--repeat', '3'], 'the launch may have happened'],
    [2, ['--repeat', '3'], "launch 1's run named"],
  ])('SIGTERM while launch %i is in flight: exit 143, %s, the reports written (issue 35 §2)', async (at) => {
    const signals = fakeSignals()
    let posts = 0
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
      posts++
      if (posts < at) return reply(200, {batchIds: [`b_${posts}`], runIds: [`run_${posts}`]})
      signals.raise('SIGTERM')
      // the answer never comes: the launch is cancelled in flight
      return new Promise<Reply>(() => {})
    })
    const summary = join(tempDir('amctl-run-sigterm-launch-'), 'e.md')
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--repeat', '3', '--summary', summary], {
      clock,
      signals,
      env: api.env(),
    })
    expect(r.exitCode).toBe(143)
    const which = at === 1 ? 'launch 1 of 3' : 'launch 2 of 3'
    expect(r.stderr).toContain(
      `interrupted (SIGTERM) while ${which} was sent: it may have happened; \`amctl runs list --org acme --eval-set es_1\` shows it\n`,
    )
    if (at === 2) expect(r.stderr).toContain('1 run still going on the server (the API cannot cancel runs): run_1\n')
    expect(readFileSync(summary, 'utf8').split('\n')[0]).toMatch(/^### ⏹️ Interrupted \(SIGTERM\)/)
    expect(signals.listening('SIGTERM')).toBe(0)
  })

  it.each([1, 2])(
    '--repeat auto, SIGTERM during the wait of launch %i: exit 143, no further launch, the reports saying SIGTERM, the runs still going named',
    async (stopAt) => {
      // a baseline file of group a / m: 20 runs alternating 0.67 and 0.73 (mean 0.70); run_1 scores
      // 0.64, which one launch cannot decide against --max-drop 0.1 (test/e2e/commands/ci-repeat-auto.test.ts)
      const dir = tempDir('amctl-run-sigterm-')
      const file = join(dir, 'baseline.json')
      const at = (i: number) => new Date(FAKE_WALL_START - (20 - i) * 60_000).toISOString()
      const baseRuns = Array.from({length: 20}, (_, i) => ({id: `run_b${i}`, score: i % 2 === 0 ? 0.67 : 0.73, createdAt: at(i)}))
      writeFileSync(
        file,
        baselineFileText({
          version: 2,
          org: 'acme',
          evalSetId: 'es_1',
          savedAt: at(20),
          keep: 50,
          groups: [{agent: 'a', model: 'm', ...groupStats(baseRuns), runs: baseRuns, setAside: [], failed: [], cancelled: []}],
        }),
      )
      numberedLaunches()
      let launches = 0
      const made = () => wire().filter((w) => w.startsWith('POST')).length
      api.stub('GET /orgs/acme/runs', () => {
        launches = made()
        const items = [
          {...launched('run_2', 'running'), agent: 'a', model: 'm'},
          {...launched('run_1', stopAt === 1 ? 'running' : 'succeeded', stopAt === 1 ? null : 0.64), agent: 'a', model: 'm'},
        ].slice(2 - launches)
        return reply(200, {items, nextCursor: null})
      })
      const signals = fakeSignals()
      // the first sleep of the wait of launch `stopAt` (the first launch's runs finish at its first poll when it is to go on)
      clock.onSleep = () => made() === stopAt && signals.raise('SIGTERM')
      const summary = join(dir, 'e.md')
      const junit = join(dir, 'e.xml')
      const argv = ['es_1', '--org', 'acme', '--wait', '--repeat', 'auto', '--max-drop', '0.1', '--baseline-file', file]
      const r = await runCommand(EvalsRun, [...argv, '--summary', summary, '--junit', junit, '--json'], {clock, signals, env: api.env()})
      expect(r.exitCode, r.stderr).toBe(143)
      expect(r.stdout).toBe('')
      expect(made(), 'no launch after SIGTERM').toBe(stopAt)
      const going = stopAt === 1 ? 'run_1' : 'run_2'
      const all = stopAt === 1 ? 'run_1' : 'run_1 run_2'
      expect(lines(r.stderr).slice(-2)).toEqual([
        `1 run still going on the server (the API cannot cancel runs): ${going}`,
        `interrupted (SIGTERM): stopped watching; the runs go on. Watch them again with: amctl runs watch ${all} --org acme --baseline-file ${file} --max-drop 0.1 --junit ${junit} --summary ${summary}`,
      ])
      expect(readFileSync(summary, 'utf8').split('\n')[0]).toBe('### ⏹️ Interrupted (SIGTERM): 1 of 1 group not finished')
      const [suite] = parseJunit(readFileSync(junit, 'utf8')).testsuites.testsuite
      expect(JSON.stringify(suite)).toContain('not finished when the wait was interrupted (SIGTERM)')
      expect(signals.listening('SIGTERM')).toBe(0)
    },
  )

  it('no runs launched (runIds: []): nothing to wait for, and not a pass — exit 10 (issue 26 item 1)', async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', {batchIds: [], runIds: []})
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait', '--json'], {clock, env: api.env()})
    expect(r.exitCode).toBe(10)
    const {gate, ...doc} = JSON.parse(r.stdout)
    expect(doc).toEqual({batchIds: [], runIds: [], runs: [], unfinishedRunIds: []})
    expect(gate).toMatchObject({end: 'not-passed', runs: []})
    expect(r.stderr).toContain('no runs to wait for: the launch started none, so nothing passed')
    expect(wire()).toEqual(['POST /orgs/acme/eval-sets/es_1/run'])
  })

  it.each([[[1, 2]], [[null]], ['run_1'], [[{id: 'run_1'}]]])(
    'a launch answer whose runIds are %j is a bad answer: exit 1, nothing waited for (issue 26 item 2)',
    async (runIds) => {
      api.stub(
        'POST /orgs/acme/eval-sets/es_1/run',
        unchecked('runIds that are not strings: amctl must refuse them', 200, {batchIds: ['b_1'], runIds}),
      )
      const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--wait'], {clock, env: api.env()})
      expect(r.exitCode).toBe(1)
      expect(r.stderr).toMatch(/^error: the launch answer's runIds is not a list of strings: .* \(bad_response\)\n$/)
      expect(wire()).toEqual(['POST /orgs/acme/eval-sets/es_1/run'])
    },
  )

  it.each([
    [['--interval', '3'], /--interval acts only with --wait/],
    [['--fail-fast'], /--fail-fast acts only with --wait/],
    [['--wait', '--interval', '0'], /--interval must be a number of seconds from 1 to 86400, got "0"/],
    [['--wait', '--wait-timeout', '1d'], /--wait-timeout must be a duration such as 90s, 15m, 2h or a number of seconds, got "1d"/],
    [['--wait', '--min-score', '101'], /--min-score must be a score from 0 to 1, got "101"/],
  ])('%j: exit 2 before the launch', async (extra, message) => {
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', ...extra], {clock, env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(api.requests()).toEqual([])
  })
})

describe('evals run --wait --repeat on a terminal: the group table against a history or a baseline file', () => {
  // the group codex / gpt-5 of es_1: two launches, run_1 scoring 0.64 and run_2 0.62 (mean 0.63),
  // against five earlier runs of mean 0.70 and sd 0.031623 (./fixtures.ts)
  const wait = async (...baseline: string[]) => {
    launchesOf(api)
    serveRuns(api, [gatedRun('run_2', 0.5, 0.62, {batchId: 'b_2'}), gatedRun('run_1', 0.5, 0.64, {batchId: 'b_1'})])
    const argv = ['es_1', '--org', 'acme', '--wait', '--repeat', '2', ...baseline]
    return runCommand(EvalsRun, argv, {clock: fakeClock(), env: api.env(), tty: true, columns: 160})
  }
  /** The group's row as the table shows it whatever the baseline: the group, its baseline of 0.70 ± 0.03 (5) drawn ▅▇▂▆▃, Δ and K. */
  const GROUP = {
    'EVAL SET': 'es_1',
    AGENT: 'codex',
    MODEL: 'gpt-5',
    'RUN IDS': 'run_1, run_2',
    FAILED: '0',
    SCORE: '0.63',
    BASELINE: '0.70 ± 0.03 (5)',
    Δ: '-0.07',
    TREND: '▅▇▂▆▃',
    K: '2',
  }

  it('--baseline history: BASELINE is the history as mean ± sd (n), TREND its scores; Δ, MARGIN and DETECTABLE for the mean of 2', async () => {
    const r = await wait('--baseline', 'history')
    expect(r.exitCode, r.stderr).toBe(10)
    // the score test's level: 1 − (0.05 − s), what the failure test of the 5 earlier runs (none failed) leaves: its exact
    // size s = 1/84 for the 6 runs the step may make (2 launches and 4 relaunches), three failures in a row (./outcomes.ts)
    // margin: t(0.961905, 4) × sd × √(1/2 + 1/5) = 2.377569 × 0.031623 × 0.836660 = 0.062905; the drop of 0.07 is beyond it
    // detectable: margin + t(0.8, 4) × sd × √(1/2 + 1/5) = 0.062905 + 0.940965 × 0.031623 × 0.836660 = 0.087801
    expect(terminalTable(r.stdout)).toEqual([{...GROUP, MARGIN: '0.06', DETECTABLE: '0.09', VERDICT: 'regressed'}])
  })

  it('--baseline-file: BASELINE is the file group as mean ± sd (n), TREND its scores; its margin, a tolerance bound, is wider: the same drop passes', async () => {
    const file = join(tempDir('amctl-run-file-'), 'baseline.json')
    await saveBaselineFile(api, file)
    const r = await wait('--baseline-file', file)
    expect(r.exitCode, r.stderr).toBe(0)
    const json = await wait('--baseline-file', file, '--json')
    const [group] = JSON.parse(json.stdout).groups
    expect(group.baseline).toMatchObject({kind: 'file', path: file, mean: 0.7, sd: 0.031623, runs: 5, stale: false})
    // (the tolerance bound's margin and detectable: what --json says, to two places)
    expect([group.margin, group.detectable].map((n: number) => n.toFixed(2))).toEqual(['0.09', '0.11'])
    expect(terminalTable(r.stdout)).toEqual([{...GROUP, MARGIN: '0.09', DETECTABLE: '0.11', VERDICT: 'passed'}])
  })
})

describe('evals run: typed result and renderer', () => {
  it('returns the launch; the renderer gets it as an object, then the notice', async () => {
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual({batchIds: ['b_1'], runIds: ['run_2', 'run_3']})
    expect(r.rendered).toEqual([
      {method: 'object', value: {batchIds: ['b_1'], runIds: ['run_2', 'run_3']}},
      {method: 'notice', text: 'Launched eval set es_1: 1 batch, 2 runs'},
    ])
  })

  it('a dropped launch returns the unknown outcome with the newest runs (exit 9)', async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
      throw dropConnection()
    })
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(9)
    expect(r.result).toMatchObject({
      kind: 'unknown-outcome',
      error: {code: 'outcome_unknown'},
      recent: {items: runs},
      document: {outcome: 'unknown', recentRuns: runs},
    })
  })
})
