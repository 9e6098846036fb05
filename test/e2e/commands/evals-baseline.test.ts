import {readFileSync, writeFileSync} from 'node:fs'
import {baselineAt} from '../../helpers/baseline.js'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempDir} from '../../helpers/temp.js'
import {useE2E} from '../helpers.js'
import {API, jsonDoc, lines, requestsOf} from './util.js'

// evals baseline save|show through the built CLI against a fresh dev server's seeded history
// (the file gate itself: ci-baseline-file.test.ts, ci-repeat-auto.test.ts)

const e2e = useE2E({runSeconds: 0})

describe('amctl evals baseline save', () => {
  it("from the seeded history: each agent and model of the eval set, its newest 50 succeeded, scored runs; one scan of the org's runs", async () => {
    const path = join(tempDir('amctl-e2e-baseline-'), 'checkout-baseline.json')
    const [r, requests] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['evals', 'baseline', 'save', 'es_acme_checkout', '--org', 'acme', '--file', path]),
    )
    expect(r.exitCode, r.stderr).toBe(0)
    expect(requests.every((line) => line.startsWith(`GET ${API}/orgs/acme/runs?limit=200`))).toBe(true)
    const file = baselineAt(path)
    expect(file).toMatchObject({version: 2, org: 'acme', evalSetId: 'es_acme_checkout', keep: 50})
    expect(file.groups.map((g) => [g.agent, g.model])).toEqual([
      ['claude-code', 'claude-sonnet-4-5'],
      ['codex', 'gpt-5'],
    ])
    for (const group of file.groups) expect(group.runs.length).toBeGreaterThanOrEqual(3)
    // piped: one row per group, as show gives it
    expect(lines(r.stdout).map((row) => row.split('\t').slice(0, 3))).toEqual(
      file.groups.map((g) => [g.agent, g.model, String(g.runs.length)]),
    )
    const [saved, ...warnings] = lines(r.stderr)
    expect(saved).toMatch(/^Saved \d+ runs of es_acme_checkout in 2 groups to /)
    // the seeded claude-code moved from 0.90 to 0.84 at run_acme_0121 (docs/dev-server.md): said, with the window that keeps the new level
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^warning: claude-code \/ claude-sonnet-4-5: its scores moved from 0\.90 to 0\.8\d at run_acme_0121 /)
    expect(warnings[0]).toMatch(/Save only the new level with --baseline-window \d+h\b/)
  })
})

describe('amctl evals baseline show', () => {
  it('--json is the file with its path; a file that is not valid is exit 2 naming it, with no request', async () => {
    const dir = tempDir('amctl-e2e-baseline-')
    const path = join(dir, 'search-baseline.json')
    expect((await e2e.current.amctl(['evals', 'baseline', 'save', 'es_acme_search', '--org', 'acme', '--file', path])).exitCode).toBe(0)
    const shown = await e2e.current.amctl(['evals', 'baseline', 'show', path, '--json'])
    expect(shown.exitCode, shown.stderr).toBe(0)
    expect(jsonDoc(shown)).toMatchObject({path, ...(JSON.parse(readFileSync(path, 'utf8')).groups[0] && {evalSetId: 'es_acme_search'})})
    const text = readFileSync(path, 'utf8')
    writeFileSync(path, text.replace(/"score": 0\.\d+/, '"score": 1.5'))
    const [bad, requests] = await requestsOf(e2e.current, () => e2e.current.amctl(['evals', 'baseline', 'show', path]))
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(
      new RegExp(
        `^error: baseline file ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: groups\\[0\\]\\.runs\\[0\\]\\.score is not a score from 0 to 1: 1\\.5 \\(invalid_request\\)\\n$`,
      ),
    )
    expect(requests).toEqual([])
  })

  it("a file of the seeded es_acme_checkout: claude-code is `shifted` where its scores moved (run_acme_0121), as save's warning says", async () => {
    const path = join(tempDir('amctl-e2e-baseline-'), 'checkout-baseline.json')
    expect((await e2e.current.amctl(['evals', 'baseline', 'save', 'es_acme_checkout', '--org', 'acme', '--file', path])).exitCode).toBe(0)
    const shown = await e2e.current.amctl(['evals', 'baseline', 'show', path, '--json'])
    expect(shown.exitCode, shown.stderr).toBe(0)
    const [claude] = jsonDoc(shown).groups
    expect(claude).toMatchObject({agent: 'claude-code', verdict: 'shifted', shift: {runId: 'run_acme_0121'}})
    expect(claude.shift.delta).toBeLessThan(-0.04)
    const piped = await e2e.current.amctl(['evals', 'baseline', 'show', path])
    expect(lines(piped.stdout)[0].split('\t').slice(7, 9)).toEqual(['shifted', 'run_acme_0121'])
  })
})
