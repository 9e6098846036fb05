import {execFileSync, spawn} from 'node:child_process'
import {createReadStream, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {type ActionResult, type RunActionOptions, runAction} from '../helpers/action-runner.js'
import {ciExample} from '../helpers/ci-examples.js'
import {ROOT} from '../helpers/cli.js'
import {startServer, type TestServer} from '../helpers/http-server.js'
import {tempDir} from '../helpers/temp.js'
import {junitSchemaErrors, parseJunit} from '../output/reports/fixtures.js'
import {useE2E} from '../e2e/helpers.js'
import {harness, registryTrust, sealedEnv} from '../helpers/env.js'

// The GitHub Action (action.yml) end to end: its steps run as the Actions runner runs them
// (test/helpers/action-runner.ts), against the dev server and a release that `npm run release`
// built, served by a local HTTP server in place of the GitHub release. That release is
// AMCTL_RELEASE_DIR when set (.ci/run points it at release/, whose executable carries Node 24);
// else one this file builds with bin/release.js, its executable carrying the Node running the tests.
// The GitLab example's job, which installs the same release's executable, runs here too.

const release = await import(pathToFileURL(join(ROOT, 'bin', 'release.js')).href)
const {version} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
const e2e = useE2E({runSeconds: 0})
const plan = (body: Record<string, unknown>) => e2e.current.hook('POST', '/_dev/orgs/acme/outcomes', body)
const clearPlans = () => e2e.current.hook('DELETE', '/_dev/orgs/acme/outcomes')
/** The GitHub account the examples' <owner> stands for here (docs/install.md#where-amctl-comes-from). */
const OWNER = 'acme-labs'

let releaseDir: string
let server: TestServer
/** The path of each file the release server was asked for, cleared by each test that counts them. */
const served: string[] = []

beforeAll(async () => {
  releaseDir = harness.releaseDir ?? buildRelease()
  const exe = join(releaseDir, release.executableName())
  if (!existsSync(exe)) throw new Error(`${exe} is missing: AMCTL_RELEASE_DIR must hold a release of this platform`)
  server = await startServer(async (req, res) => {
    served.push(req.path)
    // /<owner>/amctl/releases/download/v<version>/<file> as GitHub serves a release; /mirror/<file>
    // as a mirror would; /tampered/<file> a mirror whose executable is not the release's
    const m = /^\/(?:[^/]+\/amctl\/releases\/download\/v([^/]+)|mirror|tampered)\/([^/]+)$/.exec(req.path)
    const file = m && join(releaseDir, m[2])
    if (!m || (m[1] !== undefined && m[1] !== version) || !existsSync(file!) || m[2].startsWith('.')) {
      res.writeHead(404).end('Not Found')
      return
    }
    const tampered = req.path.startsWith('/tampered/') && m[2] !== 'SHA256SUMS'
    res.writeHead(200, {'content-type': 'application/octet-stream', 'content-length': statSync(file!).size + (tampered ? 1 : 0)})
    const stream = createReadStream(file!)
    stream.on('end', () => res.end(tampered ? 'x' : undefined))
    stream.pipe(res, {end: false})
  })
}, 240_000)
afterAll(async () => {
  await server?.close()
})
afterEach(clearPlans)

/** A release of this checkout (dist/ as the test run built it), with this Node inside its executable. */
function buildRelease(): string {
  const out = tempDir('amctl-action-release-')
  execFileSync(process.execPath, [join(ROOT, 'bin', 'release.js'), '--no-build', '--node', process.execPath, '--out', out], {
    cwd: ROOT,
    stdio: 'pipe',
    // (npm on Node >= 22 keeps a compile cache in the temp directory, which the run's must not keep;
    // its install of the package fetches the keychain module from the registry)
    env: sealedEnv({NODE_DISABLE_COMPILE_CACHE: '1', ...registryTrust()}),
  })
  return out
}

/** Where the runner keeps an action a workflow `uses:` (_actions/OWNER/NAME/REF), here this checkout. */
function checkedOutAction(ref = 'v0'): string {
  const dir = join(tempDir('amctl-runner-work-'), '_actions', OWNER, 'amctl')
  mkdirSync(dir, {recursive: true})
  symlinkSync(ROOT, join(dir, ref))
  return join(dir, ref)
}

/** The GitHub example's job: its environment and the step that uses the action. */
function githubExample(): {env: Record<string, string>; step: any} {
  const job = ciExample('github-actions.yml').jobs.evals
  const step = job.steps.find((s: any) => typeof s.uses === 'string' && s.uses.endsWith('/amctl@v0'))
  return {env: job.env, step}
}

async function runExampleStep(options: Partial<RunActionOptions> & {workspace: string}): Promise<ActionResult> {
  const {env, step} = githubExample()
  return runAction({
    actionPath: checkedOutAction(),
    with: step.with,
    env: {
      AMCTL_TOKEN: await e2e.current.token(),
      AMCTL_BASE_URL: e2e.current.url,
      AMCTL_ORG: env.AMCTL_ORG,
      AMCTL_CONFIG_DIR: tempDir('amctl-runner-config-'),
      // the release server stands in for github.com
      GITHUB_SERVER_URL: server.url,
    },
    ...options,
  })
}

const stepOf = (result: ActionResult, id: string) => result.steps.find((s) => s.id === id)!

// each run of the action starts the executable (its first run writes 8 MB) and waits for runs: on
// a loaded machine a run takes tens of seconds
describe('the GitHub Action (action.yml) against a local release and the dev server', {timeout: 240_000}, () => {
  it("the GitHub example's step: installs this action's own release for Linux x64, checked and cached; the gate passes", async () => {
    served.length = 0
    const cacheStore = new Map<string, string>()
    const workspace = tempDir('amctl-workspace-')
    await plan({evalSetId: 'es_acme_search', status: 'succeeded', score: 0.97})
    const result = await runExampleStep({workspace, cacheStore})
    expect(result.success, JSON.stringify(result.steps, null, 2)).toBe(true)

    // the release of the action's own version, from the repository the action was checked out from
    const base = `/${OWNER}/amctl/releases/download/v${version}`
    expect(served).toEqual([`${base}/SHA256SUMS`, `${base}/${release.executableName()}`])
    expect(stepOf(result, 'install').stdout).toContain(
      `amctl ${version} (amctl-linux-x64) downloaded from ${server.url}${base}, matching SHA256SUMS`,
    )
    expect(stepOf(result, 'install').stdout).toMatch(new RegExp(`^amctl/${version.replaceAll('.', '\\.')} linux-x64 node-v`, 'm'))
    const installed = result.outputs.amctl
    expect(installed).toMatch(new RegExp(`/amctl/${version.replaceAll('.', '\\.')}/linux-x64/amctl$`))
    expect(release.sha256(installed)).toBe(release.sha256(join(releaseDir, 'amctl-linux-x64')))
    expect(result.path).toEqual([installed.replace(/\/amctl$/, '')])
    expect(result.cache.saved).toEqual([
      expect.stringMatching(new RegExp(`^amctl-${version.replaceAll('.', '\\.')}-linux-x64-[0-9a-f]{64}$`)),
    ])

    // (the seeded history makes one of the three runs score above its noise: the step's verdict says so)
    expect(result.outputs).toMatchObject({'exit-code': '0', verdict: 'improved', junit: 'reports/evals.xml', summary: 'reports/evals.md'})
    const xml = readFileSync(join(workspace, 'reports', 'evals.xml'), 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(parseJunit(xml).testsuites.testsuite[0]).toMatchObject({'@_name': 'es_acme_search', '@_tests': '3', '@_failures': '0'})
    expect(readFileSync(join(workspace, 'reports', 'evals.md'), 'utf8')).toContain('✅ amctl: all 3 runs passed')
    // the job summary comes from amctl (GITHUB_ACTIONS=true), with no flag
    expect(result.stepSummary).toContain('✅ amctl: all 3 runs passed')
    const doc = JSON.parse(readFileSync(result.outputs.json, 'utf8'))
    expect(doc.runs.map((run: any) => run.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
    expect(doc.runs.every((run: any) => run.evalSetId === 'es_acme_search')).toBe(true)

    // a later job: amctl comes from the cache (only SHA256SUMS is downloaded, to check it); a
    // run below --min-score fails the step with exit 10 and an annotation
    served.length = 0
    await clearPlans()
    await plan({evalSetId: 'es_acme_search', agent: 'codex', status: 'succeeded', score: 0.3, count: 1})
    const later = await runExampleStep({workspace: tempDir('amctl-workspace-'), cacheStore})
    expect(served).toEqual([`${base}/SHA256SUMS`])
    expect(later.cache.restored).toEqual(result.cache.saved)
    expect(stepOf(later, 'install').stdout).toContain(`amctl ${version} (amctl-linux-x64) from the cache, matching SHA256SUMS`)
    expect(later.success).toBe(false)
    expect(later.outputs).toMatchObject({
      'exit-code': '10',
      verdict: 'below-min-score',
      junit: 'reports/evals.xml',
      summary: 'reports/evals.md',
    })
    expect(stepOf(later, 'evals').exitCode).toBe(10)
    expect(stepOf(later, 'evals').stderr).toMatch(
      /^::error title=amctl%3A run run_\w+ did not pass::es_acme_search codex \/ gpt-5: scored 0\.3/m,
    )
    expect(stepOf(later, 'evals').stdout).toContain('amctl exited 10: below-min-score')
  })

  it('a release whose executable does not match SHA256SUMS installs nothing and runs nothing', async () => {
    served.length = 0
    const result = await runExampleStep({
      workspace: tempDir('amctl-workspace-'),
      with: {...githubExample().step.with, 'release-url': `${server.url}/tampered`},
    })
    expect(result.success).toBe(false)
    expect(served).toEqual(['/tampered/SHA256SUMS', '/tampered/amctl-linux-x64'])
    const install = stepOf(result, 'install')
    expect(install.exitCode).toBe(1)
    expect(install.stdout).toMatch(
      new RegExp(
        `^::error title=amctl action::${server.url}/tampered/amctl-linux-x64 has SHA-256 [0-9a-f]{64}, not [0-9a-f]{64} as SHA256SUMS says: not installed$`,
        'm',
      ),
    )
    expect(result.steps.map((s) => s.id ?? s.name)).not.toContain('evals')
    expect(result.outputs).toMatchObject({amctl: '', 'exit-code': '', verdict: ''})
    expect(result.path).toEqual([])
  })

  it('token, base URL and organization as inputs; a bad flag in `args` is exit 2, verdict error, no report', async () => {
    const workspace = tempDir('amctl-workspace-')
    const result = await runAction({
      actionPath: checkedOutAction(),
      workspace,
      with: {
        'eval-set': 'es_acme_search',
        org: 'acme',
        token: await e2e.current.token(),
        'base-url': e2e.current.url,
        'release-url': `${server.url}/mirror/`,
        junit: 'reports/evals.xml',
        args: '--interval 1\n--no-such-flag',
      },
      env: {AMCTL_CONFIG_DIR: tempDir('amctl-runner-config-')},
    })
    expect(result.success).toBe(false)
    expect(result.outputs).toMatchObject({'exit-code': '2', verdict: 'error', junit: '', json: ''})
    expect(stepOf(result, 'evals').stderr).toMatch(/no-such-flag/)
    expect(existsSync(join(workspace, 'reports'))).toBe(false)
  })

  it('the GitLab example: downloads the same executable, checks it against SHA256SUMS, installs it and gates', async () => {
    const job = ciExample('gitlab-ci.yml').evals
    const cwd = tempDir('amctl-gitlab-')
    await plan({evalSetId: 'es_acme_search', status: 'succeeded', score: 0.97})
    const env = {
      ...sealedEnv({HOME: cwd}),
      ...job.variables,
      AMCTL_RELEASE_URL: `${server.url}/mirror`,
      AMCTL_BASE_URL: e2e.current.url,
      AMCTL_TOKEN: await e2e.current.token(),
      AMCTL_CONFIG_DIR: tempDir('amctl-runner-config-'),
    }
    const run = await new Promise<{code: number | null; stdout: string; stderr: string}>((resolve, reject) => {
      // GitLab runs the script's lines in one shell, stopping at the first that fails
      const child = spawn('bash', ['-ec', (job.script as string[]).join('\n')], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']})
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
      child.on('error', reject)
      child.on('close', (code) => resolve({code, stdout, stderr}))
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('amctl-linux-x64: OK')
    expect(release.sha256(join(cwd, '.amctl', 'amctl'))).toBe(release.sha256(join(releaseDir, 'amctl-linux-x64')))
    const xml = readFileSync(join(cwd, 'reports', 'evals.xml'), 'utf8')
    expect(parseJunit(xml).testsuites.testsuite[0]).toMatchObject({'@_name': 'es_acme_search', '@_tests': '3', '@_failures': '0'})
  })
})

describe('the asset for each runner', {timeout: 60_000}, () => {
  /** A release server of its own whose SHA256SUMS names every platform's executable (picking one needs no file). */
  let sums: TestServer
  const checksums = new Map<string, string>()
  beforeAll(async () => {
    for (const [i, {platform, arch}] of (release.PLATFORMS as Array<{platform: string; arch: string}>).entries()) {
      checksums.set(release.executableName(platform, arch), String(i + 1).repeat(64))
    }
    const text = [...checksums].map(([name, sum]) => `${sum}  ${name}\n`).join('')
    sums = await startServer((req, res) => {
      if (req.path.endsWith('/SHA256SUMS')) res.writeHead(200).end(text)
      else res.writeHead(404).end()
    })
  })
  afterAll(async () => {
    await sums?.close()
  })

  /** The action's first step alone (finding the release), on a runner of that OS and architecture. */
  const find = (os: string, arch: string, more: Partial<RunActionOptions> = {}) =>
    runAction({
      actionPath: checkedOutAction(),
      workspace: tempDir('amctl-workspace-'),
      with: {'eval-set': 'es_acme_search'},
      runner: {os, arch},
      env: {GITHUB_SERVER_URL: sums.url},
      until: 'release',
      ...more,
    })

  it.each([
    ['Linux', 'X64', 'amctl-linux-x64', 'linux-x64', 'amctl'],
    ['Linux', 'ARM64', 'amctl-linux-arm64', 'linux-arm64', 'amctl'],
    ['macOS', 'ARM64', 'amctl-darwin-arm64', 'darwin-arm64', 'amctl'],
    ['macOS', 'X64', 'amctl-darwin-x64', 'darwin-x64', 'amctl'],
    ['Windows', 'X64', 'amctl-win-x64.exe', 'win-x64', 'amctl.exe'],
  ])("%s %s: the release's %s, checked against its line of SHA256SUMS, installed as %s/%s", async (os, arch, asset, dir, exe) => {
    const result = await find(os, arch)
    expect(result.success, JSON.stringify(result.steps)).toBe(true)
    // the asset is one bin/release.js makes
    expect(checksums.has(asset)).toBe(true)
    expect(result.stepOutputs.release).toMatchObject({
      version,
      url: `${sums.url}/${OWNER}/amctl/releases/download/v${version}`,
      asset,
      sha256: checksums.get(asset),
      dir: expect.stringMatching(new RegExp(`/tool-cache/amctl/${version.replaceAll('.', '\\.')}/${dir}$`)),
      exe,
      'cache-key': `amctl-${version}-${dir}-${checksums.get(asset)}`,
    })
  })

  it('a runner no release has an executable for (Windows on Arm) fails at once, naming those it has', async () => {
    const result = await find('Windows', 'ARM64')
    expect(result.success).toBe(false)
    expect(result.steps[0].stdout.trim()).toBe(
      "::error title=amctl action::amctl's releases have no single executable for win-arm64 (they have linux-x64, linux-arm64, darwin-arm64, darwin-x64 and win-x64)",
    )
  })

  it("the release URL: the input release-url, else $AMCTL_RELEASE_URL, else the action's own repository, or the workflow's for `uses: ./`", async () => {
    const url = (result: ActionResult) => result.stepOutputs.release?.url
    expect(
      url(
        await find('Linux', 'X64', {
          with: {'eval-set': 'x', 'release-url': `${sums.url}/input/`},
          env: {AMCTL_RELEASE_URL: `${sums.url}/env`},
        }),
      ),
    ).toBe(`${sums.url}/input`)
    expect(url(await find('Linux', 'X64', {env: {AMCTL_RELEASE_URL: `${sums.url}/env`}}))).toBe(`${sums.url}/env`)
    // uses: ./ — the action is the workflow's own checkout
    const workspace = tempDir('amctl-workspace-')
    writeFileSync(join(workspace, 'package.json'), readFileSync(join(ROOT, 'package.json')))
    const own = await find('Linux', 'X64', {
      actionPath: workspace,
      actionFile: join(ROOT, 'action.yml'),
      workspace,
      env: {GITHUB_SERVER_URL: sums.url, GITHUB_REPOSITORY: 'example/amctl-fork'},
    })
    expect(url(own)).toBe(`${sums.url}/example/amctl-fork/releases/download/v${version}`)
    // neither: the step says what to set
    const unknown = await find('Linux', 'X64', {actionPath: ROOT})
    expect(unknown.success).toBe(false)
    expect(unknown.steps[0].stdout.trim()).toBe(
      `::error title=amctl action::cannot tell which repository this action comes from (${ROOT}): set the input release-url`,
    )
  })
})

describe("the action's verdict", {timeout: 60_000}, () => {
  /**
   * An amctl that prints a given document through the --jq program it is given (with jq-wasm,
   * the engine of amctl's --jq) and exits with a given code, recording its arguments: the gate's
   * verdicts are noise-gate's to add to amctl's JSON; this holds the action to pass them on.
   */
  function fakeAmctl(document: unknown, exitCode: number): {file: string; argv: () => string[]} {
    const dir = tempDir('amctl-fake-')
    const file = join(dir, 'amctl')
    writeFileSync(
      file,
      `#!${process.execPath}
const {writeFileSync} = require('node:fs')
const argv = process.argv.slice(2)
writeFileSync(${JSON.stringify(join(dir, 'argv.json'))}, JSON.stringify(argv))
require(${JSON.stringify(join(ROOT, 'node_modules', 'jq-wasm'))}).loadJq().then((jq) => {
  process.stdout.write(jq.raw(${JSON.stringify(JSON.stringify(document))}, argv[argv.indexOf('--jq') + 1], ['-r']).stdout + '\\n')
  process.exit(${exitCode})
})
`,
      {mode: 0o755},
    )
    return {file, argv: () => JSON.parse(readFileSync(join(dir, 'argv.json'), 'utf8'))}
  }

  const evals = async (document: unknown, exitCode: number, inputs: Record<string, string> = {}) => {
    const amctl = fakeAmctl(document, exitCode)
    const result = await runAction({
      actionPath: checkedOutAction(),
      workspace: tempDir('amctl-workspace-'),
      with: {'eval-set': 'es_acme_search', ...inputs},
      from: 'evals',
      outputsOf: {install: {amctl: amctl.file}},
    })
    return {result, argv: amctl.argv}
  }
  const runs = (...verdicts: string[]) => ({
    runIds: verdicts.map((_, i) => `run_${i}`),
    runs: verdicts.map((verdict, i) => ({id: `run_${i}`, verdict})),
  })

  it('each input becomes its flag of `amctl evals run --wait`, the `args` split on blanks, output as JSON through --jq', async () => {
    const {result, argv} = await evals({runIds: [], runs: []}, 0, {
      org: 'acme',
      'min-score': '0.5',
      baseline: 'previous',
      'max-drop': '0.05',
      'wait-timeout': '30m',
      junit: 'reports/e.xml',
      summary: 'reports/e.md',
      args: '--interval 2\n  --fail-fast *',
    })
    expect(result.success).toBe(true)
    expect(argv()).toEqual([
      'evals',
      'run',
      'es_acme_search',
      '--wait',
      '--org',
      'acme',
      '--min-score',
      '0.5',
      '--baseline',
      'previous',
      '--max-drop',
      '0.05',
      '--wait-timeout',
      '30m',
      '--junit',
      'reports/e.xml',
      '--summary',
      'reports/e.md',
      '--interval',
      '2',
      '--fail-fast',
      '*',
      '--json',
      '--jq',
      expect.stringContaining('tojson'),
    ])
    expect(result.outputs.verdict).toBe('passed')
    // the reports were not written (this amctl writes none): no output names them
    expect(result.outputs).toMatchObject({junit: '', summary: ''})
  })

  it.each([
    ['exit 0, no verdicts in the JSON', 'passed', 0, {runIds: ['r'], runs: [{id: 'r', status: 'succeeded'}]}],
    ['exit 10, no verdicts', 'not-passed', 10, {runIds: ['r'], runs: [{id: 'r'}]}],
    ['exit 11', 'timeout', 11, runs('unfinished', 'passed')],
    ['exit 130', 'interrupted', 130, runs('passed')],
    ['exit 3 (no verdict: an error)', 'error', 3, {}],
    ["exit 10, the runs' verdicts: the least favourable", 'regressed', 10, runs('passed', 'regressed', 'no-baseline')],
    ['exit 10, a failed run and a regression', 'failed', 10, runs('regressed', 'failed')],
    ['exit 0, an improvement', 'improved', 0, runs('passed', 'improved')],
    ['exit 0, a verdict the action does not know ranks below the failing ones', 'flaky', 0, runs('passed', 'flaky')],
    ['exit 10, groups (--repeat) before runs', 'below-min-score', 10, {...runs('failed'), groups: [{verdict: 'below-min-score'}]}],
    ["exit 10, the document's own verdict first", 'regressed-beyond-noise', 10, {...runs('regressed'), verdict: 'regressed-beyond-noise'}],
    ['exit 10, a verdict that is not a word is not passed on', 'not-passed', 10, {...runs('passed'), verdict: 'x\n::error::injected'}],
  ] as const)('%s: %s', async (_, verdict, exitCode, document) => {
    const {result} = await evals(document, exitCode as number)
    expect(result.outputs['exit-code']).toBe(String(exitCode))
    expect(result.outputs.verdict).toBe(verdict)
    expect(result.success).toBe(exitCode === 0)
    if (exitCode !== 3) expect(JSON.parse(readFileSync(result.outputs.json, 'utf8'))).toEqual(document)
  })

  it('without eval-set: exit 2 naming the input, nothing run', async () => {
    const {result} = await evals({}, 0, {'eval-set': ''})
    expect(result.success).toBe(false)
    expect(result.outputs['exit-code']).toBe('')
    expect(result.steps[0].stdout.trim()).toBe('::error title=amctl action::the input eval-set is required (the eval set to launch)')
  })
})
