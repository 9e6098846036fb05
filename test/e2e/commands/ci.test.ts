import {spawn} from 'node:child_process'
import {existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {amctlOnPath, freshConfigDir} from '../../helpers/bin.js'
import {amctlLines, ciExample} from '../../helpers/ci-examples.js'
import {tempDir} from '../../helpers/temp.js'
import {junitSchemaErrors, parseJunit} from '../../gate/reports/fixtures.js'
import {useE2E} from '../helpers.js'
import {jsonDoc, lines, requestsOf, untimed} from './util.js'
import {machinePath, sealedEnv} from '../../helpers/env.js'

// Evals as a CI gate (issue 17), against the dev server: launched runs finish at once
// (--run-seconds 0) with outcomes planned through /_dev/orgs/:org/outcomes, compared with the
// seeded history (--baseline previous), reported as JUnit XML, Markdown and GitHub annotations.
// The tests of this file run in order on one server: each launch becomes history for the next.

const e2e = useE2E({runSeconds: 0})
const plan = (org: string, body: Record<string, unknown>) => e2e.current.hook('POST', `/_dev/orgs/${org}/outcomes`, body)
afterEach(async () => {
  for (const org of ['acme', 'globex']) await e2e.current.hook('DELETE', `/_dev/orgs/${org}/outcomes`)
})

/** A shell line run by bash as a CI runner would (asynchronously: the dev server answers from this process). */
function bash(line: string, cwd: string, env: Record<string, string>): Promise<{code: number | null; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-ec', line], {cwd, env, stdio: ['ignore', 'ignore', 'pipe']})
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stderr}))
  })
}

const GATE = ['--wait', '--interval', '1', '--baseline', 'previous', '--max-drop', '0.1']

describe('evals run --wait as a CI gate against the dev server', () => {
  it('a regression beyond --max-drop fails with exit 10 and names the baseline; the JUnit report says which rule', async () => {
    const dir = tempDir('amctl-e2e-ci-')
    // the newest succeeded codex / gpt-5 run of es_acme_checkout in the seeded history is run_acme_0252 (0.67)
    await plan('acme', {evalSetId: 'es_acme_checkout', agent: 'codex', status: 'succeeded', score: 0.3, count: 1})
    await plan('acme', {evalSetId: 'es_acme_checkout', agent: 'claude-code', status: 'succeeded', score: 0.9, count: 1})
    const junit = join(dir, 'evals.xml')
    const r = await e2e.current.amctl(['evals', 'run', 'es_acme_checkout', '--org', 'acme', ...GATE, '--junit', junit, '--json'])
    expect(r.exitCode, r.stderr).toBe(10)
    const doc = jsonDoc(r)
    const codex = doc.runs.find((run: any) => run.agent === 'codex')
    expect(codex).toMatchObject({status: 'succeeded', score: 0.3, baseline: {runId: 'run_acme_0252', score: 0.67}, delta: -0.37})
    expect(untimed(lines(r.stderr).at(-1))).toBe(
      `✗ 1 of 2 runs did not pass: ${codex.id} scored 0.3, 0.37 below baseline run_acme_0252 (0.67; --max-drop 0.1)`,
    )
    const xml = readFileSync(junit, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    const [suite] = parseJunit(xml).testsuites.testsuite
    expect(suite).toMatchObject({'@_name': 'es_acme_checkout', '@_tests': '2', '@_failures': '1', '@_hostname': '127.0.0.1'})
    expect(suite.testcase.find((c: any) => c.failure).failure['@_type']).toBe('max-drop')
  })

  it('an improvement passes: exit 0, every run compared with its own baseline', async () => {
    await plan('acme', {evalSetId: 'es_acme_search', status: 'succeeded', score: 0.95, count: 3})
    const r = await e2e.current.amctl(['evals', 'run', 'es_acme_search', '--org', 'acme', ...GATE, '--min-score', '0.5', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    const runs = jsonDoc(r).runs
    expect(runs.map((run: any) => run.baseline.runId)).toEqual(['run_acme_0253', 'run_acme_0254', 'run_acme_0255'])
    expect(runs.map((run: any) => run.delta)).toEqual([0.21, 0.28, 0.38])
  })

  it('GitHub Actions: one ::error per failing run on stderr and the summary in $GITHUB_STEP_SUMMARY; stdout stays data', async () => {
    const dir = tempDir('amctl-e2e-ci-')
    const stepSummary = join(dir, 'summary.md')
    writeFileSync(stepSummary, '')
    await plan('globex', {status: 'succeeded', score: 0.2, count: 1})
    const r = await e2e.current.amctl(['evals', 'run', 'es_globex_onboarding', '--org', 'globex', ...GATE, '--min-score', '0.5'], {
      env: {GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary},
    })
    expect(r.exitCode, r.stderr).toBe(10)
    const [id] = lines(r.stdout).map((line) => line.split('\t')[0])
    expect(lines(r.stdout)).toHaveLength(1)
    expect(lines(r.stderr).filter((line) => line.startsWith('::'))).toEqual([
      `::error title=amctl%3A run ${id} did not pass::es_globex_onboarding claude-code / claude-sonnet-4-5: scored 0.2 (below 0.5)`,
    ])
    const summary = readFileSync(stepSummary, 'utf8')
    expect(summary.split('\n')[0]).toBe('### ❌ **claude-code / claude-sonnet-4-5** scored 0.20, below --min-score 0.5')
    expect(summary).toContain(
      `| claude-code / claude-sonnet-4-5<br><sub>${id}</sub> | 0.20 | 0.77<br><sub>run_globex_0036</sub> | −0.57 | ❌ below-min-score |`,
    )
  })

  it('a timeout (exit 11) writes the runs not finished as <skipped>', async () => {
    const dir = tempDir('amctl-e2e-ci-')
    // seeded run_acme_0259 stays running
    const r = await e2e.current.amctl([
      'runs',
      'watch',
      'run_acme_0259',
      '--org',
      'acme',
      '--interval',
      '1',
      '--wait-timeout',
      '1',
      '--junit',
      join(dir, 'e.xml'),
      '--summary',
      join(dir, 'e.md'),
    ])
    expect(r.exitCode, r.stderr).toBe(11)
    const xml = readFileSync(join(dir, 'e.xml'), 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    const [suite] = parseJunit(xml).testsuites.testsuite
    expect(suite).toMatchObject({'@_tests': '1', '@_skipped': '1', '@_failures': '0'})
    expect(suite.testcase[0].skipped['@_message']).toBe('not finished within --wait-timeout 1s (running)')
    expect(readFileSync(join(dir, 'e.md'), 'utf8').split('\n')[0]).toBe('### ⏱️ 1 of 1 run not finished within --wait-timeout 1s')
  })

  it('an unwritable --junit path: exit 2 naming it, nothing launched, no request sent', async () => {
    const dir = tempDir('amctl-e2e-ci-')
    writeFileSync(join(dir, 'file'), '')
    const [r, requests] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--wait', '--junit', join(dir, 'file', 'evals.xml')]),
    )
    expect(r.exitCode).toBe(2)
    expect(lines(r.stderr)).toEqual([
      expect.stringMatching(/^error: --junit .*\/file\/evals\.xml cannot be written: .*\(invalid_request\)$/),
    ])
    expect(requests).toEqual([])
  })

  it('report paths naming one file through a link, or holding a control character: exit 2 naming them, nothing launched (issue 32 items 7, 13)', async () => {
    const dir = tempDir('amctl-e2e-ci-')
    // a link not yet pointing at an existing file: the JUnit report would make the file the summary then replaces
    symlinkSync('evals.xml', join(dir, 'link.md'))
    const cases: Array<[string[], RegExp]> = [
      [['--junit', join(dir, 'evals.xml'), '--summary', join(dir, 'link.md')], /^error: --junit .* and --summary .* are the same file;/],
      [['--junit', `${dir}/x.xml\nverdict=passed\nexit-code=0`], /^error: --junit must be a file path without control characters/],
      [['--summary', `${dir}/s.md\r`], /^error: --summary must be a file path without control characters/],
    ]
    for (const [flags, message] of cases) {
      const [r, requests] = await requestsOf(e2e.current, () =>
        e2e.current.amctl(['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--wait', ...flags]),
      )
      expect(r.exitCode, r.stderr).toBe(2)
      expect(lines(r.stderr)).toEqual([expect.stringMatching(message)])
      expect(requests).toEqual([])
    }
    expect(readdirSync(dir)).toEqual(['link.md'])
  })
})

describe('the CI examples (examples/ci) run against the dev server', () => {
  // (the GitHub example's one step is the action, run by test/release/action.test.ts with the
  // GitLab job's whole script; here the GitLab job's amctl line runs with this checkout's amctl)
  it('gitlab-ci.yml: its amctl line passes the gate and leaves a valid JUnit report and the summary', async () => {
    const cwd = tempDir('amctl-e2e-ci-example-')
    const exampleEnv = ciExample('gitlab-ci.yml').evals.variables
    await plan('acme', {evalSetId: 'es_acme_search', status: 'succeeded', score: 0.97})
    const lines = amctlLines('gitlab-ci.yml')
    expect(lines).toHaveLength(1)
    for (const line of lines) {
      const r = await bash(line, cwd, {
        ...sealedEnv({PATH: `${amctlOnPath()}:${machinePath()}`, HOME: cwd}),
        AMCTL_ORG: exampleEnv.AMCTL_ORG,
        AMCTL_BASE_URL: e2e.current.url,
        AMCTL_TOKEN: await e2e.current.token(),
        AMCTL_CONFIG_DIR: freshConfigDir(),
        AMCTL_KEYCHAIN: 'off',
      })
      expect(r.code, `${line}\n${r.stderr}`).toBe(0)
    }
    const xml = readFileSync(join(cwd, 'reports', 'evals.xml'), 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(parseJunit(xml).testsuites.testsuite[0]).toMatchObject({'@_name': 'es_acme_search', '@_tests': '3', '@_failures': '0'})
    expect(existsSync(join(cwd, 'reports', 'evals.md'))).toBe(true)
  })
})
