import {readFileSync, writeFileSync} from 'node:fs'
import {baselineAt} from '../../helpers/baseline.js'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {type BaselineFile, baselineFileText, groupStats} from '../../../src/gate/baseline-file.js'
import {tempDir} from '../../helpers/temp.js'
import {useE2E} from '../helpers.js'
import {API, jsonDoc, lines, requestsOf, useOutcomePlans} from './util.js'

// The baseline file (issue 29 §1–2) through the built CLI against the dev server: launched runs
// finish at once (--run-seconds 0); each test gives the eval set a history of its own (launches
// whose scores the dev server draws from an outcome plan with mean, sd and seed), then plans how
// the judged launches end.

const e2e = useE2E({runSeconds: 0})
const ORG = 'acme'
const EVAL_SET = 'es_acme_checkout' // two targets: claude-code / claude-sonnet-4-5 and codex / gpt-5
const plan = useOutcomePlans(e2e, ORG, EVAL_SET)

async function launch(): Promise<{runIds: string[]}> {
  const res = await fetch(`${e2e.current.url}${API}/orgs/${ORG}/eval-sets/${EVAL_SET}/run`, {
    method: 'POST',
    headers: {authorization: `Bearer ${await e2e.current.token()}`, 'content-type': 'application/json'},
    body: '{}',
  })
  if (!res.ok) throw new Error(`launch: ${res.status}`)
  return res.json() as Promise<{runIds: string[]}>
}

/** `n` launches of the eval set scoring N(mean, sd) for every target. */
async function history(seed: number, mean: number, sd: number, n = 20): Promise<void> {
  await plan({status: 'succeeded', mean, sd, seed, count: 2 * n})
  for (let i = 0; i < n; i++) await launch()
}

const GATE = ['evals', 'run', EVAL_SET, '--org', ORG, '--wait', '--interval', '1']

describe('--baseline-file against the dev server', () => {
  it('a drop of 4 sd on 12 launches: regressed on all 12 against the file, which is untouched; the history gate drifts', async () => {
    await history(21, 0.84, 0.02)
    const dir = tempDir('amctl-e2e-file-')
    const path = join(dir, 'baseline.json')
    const saved = await e2e.current.amctl(['evals', 'baseline', 'save', EVAL_SET, '--org', ORG, '--file', path, '--baseline-runs', '20'])
    expect(saved.exitCode, saved.stderr).toBe(0)
    const before = readFileSync(path, 'utf8')
    let file = 0
    let hist = 0
    for (let i = 0; i < 12; i++) {
      // codex dropped to 0.76: 4 sd below 0.84 ± 0.02 (the example), on every launch
      await plan({agent: 'codex', status: 'succeeded', score: 0.76, count: 1})
      await plan({agent: 'claude-code', status: 'succeeded', score: 0.84, count: 1})
      const gated = await e2e.current.amctl([...GATE, '--baseline-file', path, '--json'])
      const doc = jsonDoc(gated)
      const codex = doc.runs.find((run: any) => run.agent === 'codex')
      expect(codex.baseline).toMatchObject({kind: 'file', path, runs: expect.any(Number), stale: false})
      if (codex.verdict === 'regressed') file++
      expect(gated.exitCode).toBe(codex.verdict === 'regressed' ? 10 : 0)
      const watched = await e2e.current.amctl(['runs', 'watch', ...doc.runIds, '--org', ORG, '--baseline', 'history', '--json'])
      if (jsonDoc(watched).items.find((run: any) => run.agent === 'codex').verdict === 'regressed') hist++
    }
    expect(file).toBe(12)
    expect(hist).toBeLessThan(12)
    expect(readFileSync(path, 'utf8')).toBe(before)
    // (24 runs of the CLI: on 2 busy cores, more than the default 30 s)
  }, 180_000)

  it("--update-baseline: the step's succeeded, scored runs join their groups (a regressed one too), each keeps the newest `keep`", async () => {
    await history(22, 0.7, 0.03, 5)
    const dir = tempDir('amctl-e2e-file-')
    const path = join(dir, 'baseline.json')
    const saved = await e2e.current.amctl(['evals', 'baseline', 'save', EVAL_SET, '--org', ORG, '--file', path, '--baseline-runs', '4'])
    expect(saved.exitCode, saved.stderr).toBe(0)
    const oldest = baselineAt(path).groups.map((g) => g.runs[0].id)
    await plan({agent: 'codex', status: 'succeeded', score: 0.2, count: 1})
    await plan({agent: 'claude-code', status: 'succeeded', score: 0.71, count: 1})
    const r = await e2e.current.amctl([...GATE, '--baseline-file', path, '--update-baseline', '--json'])
    expect(r.exitCode, r.stderr).toBe(10)
    const doc = jsonDoc(r)
    const after = baselineAt(path)
    for (const group of after.groups) {
      expect(group.runs).toHaveLength(4)
      const mine = doc.runs.find((run: any) => run.agent === group.agent)
      expect(group.runs.at(-1)).toMatchObject({id: mine.id, score: mine.score})
      expect(group.runs.map((run) => run.id)).not.toContain(oldest[after.groups.indexOf(group)])
    }
    expect(lines(r.stderr)).toContain(
      `--update-baseline: added 2 runs to ${path}: 1 to claude-code / claude-sonnet-4-5, 1 to codex / gpt-5; 2 older runs dropped (each group keeps 4)`,
    )
    // the same runs again (runs watch of the step): nothing is added twice, the file stays as it is
    const text = readFileSync(path, 'utf8')
    const again = await e2e.current.amctl(['runs', 'watch', ...doc.runIds, '--org', ORG, '--baseline-file', path, '--update-baseline'])
    expect(lines(again.stderr)).toContain(
      `--update-baseline: ${path} unchanged: no run of this step is new to it (one that succeeded with a score, failed or was cancelled)`,
    )
    expect(readFileSync(path, 'utf8')).toBe(text)
  })

  it('evals baseline save --runs -: exactly the runs of an `evals run --json` document', async () => {
    await plan({status: 'succeeded', mean: 0.7, sd: 0.03, seed: 23, count: 6})
    const launched = await e2e.current.amctl(['evals', 'run', EVAL_SET, '--org', ORG, '--repeat', '3', '--wait', '--json'])
    const doc = jsonDoc(launched)
    const path = join(tempDir('amctl-e2e-file-'), 'baseline.json')
    const r = await e2e.current.amctl(['evals', 'baseline', 'save', EVAL_SET, '--org', ORG, '--file', path, '--runs', '-'], {
      input: launched.stdout,
    })
    expect(r.exitCode, r.stderr).toBe(0)
    const file = baselineAt(path)
    expect(file.groups.flatMap((g) => g.runs.map((run) => run.id)).sort()).toEqual([...doc.runIds].sort())
    const unwaited = await e2e.current.amctl(['evals', 'run', EVAL_SET, '--org', ORG, '--json'])
    const only = await e2e.current.amctl(['evals', 'baseline', 'save', EVAL_SET, '--org', ORG, '--file', path, '--runs', '-'], {
      input: unwaited.stdout,
    })
    expect(only.exitCode, only.stderr).toBe(0)
    expect(
      baselineAt(path)
        .groups.flatMap((g) => g.runs.map((run) => run.id))
        .sort(),
    ).toEqual([...jsonDoc(unwaited).runIds].sort())
  })

  it('a stale file: a warning on stderr, in the summary and as ::warning, "stale": true; with --require-baseline exit 10', async () => {
    const dir = tempDir('amctl-e2e-file-')
    const path = join(dir, 'baseline.json')
    const old = (i: number) => new Date(Date.UTC(2020, 0, 1, 0, i)).toISOString()
    const group = (agent: string, model: string) => {
      const runs = [0.69, 0.7, 0.71, 0.7, 0.72].map((score, i) => ({id: `run_old_${agent}_${i}`, score, createdAt: old(i)}))
      return {agent, model, ...groupStats(runs), runs, setAside: [], failed: [], cancelled: []}
    }
    const file: BaselineFile = {
      version: 2,
      org: ORG,
      evalSetId: EVAL_SET,
      savedAt: old(10),
      keep: 50,
      groups: [group('claude-code', 'claude-sonnet-4-5'), group('codex', 'gpt-5')],
    }
    writeFileSync(path, baselineFileText(file))
    await plan({status: 'succeeded', score: 0.7, count: 4})
    const summary = join(dir, 'summary.md')
    const r = await e2e.current.amctl([...GATE, '--baseline-file', path, '--json', '--summary', summary, '--ci-annotations'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(jsonDoc(r).runs.map((run: any) => [run.verdict, run.baseline.stale])).toEqual([
      ['passed', true],
      ['passed', true],
    ])
    expect(lines(r.stderr)).toContainEqual(
      expect.stringMatching(
        new RegExp(`^warning: the baseline file ${path} is stale for run_\\w+, run_\\w+: no run newer than --baseline-max-age 30d`),
      ),
    )
    expect(lines(r.stderr).filter((line) => line.startsWith('::warning title=amctl%3A stale baseline for run'))).toHaveLength(2)
    expect(readFileSync(summary, 'utf8')).toContain(`⚠️ The baseline file ${path} is stale for`)
    // the table's BASELINE says mean ± sd (n); stderr says whose
    expect(lines(r.stderr)).toContain(`judged against ${path} (${EVAL_SET}, saved 2020-01-01T00:10:00.000Z)`)
    const strict = await e2e.current.amctl([...GATE, '--baseline-file', path, '--require-baseline', '--json'])
    expect(strict.exitCode, strict.stderr).toBe(10)
    expect(jsonDoc(strict).runs.map((run: any) => run.verdict)).toEqual(['no-baseline', 'no-baseline'])
  })

  it('an invalid file, or one of another eval set or org: exit 2 naming it, nothing launched', async () => {
    const dir = tempDir('amctl-e2e-file-')
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"version": 1, "org": "acme"}')
    const [invalid, none] = await requestsOf(e2e.current, () => e2e.current.amctl([...GATE, '--baseline-file', bad]))
    expect(invalid.exitCode).toBe(2)
    expect(invalid.stderr).toBe(`error: baseline file ${bad}: has no "evalSetId" (invalid_request)\n`)
    expect(none).toEqual([])
    const other = join(dir, 'other.json')
    writeFileSync(
      other,
      baselineFileText({version: 2, org: ORG, evalSetId: 'es_acme_search', savedAt: '2026-01-01T00:00:00Z', keep: 20, groups: []}),
    )
    const [wrong, requests] = await requestsOf(e2e.current, () => e2e.current.amctl([...GATE, '--baseline-file', other]))
    expect(wrong.exitCode).toBe(2)
    expect(wrong.stderr).toBe(`error: --baseline-file ${other} holds runs of eval set es_acme_search, not ${EVAL_SET} (invalid_request)\n`)
    expect(requests.filter((line) => line.startsWith('POST'))).toEqual([])
    writeFileSync(
      other,
      baselineFileText({version: 2, org: 'globex', evalSetId: EVAL_SET, savedAt: '2026-01-01T00:00:00Z', keep: 20, groups: []}),
    )
    const org = await e2e.current.amctl([...GATE, '--baseline-file', other])
    expect(org.exitCode).toBe(2)
    expect(org.stderr).toBe(`error: --baseline-file ${other} holds runs of organization globex, not ${ORG} (invalid_request)\n`)
  })

  it('--update-baseline on a file of 20 runs at 0.84 and a step of 5 launches at 0.77 for codex: one warning that its level moved, in --json too; claude-code, unchanged, none', async () => {
    await history(24, 0.84, 0.02)
    const path = join(tempDir('amctl-e2e-file-'), 'baseline.json')
    const saved = await e2e.current.amctl(['evals', 'baseline', 'save', EVAL_SET, '--org', ORG, '--file', path, '--baseline-runs', '20'])
    expect(saved.exitCode, saved.stderr).toBe(0)
    await plan({agent: 'codex', status: 'succeeded', mean: 0.77, sd: 0.005, seed: 25, count: 5})
    await plan({agent: 'claude-code', status: 'succeeded', mean: 0.84, sd: 0.02, seed: 26, count: 5})
    const r = await e2e.current.amctl([...GATE, '--repeat', '5', '--baseline-file', path, '--update-baseline', '--json'])
    expect(r.exitCode, r.stderr).toBe(10)
    const doc = jsonDoc(r)
    const codex = doc.runs.filter((run: any) => run.agent === 'codex')
    expect(doc.baselineUpdate.changes).toEqual([expect.objectContaining({kind: 'level', group: 'codex / gpt-5', runId: codex[0].id})])
    const [change] = doc.baselineUpdate.changes
    expect(change.to).toBeCloseTo(0.77, 1)
    expect(change.sds).toBeGreaterThan(2.5)
    const warnings = lines(r.stderr).filter((line) => line.startsWith('warning: '))
    expect(warnings).toEqual([`warning: ${doc.baselineUpdate.warnings[0]}`])
    expect(warnings[0]).toMatch(
      new RegExp(
        `^warning: codex / gpt-5 moved from 0\\.8\\d to 0\\.7\\d at ${codex[0].id} \\(−0\\.\\d\\d, \\d+\\.\\d sd\\): this update makes it the baseline$`,
      ),
    )
  })
})
