import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import jstat from 'jstat'
import {tempDir} from '../../helpers/temp.js'
import {fieldCounts, RUN_FIELDS, runRows} from '../../helpers/tsv.js'
import {junitSchemaErrors, parseJunit} from '../../gate/reports/fixtures.js'
import {useE2E} from '../helpers.js'
import {API, jsonDoc, lines, requestsOf, useOutcomePlans} from './util.js'

// The history gate (--baseline history) and --repeat through the built CLI against the dev server
// (issue 23 §1–2): launched runs finish at once (--run-seconds 0); each test first gives the eval
// set a history of its own, 20 launches whose scores the dev server draws from N(0.70, 0.03)
// (an outcome plan with mean, sd and seed), then plans how the judged launches end.

const e2e = useE2E({runSeconds: 0})
const ORG = 'acme'
const EVAL_SET = 'es_acme_checkout' // two targets: claude-code / claude-sonnet-4-5 and codex / gpt-5
const plan = useOutcomePlans(e2e, ORG, EVAL_SET)

/** A call to the API as ada (for what the test sets up, not what it checks). */
async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${e2e.current.url}${API}${path}`, {
    method,
    headers: {authorization: `Bearer ${await e2e.current.token()}`, 'content-type': 'application/json'},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
  return res.json()
}

/** 20 launches of the eval set scoring N(0.70, 0.03) for every target: the newest history of each. */
async function history(seed: number): Promise<void> {
  await plan({status: 'succeeded', mean: 0.7, sd: 0.03, seed, count: 40})
  for (let i = 0; i < 20; i++) await api('POST', `/orgs/${ORG}/eval-sets/${EVAL_SET}/run`, {})
}

const two = (n: number) => n.toFixed(2)
/**
 * The level a group's score is judged at (docs/ci-reference.md "Failed and cancelled runs"): its share of 95 %
 * for the step over the two groups, 0.025, less what its failure test spends (`outcomes.size`).
 */
const scoreLevel = (item: {outcomes: {size: number}}) => 1 - (0.025 - item.outcomes.size)
const GATE = ['evals', 'run', EVAL_SET, '--org', ORG, '--wait', '--interval', '1', '--baseline', 'history']

describe('--baseline history against the dev server', () => {
  it('a regression beyond noise: exit 10, the one sentence on stderr; the other run within noise passes', async () => {
    await history(11)
    await plan({agent: 'codex', status: 'succeeded', score: 0.55, count: 1})
    await plan({agent: 'claude-code', status: 'succeeded', score: 0.69, count: 1})
    const r = await e2e.current.amctl([...GATE, '--json'])
    expect(r.exitCode, r.stderr).toBe(10)
    const runs = jsonDoc(r).runs
    const codex = runs.find((run: any) => run.agent === 'codex')
    const claude = runs.find((run: any) => run.agent === 'claude-code')
    expect(codex).toMatchObject({score: 0.55, verdict: 'regressed', baseline: {kind: 'history', runs: 20, window: '30d'}})
    expect(claude).toMatchObject({score: 0.69, verdict: 'passed', baseline: {kind: 'history', runs: 20}})
    const {mean, sd} = codex.baseline
    expect(mean).toBeGreaterThan(0.68)
    expect(mean).toBeLessThan(0.72)
    expect(codex.delta).toBeCloseTo(0.55 - mean, 6)
    // Bonferroni over the two runs, 0.025 each, less what the failure test spends: t(c, 19) × sd × √(1 + 1/20)
    expect(codex.confidence).toBeCloseTo(scoreLevel(codex), 6)
    expect(codex.outcomes).toMatchObject({failed: 0, cancelled: 0, succeeded: 1, baseline: {failed: 0, finished: 20}})
    expect(codex.margin).toBeCloseTo(jstat.studentt.inv(codex.confidence, 19) * Math.max(sd, 0.01) * Math.sqrt(1 + 1 / 20), 5)
    expect(-codex.delta).toBeGreaterThan(codex.margin)
    expect(Math.abs(claude.delta)).toBeLessThan(claude.margin)
    // (the time the wait took, in brackets at the end, is left out)
    expect(
      lines(r.stderr)
        .at(-1)
        ?.replace(/ \(\d+s\)$/, ''),
    ).toBe(
      `✗ 1 of 2 runs did not pass: ${codex.id} scored 0.55, ${two(-codex.delta)} below the mean of 20 earlier runs (${two(mean)} ± ${two(sd)}): beyond noise at 95 %`,
    )
  })

  it('within noise: exit 0, every run passed; piped rows give the verdict and the history (mean, sd, runs)', async () => {
    await history(12)
    await plan({status: 'succeeded', score: 0.69, count: 2})
    const r = await e2e.current.amctl(GATE)
    expect(r.exitCode, r.stderr).toBe(0)
    expect(lines(r.stderr).at(-1)).toMatch(/^✓ all 2 runs succeeded, none beyond noise \(\d+s\)$/)
    // every field docs/scripting.md documents: the run's `runs list` row, then verdict, baseline
    // run (none: a history), the history's mean, delta, margin, the history's sd and how many runs
    // it kept; then no baseline file, no staleness, detectable, and (no --repeat) neither k nor a
    // launch that decided it
    expect(fieldCounts(r.stdout)).toEqual([RUN_FIELDS.length, RUN_FIELDS.length])
    for (const row of runRows(r.stdout)) {
      expect(row.status).toBe('succeeded')
      expect([row['baseline file'], row.stale]).toEqual(['', ''])
      expect(Number(row.detectable)).toBeGreaterThan(Number(row.margin))
      expect([row.k, row['decided at']]).toEqual(['', ''])
      expect(row.score).toBe('0.69')
      expect([row.verdict, row['baseline run']]).toEqual(['passed', ''])
      expect(Number(row.delta)).toBeCloseTo(0.69 - Number(row['baseline score']), 6)
      expect(Number(row.margin)).toBeGreaterThan(0)
      expect(Number(row['baseline sd'])).toBeGreaterThan(0)
      expect(row['baseline runs']).toBe('20')
    }
  })

  it('--require-baseline with no history (a target never run before): exit 10 naming why; without it, no-baseline passes', async () => {
    const targets = (await api('PATCH', `/orgs/${ORG}/eval-sets/${EVAL_SET}`, {})).targets
    await api('PATCH', `/orgs/${ORG}/eval-sets/${EVAL_SET}`, {targets: [{agent: 'new-agent', model: 'new-model'}]})
    try {
      await plan({status: 'succeeded', score: 0.7, count: 2})
      const required = await e2e.current.amctl([...GATE, '--require-baseline', '--json'])
      expect(required.exitCode, required.stderr).toBe(10)
      const [run] = jsonDoc(required).runs
      expect(run).toMatchObject({agent: 'new-agent', verdict: 'no-baseline', baseline: null})
      expect(lines(required.stderr).at(-1)).toMatch(
        new RegExp(
          `^✗ 1 of 1 run did not pass: ${run.id} no baseline: 0 earlier runs of the same eval set, agent and model succeeded with a score within 30d \\(at least 3 needed\\) \\(--require-baseline\\) \\(\\d+s\\)$`,
        ),
      )
      const unjudged = await e2e.current.amctl([...GATE, '--json'])
      expect(unjudged.exitCode, unjudged.stderr).toBe(0)
      expect(jsonDoc(unjudged).runs[0]).toMatchObject({verdict: 'no-baseline', baseline: null})
    } finally {
      await api('PATCH', `/orgs/${ORG}/eval-sets/${EVAL_SET}`, {targets})
    }
  })
})

describe('evals run --repeat against the dev server', () => {
  it('--repeat 3: one group per agent and model in --json, the JUnit report and the summary', async () => {
    await history(13)
    await plan({agent: 'codex', status: 'succeeded', score: 0.7, count: 3})
    await plan({agent: 'claude-code', status: 'succeeded', score: 0.71, count: 3})
    const dir = tempDir('amctl-e2e-history-')
    const junit = join(dir, 'evals.xml')
    const summary = join(dir, 'evals.md')
    const r = await e2e.current.amctl([...GATE, '--repeat', '3', '--json', '--junit', junit, '--summary', summary])
    expect(r.exitCode, r.stderr).toBe(0)
    const doc = jsonDoc(r)
    expect(doc.launches).toHaveLength(3)
    expect(doc.runIds).toEqual(doc.launches.flatMap((l: any) => l.runIds))
    expect(doc.runs).toHaveLength(6)
    expect(doc.groups).toHaveLength(2)
    const [claude, codex] = doc.groups
    expect(claude).toMatchObject({
      agent: 'claude-code',
      model: 'claude-sonnet-4-5',
      evalSetId: EVAL_SET,
      runIds: doc.launches.map((l: any) => l.runIds[0]),
      scores: [0.71, 0.71, 0.71],
      score: 0.71,
      failures: 0,
      flaky: false,
      verdict: 'passed',
      baseline: {kind: 'history', runs: 20},
    })
    expect(codex).toMatchObject({agent: 'codex', model: 'gpt-5', scores: [0.7, 0.7, 0.7], score: 0.7, verdict: 'passed'})
    // k = 3 narrows the margin: √(1/3 + 1/20) where one run has √(1 + 1/20)
    expect(codex.confidence).toBeCloseTo(scoreLevel(codex), 6)
    expect(codex.margin).toBeCloseTo(
      jstat.studentt.inv(codex.confidence, 19) * Math.max(codex.baseline.sd, 0.01) * Math.sqrt(1 / 3 + 1 / 20),
      5,
    )
    expect(lines(r.stderr).at(-1)).toMatch(/^✓ all 2 groups of 6 runs passed, none beyond noise \(\d+s\)$/)

    const xml = readFileSync(junit, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    const [suite] = parseJunit(xml).testsuites.testsuite
    expect(suite).toMatchObject({'@_name': EVAL_SET, '@_tests': '2', '@_failures': '0'})
    expect(suite.testcase.map((c: any) => c['@_name'])).toEqual(['claude-code / claude-sonnet-4-5 (3 runs)', 'codex / gpt-5 (3 runs)'])
    const props = Object.fromEntries(suite.properties.property.map((p: any) => [p['@_name'], p['@_value']]))
    expect(props['codex / gpt-5.run.1']).toBe(`${codex.runIds[0]} succeeded 0.7`)
    expect(props['codex / gpt-5.run.3']).toBe(`${codex.runIds[2]} succeeded 0.7`)

    const md = readFileSync(summary, 'utf8')
    expect(md.split('\n')[0]).toBe('### ✅ All 2 groups passed')
    const rows = md.split('\n').filter((line) => /^\| [a-z-]+ \/ /.test(line))
    expect(rows).toHaveLength(2)
    expect(rows[1]).toMatch(/^\| codex \/ gpt-5 \| 0\.70<br><sub>mean of 3<\/sub> \| 0\.\d\d ± 0\.\d\d \| [−+]0\.\d\d \| ✅ passed \|$/)
    expect(md).toContain(
      `- **codex / gpt-5**: ${codex.runIds[0]} 0.70 (succeeded), ${codex.runIds[1]} 0.70 (succeeded), ${codex.runIds[2]} 0.70 (succeeded)\n`,
    )
  })

  it("a failure within the agent's rate: judged on the other two, said so, exit 0; failures beyond it fail the group (issue 35 §1)", async () => {
    // a history of 20 runs, then 4 launches in which codex failed: 4 of its 24 newest finished runs failed, and one
    // failure in three is within that rate
    await history(14)
    await plan({agent: 'codex', status: 'failed', count: 4})
    await plan({agent: 'claude-code', status: 'succeeded', score: 0.7, count: 4})
    for (let i = 0; i < 4; i++) await api('POST', `/orgs/${ORG}/eval-sets/${EVAL_SET}/run`, {})
    await plan({agent: 'codex', status: 'failed', score: 0.1, count: 1})
    await plan({agent: 'codex', status: 'succeeded', score: 0.7, count: 2})
    await plan({agent: 'claude-code', status: 'succeeded', score: 0.7, count: 3})
    const flaky = await e2e.current.amctl([...GATE, '--repeat', '3', '--json'])
    expect(flaky.exitCode, flaky.stderr).toBe(0)
    const codex = jsonDoc(flaky).groups.find((g: any) => g.agent === 'codex')
    expect(codex).toMatchObject({scores: [0.1, 0.7, 0.7], score: 0.7, failures: 1, flaky: true, verdict: 'passed'})
    expect(codex.outcomes).toMatchObject({failed: 1, cancelled: 0, succeeded: 2, baseline: {failed: 4}})
    expect(codex.outcomes.p).toBeGreaterThan(codex.outcomes.threshold)
    expect(lines(flaky.stderr)).toContainEqual(
      expect.stringMatching(
        /^! es_acme_checkout codex \/ gpt-5: scored 0\.70 \(mean of 2 runs\), 0\.\d\d (above|below) the mean of 20 earlier runs .*: within noise at 95 %; 1 of 3 failed, within its rate: 4 of 24 baseline runs failed \(16\.7 %\); P\(1 or more in 3\) = [\d.]+; judged on the other 2$/,
      ),
    )

    // a history in which codex never failed: two failures in three are beyond its rate
    await history(15)
    await plan({agent: 'codex', status: 'failed', score: 0.1, count: 2})
    await plan({status: 'succeeded', score: 0.7, count: 4})
    const broken = await e2e.current.amctl([...GATE, '--repeat', '3', '--json'])
    expect(broken.exitCode, broken.stderr).toBe(10)
    expect(jsonDoc(broken).groups.find((g: any) => g.agent === 'codex')).toMatchObject({
      failures: 2,
      verdict: 'failed',
      score: null,
      decision: {rule: 'failure-rate', failed: 2, of: 3},
    })
    expect(lines(broken.stderr).at(-1)).toMatch(
      /^✗ 1 of 2 groups did not pass: es_acme_checkout codex \/ gpt-5 2 of 3 runs failed, beyond its rate: 0 of \d+ baseline runs failed \(0 %\), under which 2 or more failures in 3 have a chance of [\d.]+, at most [\d.]+ is beyond \(\d+s\)$/,
    )
  })

  it('a launch with no answer (the second of three): exit 9, no third launch, nothing waited for; the first launch named', async () => {
    // the first launch passes through (a rule that takes it and never fires), the second is dropped after the server committed it
    const launch = `/eval-sets/${EVAL_SET}/run$`
    await e2e.current.fault({match: {method: 'POST', path: launch}, count: 1, probability: 0, actions: [{type: 'drop-after'}]})
    await e2e.current.fault({match: {method: 'POST', path: launch}, count: 1, actions: [{type: 'drop-after'}]})
    const [r, requests] = await requestsOf(e2e.current, () => e2e.current.amctl([...GATE, '--repeat', '3', '--json']))
    expect(r.exitCode, r.stderr).toBe(9)
    const post = `POST ${API}/orgs/${ORG}/eval-sets/${EVAL_SET}/run`
    // two launches, then the newest runs listed once: no poll, no baseline scan, no third launch
    expect(requests).toEqual([post, post, `GET ${API}/orgs/${ORG}/runs?limit=10`])
    const doc = jsonDoc(r)
    expect(doc.outcome).toBe('unknown')
    expect(doc.launches).toHaveLength(1)
    expect(lines(r.stderr)).toContain(
      `launch 2 of 3 got no answer; no further launch was made and nothing is waited for: the earlier launches started ${doc.launches[0].runIds.join(', ')}`,
    )
    // and the runs the first launch started are named as going on (issue 35 §2)
    expect(lines(r.stderr)).toContain(`2 runs still going on the server (the API cannot cancel runs): ${doc.launches[0].runIds.join(' ')}`)
  })
})
