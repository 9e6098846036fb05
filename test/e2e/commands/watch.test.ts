import type {ChildProcess} from 'node:child_process'
import {afterEach, describe, expect, it} from 'vitest'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {freshConfigDir} from '../../helpers/bin.js'
import {fieldCounts, GATE_FIELDS, RUN_FIELDS, rowOf, runRows} from '../../helpers/tsv.js'
import {tempDir} from '../../helpers/temp.js'
import {standingClock, useE2E} from '../helpers.js'
import {API, expectNoColour, jsonDoc, lines, requestsOf, seen, untimed} from './util.js'
import {seededRunCreatedAt} from '../../../src/devserver/seed.js'

// runs watch and evals run --wait (contract 5) against the shared e2e dev server, whose seeded runs
// are finished (or queued/running for good) and whose clock stands still, so that a launched run
// stays queued however busy the machine: these tests cover the waits that end at once, the time
// limit, stdin IDs, the unknown launch outcome and Ctrl-C. Waits on runs that progress:
// ./watch-lifecycle.test.ts.

const e2e = useE2E({now: standingClock()})
afterEach(() => e2e.current.clearFaults())

const RUNS = `${API}/orgs/acme/runs?limit=200`
const STACK_FRAME = /\n\s+at /
const AGAIN = 'interrupted (Ctrl-C): stopped watching; the runs go on. Watch them again with:'
const GOING = (runs: string) => `${runs} still going on the server (the API cannot cancel runs):`
const watch = (...args: string[]) => e2e.current.amctl(['runs', 'watch', ...args, '--org', 'acme'])
const tsvIds = (stdout: string) => lines(stdout).map((line) => line.split('\t').slice(0, 2).join(' '))

describe('amctl runs watch', () => {
  it('finished runs that succeeded: one request, exit 0, the runs as TSV rows in the order given', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => watch('run_acme_0251', 'run_acme_0250'))
    expect(r.exitCode, r.stderr).toBe(0)
    expect(reqs).toEqual([`GET ${RUNS}`])
    // the run's `runs list` row (ID, status, eval set, created, agent, model, score), then the
    // gate's fields (docs/scripting.md): the verdict, and the fields a baseline or --repeat fills, empty without one
    const rows = runRows(r.stdout)
    const created = (n: number) => seededRunCreatedAt('acme', n, e2e.current.server.seededAt ?? 0)
    expect(rows.map((row) => [row.ID, row.status, row['eval set'], row.created, row.verdict])).toEqual([
      ['run_acme_0251', 'succeeded', 'es_acme_checkout', created(251), 'passed'],
      ['run_acme_0250', 'succeeded', 'es_acme_search', created(250), 'passed'],
    ])
    expect(fieldCounts(r.stdout)).toEqual([RUN_FIELDS.length, RUN_FIELDS.length])
    const filled = GATE_FIELDS.filter((name) => name !== 'verdict')
    for (const row of rows) {
      expect(row.agent).not.toBe('')
      expect(row.score).toMatch(/^(0(\.\d+)?|1)$/)
      expect(Object.fromEntries(filled.map((name) => [name, row[name]]))).toEqual(rowOf(filled, {}))
    }
    expect(lines(r.stderr).map(untimed)).toEqual([
      'watching 2 runs of acme: a poll every 5s, up to 1h',
      'run_acme_0251 succeeded (score 0.84)',
      'run_acme_0250 succeeded (score 0.56)',
      '✓ all 2 runs succeeded',
    ])
    expectNoColour(r)
  })

  it('a failed run: exit 10; --json {"items":[…]}; a run beyond the first page is read from the next one', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['runs', 'watch', 'run_acme_0257', 'run_acme_0001', '--org', 'acme', '--json']),
    )
    expect(r.exitCode, r.stderr).toBe(10)
    expect(reqs).toHaveLength(2)
    expect(reqs[0]).toBe(`GET ${RUNS}`)
    expect(reqs[1]).toMatch(new RegExp(`^GET ${RUNS.replace('?', '\\?')}&cursor=`))
    const doc = jsonDoc(r)
    expect(Object.keys(doc)).toEqual(['items', 'unfinishedRunIds', 'gate'])
    expect(doc.unfinishedRunIds).toEqual([])
    const states = doc.items.map((run: {id: string; status: string}) => `${run.id} ${run.status}`)
    expect(states).toEqual(['run_acme_0257 failed', 'run_acme_0001 succeeded'])
    expect(untimed(lines(r.stderr).at(-1))).toBe('✗ 1 of 2 runs did not pass: run_acme_0257 failed')
  })

  it('--min-score: 0.7 is met by a score of 0.7, 0.71 is not (exit 10)', async () => {
    const [met, missed] = await Promise.all([
      e2e.current.amctl(['runs', 'watch', 'run_acme_0242', '--org', 'acme', '--min-score', '0.7']),
      e2e.current.amctl(['runs', 'watch', 'run_acme_0242', '--org', 'acme', '--min-score', '0.71']),
    ])
    expect(met.exitCode, met.stderr).toBe(0)
    expect(missed.exitCode, missed.stderr).toBe(10)
    expect(untimed(lines(missed.stderr).at(-1))).toBe('✗ 1 of 1 run did not pass: run_acme_0242 scored 0.7 (below 0.71)')
    expect(tsvIds(missed.stdout)).toEqual(['run_acme_0242 succeeded'])
  })

  it('IDs from stdin with -, as `jq -r .runIds[]` writes them', async () => {
    const r = await e2e.current.amctl(['runs', 'watch', '-', '--org', 'acme'], {input: 'run_acme_0251\nrun_acme_0220\n'})
    expect(r.exitCode, r.stderr).toBe(10)
    expect(tsvIds(r.stdout)).toEqual(['run_acme_0251 succeeded', 'run_acme_0220 cancelled'])
  })

  it('a run the organization does not have: exit 5 naming it, after the whole list', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => watch('run_acme_0251', 'run_globex_0001'))
    expect(r.exitCode).toBe(5)
    expect(r.stdout).toBe('')
    expect(lines(r.stderr).at(-1)).toBe('error: run "run_globex_0001" is not among the runs of acme (not_found)')
    expect(reqs.length).toBeGreaterThanOrEqual(2) // every page of acme's runs
    expect(reqs.every((req) => req.startsWith(`GET ${RUNS}`))).toBe(true)
  })

  it('the time limit: exit 11 after polling every --interval, stdout still shows the last known state', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['runs', 'watch', 'run_acme_0260', 'run_acme_0251', '--org', 'acme', '--interval', '1', '--wait-timeout', '2s']),
    )
    expect(r.exitCode, r.stderr).toBe(11)
    expect(reqs.length).toBeGreaterThanOrEqual(2)
    expect(new Set(reqs)).toEqual(new Set([`GET ${RUNS}`]))
    const [unfinished, done] = tsvIds(r.stdout)
    expect(['run_acme_0260 queued', 'run_acme_0260 running']).toContain(unfinished)
    expect(done).toBe('run_acme_0251 succeeded')
    expect(lines(r.stderr).slice(-2)).toEqual([
      expect.stringMatching(/^! gave up after 2s \(--wait-timeout\): 1 of 2 runs not finished: run_acme_0260 (queued|running)$/),
      `${GOING('1 run')} run_acme_0260`,
    ])
  })

  it('bad flags exit 2 before any request', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => watch('run_acme_0251', '--interval', '0'))
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toBe('error: --interval must be a number of seconds from 1 to 86400, got "0" (invalid_request)\n')
    expect(reqs).toEqual([])
  })
})

describe('amctl evals run --wait', () => {
  it('piped: launches once, then waits; at the time limit exit 11 with the launched runs on stdout', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--wait', '--interval', '1', '--wait-timeout', '1']),
    )
    expect(r.exitCode, r.stderr).toBe(11)
    expect(reqs[0]).toBe(`POST ${API}/orgs/acme/eval-sets/es_acme_checkout/run`)
    expect(reqs.slice(1).length).toBeGreaterThanOrEqual(2)
    expect(new Set(reqs.slice(1))).toEqual(new Set([`GET ${RUNS}`]))
    const rows = lines(r.stdout).map((line) => line.split('\t'))
    expect(rows.length).toBeGreaterThan(0)
    for (const [id, status, evalSet] of rows) {
      expect(id).toMatch(/^run_/)
      expect(status).toBe('queued')
      expect(evalSet).toBe('es_acme_checkout')
    }
    expect(lines(r.stderr)[0]).toBe(`Launched eval set es_acme_checkout: 1 batch, ${rows.length} run${rows.length === 1 ? '' : 's'}`)
  })

  it('--json: the launch response with a "runs" member holding the launched runs', async () => {
    const r = await e2e.current.amctl(['evals', 'run', 'es_acme_search', '--org', 'acme', '--wait', '--wait-timeout', '1', '--json'])
    expect(r.exitCode, r.stderr).toBe(11)
    const doc = jsonDoc(r)
    expect(Object.keys(doc).sort()).toEqual(['batchIds', 'gate', 'runIds', 'runs', 'unfinishedRunIds'])
    expect(doc.runs.map((run: {id: string}) => run.id)).toEqual(doc.runIds)
    // (each launched run stays queued: the server's clock stands still)
    expect(doc.unfinishedRunIds).toEqual(doc.runIds)
    for (const run of doc.runs) expect(run).toMatchObject({evalSetId: 'es_acme_search', batchId: doc.batchIds[0]})
  })

  it('an unanswered launch: exit 9 with the newest runs, never a second launch, no wait', async () => {
    await e2e.current.fault({match: {method: 'POST', path: '/eval-sets/es_acme_checkout/run$'}, count: 1, actions: [{type: 'drop-after'}]})
    const argv = ['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--wait', '--json']
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(argv))
    expect(r.exitCode).toBe(9)
    const doc = jsonDoc(r)
    expect(doc.outcome).toBe('unknown')
    expect(doc.recentRuns.length).toBeGreaterThan(0)
    expect(reqs).toEqual([`POST ${API}/orgs/acme/eval-sets/es_acme_checkout/run`, `GET ${API}/orgs/acme/runs?limit=10`])
  })
})

/** Sends SIGINT (or `signal`) once stderr shows `ready`. */
function interruptWhen(ready: RegExp, signal: NodeJS.Signals = 'SIGINT'): {onSpawn: (child: ChildProcess) => void; sent: () => boolean} {
  let sent = false
  return {
    onSpawn: (child) => {
      let err = ''
      child.stderr?.on('data', (chunk: Buffer) => {
        err += chunk.toString()
        if (!sent && ready.test(err)) {
          sent = true
          child.kill(signal)
        }
      })
    },
    sent: () => sent,
  }
}

describe('Ctrl-C while waiting', () => {
  it('runs watch: exit 130, no stack trace, a line saying the runs go on and how to watch again', async () => {
    const interrupt = interruptWhen(/run_acme_0260 (queued|running)\n/)
    const r = await e2e.current.amctl(['runs', 'watch', 'run_acme_0260', '--org', 'acme', '--interval', '1', '--wait-timeout', '0'], {
      onSpawn: interrupt.onSpawn,
    })
    expect(interrupt.sent()).toBe(true)
    expect(r.signal).toBeNull()
    expect(r.exitCode).toBe(130)
    expect(r.stdout).toBe('')
    expect(r.stderr).not.toMatch(STACK_FRAME)
    expect(lines(r.stderr).slice(-2)).toEqual([
      `${GOING('1 run')} run_acme_0260`,
      `${AGAIN} amctl runs watch run_acme_0260 --org acme --interval 1 --wait-timeout 0`,
    ])
  })

  it('the time limit: the runs still going named on stderr, and in --json as unfinishedRunIds (issue 32 item 18)', async () => {
    const r = await watch('run_acme_0260', 'run_acme_0256', '--interval', '1', '--wait-timeout', '1', '--json')
    expect(r.exitCode).toBe(11)
    expect(jsonDoc(r).unfinishedRunIds).toEqual(['run_acme_0260'])
    expect(lines(r.stderr).at(-1)).toBe(`${GOING('1 run')} run_acme_0260`)
  })

  it('evals run --wait with the org from the config: exit 130, the launched runs named in the line', async () => {
    const configDir = freshConfigDir()
    expect((await e2e.current.amctl(['config', 'set', 'org', 'acme'], {configDir})).exitCode).toBe(0)
    await e2e.current.clearRequests()
    const interrupt = interruptWhen(/run_\w+ (queued|running)\n/)
    const argv = ['evals', 'run', 'es_acme_checkout', '--wait', '--interval', '1']
    const r = await e2e.current.amctl(argv, {configDir, onSpawn: interrupt.onSpawn})
    expect(r.exitCode).toBe(130)
    expect(r.stdout).toBe('')
    expect(r.stderr).not.toMatch(STACK_FRAME)
    const [going, last] = lines(r.stderr).slice(-2)
    expect(last.startsWith(AGAIN)).toBe(true)
    expect(last.slice(AGAIN.length)).toMatch(/^ amctl runs watch (run_\w+ )+--org acme --interval 1$/)
    // the launched runs, all still going (each a queued or running run of the launch)
    const launched = last
      .slice(AGAIN.length)
      .split(' ')
      .filter((word) => word.startsWith('run_'))
    expect(going).toBe(`${GOING(`${launched.length} runs`)} ${launched.join(' ')}`)
    expect((await seen(e2e.current)).filter((req) => req.startsWith('POST'))).toHaveLength(1)
  })
})

describe('SIGTERM while waiting (a CI job cancelled or timed out)', () => {
  it('runs watch: ends as Ctrl-C does, with exit 143: the reports written saying SIGTERM, the runs going named, how to watch again', async () => {
    const dir = tempDir('amctl-e2e-sigterm-')
    const [junit, summary] = [join(dir, 'e.xml'), join(dir, 'e.md')]
    const interrupt = interruptWhen(/run_acme_0260 (queued|running)\n/, 'SIGTERM')
    const argv = ['runs', 'watch', 'run_acme_0251', 'run_acme_0260', '--org', 'acme', '--interval', '1', '--wait-timeout', '0']
    const r = await e2e.current.amctl([...argv, '--junit', junit, '--summary', summary], {onSpawn: interrupt.onSpawn})
    expect(interrupt.sent()).toBe(true)
    expect(r.signal, 'not killed by the signal: amctl ends the wait itself').toBeNull()
    expect(r.exitCode).toBe(143)
    expect(r.stdout).toBe('')
    expect(r.stderr).not.toMatch(STACK_FRAME)
    expect(lines(r.stderr).slice(-2)).toEqual([
      `${GOING('1 run')} run_acme_0260`,
      `interrupted (SIGTERM): stopped watching; the runs go on. Watch them again with: amctl runs watch run_acme_0251 run_acme_0260 --org acme --interval 1 --wait-timeout 0 --junit ${junit} --summary ${summary}`,
    ])
    expect(readFileSync(summary, 'utf8').split('\n')[0]).toBe('### ⏹️ Interrupted (SIGTERM): 1 of 2 runs not finished')
    expect(readFileSync(junit, 'utf8')).toMatch(
      /<skipped message="not finished when the wait was interrupted \(SIGTERM\) \((queued|running)\)"\/>/,
    )
  })
})
