import {describe, expect, it} from 'vitest'
import type {EvalStats} from '../../../src/gate/history-stats.js'
import type {Run} from '../../../src/contract/types.js'
import {tripleKey} from '../../../src/devserver/history.js'
import {TRIPLE_PROFILES} from '../../../src/devserver/seed.js'
import {runOnTerminal} from '../../helpers/bin.js'
import {useE2E} from '../helpers.js'
import {API, expectOk, jsonDoc, lines, requestsOf} from './util.js'

// `amctl evals stats` from the built CLI against the dev server: each seeded eval set's numbers,
// recomputed here from the whole run list, and the dev server's seeded history read through them.

const e2e = useE2E()

const EVAL_SETS = [
  ['acme', 'es_acme_checkout'],
  ['acme', 'es_acme_search'],
  ['globex', 'es_globex_onboarding'],
] as const

async function allRuns(org: string): Promise<Run[]> {
  const r = await e2e.current.amctl(['runs', 'list', '--org', org, '--all', '--json'])
  expectOk(r)
  return jsonDoc(r).items
}

/** What `evals stats` should say of `evalSetId`, worked out from the run list another way (two passes, no streaming). */
function expected(runs: Run[], evalSetId: string) {
  const groups = new Map<string, Run[]>()
  for (const run of runs.filter((r) => r.evalSetId === evalSetId)) {
    const key = `${run.agent}/${run.model}`
    groups.set(key, [...(groups.get(key) ?? []), run])
  }
  return [...groups.values()]
    .map((group) => {
      const count = (status: string) => group.filter((r) => r.status === status).length
      const finished = count('succeeded') + count('failed') + count('cancelled')
      const scored = group.filter((r) => r.status === 'succeeded' && typeof r.score === 'number')
      const scores = scored.map((r) => r.score as number)
      const mean = scores.reduce((a, b) => a + b, 0) / scores.length
      const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (scores.length - 1))
      return {
        agent: group[0].agent,
        model: group[0].model,
        runs: group.length,
        succeeded: count('succeeded'),
        failed: count('failed'),
        cancelled: count('cancelled'),
        unfinished: group.length - finished,
        share: {
          succeeded: Number((count('succeeded') / finished).toFixed(4)),
          failed: Number((count('failed') / finished).toFixed(4)),
          cancelled: Number((count('cancelled') / finished).toFixed(4)),
        },
        scored: scores.length,
        mean: Number(mean.toFixed(6)),
        sd: Number(sd.toFixed(6)),
        last: {runId: scored[0].id, score: scored[0].score, createdAt: scored[0].createdAt},
        trend: scores.slice(0, 20).reverse(),
      }
    })
    .sort((a, b) => `${a.agent}/${a.model}`.localeCompare(`${b.agent}/${b.model}`))
}

describe('amctl evals stats against the dev server', () => {
  it.each(EVAL_SETS)(
    '%s %s: every number agrees with the run list, and with the true distribution of each agent × model',
    async (org, id) => {
      const runs = await allRuns(org)
      const [r, requests] = await requestsOf(e2e.current, () => e2e.current.amctl(['evals', 'stats', id, '--org', org, '--json']))
      expectOk(r)
      expect(requests.every((req) => req.startsWith(`GET ${API}/orgs/${org}/runs?limit=200`))).toBe(true)
      const doc = jsonDoc(r) as EvalStats
      expect(doc.evalSetId).toBe(id)
      // (the verdicts are the tests' of src/gate/history-verdict.ts, checked below)
      expect(doc.groups.map(({verdict, shift, ...numbers}) => numbers)).toEqual(expected(runs, id))
      expect(doc.runs).toBe(runs.filter((run) => run.evalSetId === id).length)
      // the seeded history reads like real evals: each mean near its true one, each spread near its own, flaky ones flaky
      for (const group of doc.groups) {
        const profile = TRIPLE_PROFILES.get(tripleKey({evalSetId: id, agent: group.agent, model: group.model}))
        expect(profile, `${group.agent}/${group.model}`).toBeDefined()
        if (profile === undefined || group.mean === null || group.sd === null || group.share === null) continue
        if (profile.kind === 'shifted') {
          // two levels: the one now (the runs since the shift) and the one before
          expect(group.shift?.after).toBeCloseTo(profile.mean, 1)
          expect(group.shift?.before).toBeCloseTo(profile.earlier?.mean ?? Number.NaN, 1)
        } else {
          expect(Math.abs(group.mean - profile.mean)).toBeLessThan((2 * profile.sd) / Math.sqrt(group.scored))
          expect(group.sd / profile.sd).toBeGreaterThan(0.8)
          expect(group.sd / profile.sd).toBeLessThan(1.2)
        }
        if (profile.kind === 'flaky') expect(group.share.failed).toBeGreaterThanOrEqual(0.1)
        else expect(group.share.failed).toBeLessThanOrEqual(0.05)
      }
    },
  )

  it("the seeded history's verdicts: on es_acme_checkout claude-code shifted (0.90 → 0.84 at run_acme_0121) and codex flaky; on es_acme_search cursor-agent flaky; the rest stable", async () => {
    const verdicts = async (org: string, id: string) => {
      const r = await e2e.current.amctl(['evals', 'stats', id, '--org', org, '--json'])
      expectOk(r)
      return (jsonDoc(r) as EvalStats).groups
    }
    const checkout = await verdicts('acme', 'es_acme_checkout')
    expect(checkout.map((g) => [g.agent, g.verdict])).toEqual([
      ['claude-code', 'shifted'],
      ['codex', 'flaky'],
    ])
    const runs = await allRuns('acme')
    const first = runs.find((run) => run.id === 'run_acme_0121')
    const shift = checkout[0].shift
    expect(shift).toMatchObject({runId: 'run_acme_0121', createdAt: first?.createdAt})
    // the levels: the mean of the scores before run_acme_0121 and since, from the run list
    const scores = runs
      .filter((run) => run.evalSetId === 'es_acme_checkout' && run.agent === 'claude-code' && typeof run.score === 'number')
      .reverse()
    const at = scores.findIndex((run) => run.id === 'run_acme_0121')
    const mean = (list: Run[]) => list.reduce((a, run) => a + (run.score as number), 0) / list.length
    expect(shift?.before).toBeCloseTo(mean(scores.slice(0, at)), 6)
    expect(shift?.after).toBeCloseTo(mean(scores.slice(at)), 6)
    expect(shift?.delta).toBeCloseTo(mean(scores.slice(at)) - mean(scores.slice(0, at)), 5)
    expect(shift?.delta).toBeLessThan(-0.05)
    expect((await verdicts('acme', 'es_acme_search')).map((g) => [g.agent, g.verdict, g.shift])).toEqual([
      ['claude-code', 'stable', null],
      ['codex', 'stable', null],
      ['cursor-agent', 'flaky', null],
    ])
    expect((await verdicts('globex', 'es_globex_onboarding')).map((g) => g.verdict)).toEqual(['stable'])
  })

  it('piped: one tab-separated line per agent × model; --jq picks the flaky ones', async () => {
    const piped = await e2e.current.amctl(['evals', 'stats', 'es_acme_search', '--org', 'acme'])
    expectOk(piped)
    const rows = lines(piped.stdout).map((line) => line.split('\t'))
    expect(rows.map((row) => row.slice(0, 2).join(' '))).toEqual([
      'claude-code claude-sonnet-4-5',
      'codex gpt-5',
      'cursor-agent gemini-2.5-pro',
    ])
    // the nine fields of before, then the verdict and the five of the shift
    for (const row of rows) expect(row).toHaveLength(15)
    const flaky = await e2e.current.amctl([
      'evals',
      'stats',
      'es_acme_search',
      '--org',
      'acme',
      '--jq',
      '.groups[] | select(.share.failed > 0.1) | "\\(.agent) \\(.model)"',
    ])
    expectOk(flaky)
    expect(flaky.stdout).toBe('cursor-agent gemini-2.5-pro\n')
  })

  it('on a terminal: the table with a verdict and a sparkline of each trend, the shift described under it', async () => {
    const token = await e2e.current.token()
    const {exitCode, screen} = await runOnTerminal(['evals', 'stats', 'es_acme_checkout', '--org', 'acme'], {
      env: {AMCTL_BASE_URL: e2e.current.url, AMCTL_TOKEN: token, NO_COLOR: '1'},
      columns: 120,
    })
    expect(exitCode, screen).toBe(0)
    expect(screen).toMatch(/^AGENT\s+MODEL\s+RUNS\s+FAILED\s+CANCELLED\s+MEAN\s+SD\s+LAST\s+VERDICT\s+TREND\r?$/m)
    expect(screen).toMatch(
      /^claude-code\s+claude-sonnet-4-5\s+\d+\s+\d+%\s+\d+%\s+0\.8\d\s+0\.0\d\s+0\.\d\d\s+shifted\s+[▁▂▃▄▅▆▇█]{20}\r?$/m,
    )
    expect(screen).toMatch(/^codex\s+gpt-5\s+\d+\s+1\d%\s+\d+%\s+0\.7\d\s+0\.0\d\s+0\.\d\d\s+flaky\s+[▁▂▃▄▅▆▇█]{20}\r?$/m)
    expect(screen).toMatch(
      /^claude-code \/ claude-sonnet-4-5 shifted at run_acme_0121 \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\): 0\.90 before, 0\.84 since \(−0\.06\)\r?$/m,
    )
  })

  it('a launch counts at once, as a run not finished yet; --window 1h keeps it and leaves the seeded history out', async () => {
    const launch = await e2e.current.amctl(['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--json'])
    expectOk(launch, /^Launched eval set es_acme_checkout/)
    const recent = await e2e.current.amctl(['evals', 'stats', 'es_acme_checkout', '--org', 'acme', '--window', '1h', '--json'])
    expectOk(recent)
    const doc = jsonDoc(recent) as EvalStats
    // the seeded runs of es_acme_checkout within the hour, and the two just launched
    const since = Date.parse(doc.window.since as string)
    const runs = (await allRuns('acme')).filter((run) => run.evalSetId === 'es_acme_checkout' && Date.parse(run.createdAt) >= since)
    expect(doc.runs).toBe(runs.length)
    expect(doc.groups.reduce((n, g) => n + g.unfinished, 0)).toBe(
      runs.filter((run) => !['succeeded', 'failed', 'cancelled'].includes(run.status)).length,
    )
    expect(doc.groups.reduce((n, g) => n + g.unfinished, 0)).toBeGreaterThanOrEqual(2)
    expect(doc.runs).toBeLessThan(20)
  })

  it('--window that is not a duration: exit 2, no request', async () => {
    const [r, requests] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['evals', 'stats', 'es_acme_checkout', '--org', 'acme', '--window', 'a week']),
    )
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toBe(
      'error: --window must be a duration such as 90s, 15m, 2h, 30d or a number of seconds, got "a week" (invalid_request)\n',
    )
    expect(requests).toEqual([])
  })
})
