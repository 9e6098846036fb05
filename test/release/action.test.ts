import {execFileSync, spawn, spawnSync} from 'node:child_process'
import {baselineAt} from '../helpers/baseline.js'
import {
  cpSync,
  createReadStream,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {type ActionResult, CacheStore, type RunActionOptions, runAction} from '../helpers/action-runner.js'
import {ciExample} from '../helpers/ci-examples.js'
import {githubMentions, shownText} from '../helpers/github-mentions.js'
import {runJob, type UsesResult, type WorkflowEvent} from '../helpers/workflow-runner.js'
import {ROOT} from '../helpers/cli.js'
import {sendJson, startServer, type TestServer} from '../helpers/http-server.js'
import type {ServerResponse} from 'node:http'
import {tempDir} from '../helpers/temp.js'
import {type BaselineFile, baselineFileText, groupStats} from '../../src/gate/baseline-file.js'
import {junitSchemaErrors, parseJunit} from '../gate/reports/fixtures.js'
import {useE2E} from '../e2e/helpers.js'
import {API_PREFIX} from '../../src/contract/vocabulary.js'
import {harness, machinePath, registryTrust, sealedEnv} from '../helpers/env.js'

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

/**
 * The baseline file of es_acme_search, as `amctl evals baseline save` makes it from the dev server's
 * seeded history (made once), at the path the examples give: the checkout of a repository that
 * commits it. Returns the workspace.
 */
let searchBaseline: string | undefined
async function withSearchBaseline(workspace: string): Promise<string> {
  if (searchBaseline === undefined) {
    const file = join(tempDir('amctl-baseline-'), 'search-baseline.json')
    const saved = await e2e.current.amctl(['evals', 'baseline', 'save', 'es_acme_search', '--org', 'acme', '--file', file])
    if (saved.exitCode !== 0) throw new Error(`evals baseline save: ${saved.stderr}`)
    searchBaseline = readFileSync(file, 'utf8')
  }
  mkdirSync(join(workspace, 'evals'), {recursive: true})
  writeFileSync(join(workspace, SEARCH_BASELINE), searchBaseline)
  return workspace
}
const SEARCH_BASELINE = 'evals/search-baseline.json'

async function runExampleStep({env: more, ...options}: Partial<RunActionOptions> & {workspace: string}): Promise<ActionResult> {
  const {env, step} = githubExample()
  await withSearchBaseline(options.workspace)
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
      ...more,
    },
    ...options,
  })
}

/** The repository of the workflow in the comment tests, and its pull request. */
const REPOSITORY = 'acme-labs/evals-demo'
const PR = 7
const HEAD_SHA = 'c0ffee1234567890c0ffee1234567890c0ffee12'

/** Who a token speaks for, as GitHub's REST API shows a comment's `user`. */
interface FakeUser {
  login: string
  id: number
  type: 'User' | 'Bot'
}

/** The job's GITHUB_TOKEN posts as the GitHub Actions app's bot, with GitHub's own ID for it. */
const ACTIONS_BOT: FakeUser = {login: 'github-actions[bot]', id: 41898282, type: 'Bot'}
/** A person whose own token (a PAT) a workflow may pass as github-token. */
const ADA: FakeUser = {login: 'ada', id: 1001, type: 'User'}
/** Anyone who may comment on the pull request. */
const MALLORY: FakeUser = {login: 'mallory', id: 6666, type: 'User'}
/** The tokens the fake GitHub takes: an installation token of the GitHub Actions app (ghs_), a PAT. */
const TOKENS: Record<string, FakeUser> = {ghs_job_token: ACTIONS_BOT, ghp_ada_token: ADA}

interface FakeComment {
  id: number
  body: string
  user: FakeUser
  html_url: string
}

/**
 * A local stand-in for the GitHub endpoints the action's comment uses, as api.github.com answers
 * them: list the pull request's comments (paged, per_page and page), create one (its author the
 * token's identity), update one; GraphQL's `viewer` (who the token speaks for: the bot for an
 * installation token, the person for a PAT); and GET /user, which answers 403 to an installation
 * token as GitHub does ("Resource not accessible by integration"). `status` answers every request
 * with that error instead (a token that may not write); `patch` answers every update with it (a
 * comment the token may not edit); `viewer` the GraphQL query (who posts cannot be told).
 */
async function fakeGitHub(options: {status?: number; patch?: number; viewer?: number} = {}) {
  const comments: FakeComment[] = []
  let next = 9000
  const refuse = (res: ServerResponse, status: number) =>
    sendJson(res, status, {message: 'Resource not accessible by integration', status: String(status)})
  const github = await startServer((req, res) => {
    if (options.status !== undefined) return refuse(res, options.status)
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''
    const who = Object.hasOwn(TOKENS, token) ? TOKENS[token] : undefined
    if (who === undefined) return sendJson(res, 401, {message: 'Bad credentials'})
    const url = new URL(req.path, 'http://github.test')
    const list = url.pathname === `/repos/${REPOSITORY}/issues/${PR}/comments`
    const one = new RegExp(`^/repos/${REPOSITORY}/issues/comments/(\\d+)$`).exec(url.pathname)
    if (url.pathname === '/graphql' && req.method === 'POST') {
      if (options.viewer !== undefined) return refuse(res, options.viewer)
      const {query} = JSON.parse(req.body) as {query: string}
      if (!/^\s*(query\s*)?\{\s*viewer\s*\{[\s\w]*\}\s*\}\s*$/.test(query))
        return sendJson(res, 200, {errors: [{message: `not played: ${query}`}]})
      sendJson(res, 200, {data: {viewer: {login: who.login, databaseId: who.id}}})
    } else if (url.pathname === '/user' && req.method === 'GET') {
      if (token.startsWith('ghs_')) refuse(res, 403)
      else sendJson(res, 200, who)
    } else if (list && req.method === 'GET') {
      const per = Number(url.searchParams.get('per_page') ?? 30)
      const page = Number(url.searchParams.get('page') ?? 1)
      sendJson(res, 200, comments.slice((page - 1) * per, page * per))
    } else if (list && req.method === 'POST') {
      sendJson(res, 201, commentBy(who, JSON.parse(req.body).body))
    } else if (one && req.method === 'PATCH') {
      const comment = comments.find((c) => c.id === Number(one[1]))
      if (options.patch !== undefined) refuse(res, options.patch)
      else if (comment === undefined) sendJson(res, 404, {message: 'Not Found'})
      else {
        comment.body = JSON.parse(req.body).body
        sendJson(res, 200, comment)
      }
    } else {
      sendJson(res, 404, {message: 'Not Found'})
    }
  })
  /** a comment on the pull request, by `user` */
  const commentBy = (user: FakeUser, body: string): FakeComment => {
    const id = next++
    const comment = {id, body, user, html_url: `https://github.test/${REPOSITORY}/pull/${PR}#issuecomment-${id}`}
    comments.push(comment)
    return comment
  }
  /** what a person wrote on the pull request before: not the action's */
  const human = (body: string) => commentBy({login: 'grace', id: 1002, type: 'User'}, body)
  /** the requests that change the pull request (a GraphQL query only reads) */
  const writes = () => github.requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql').map((r) => `${r.method} ${r.path}`)
  return {github, comments, commentBy, human, writes}
}

/** The runner's variables of a `pull_request` run for pull request 7, from the repository itself or from a fork. */
function pullRequestRun(api: string, options: {fork?: boolean; event?: string} = {}): Record<string, string> {
  const file = join(tempDir('amctl-event-'), 'event.json')
  const head = options.fork ? 'someone/evals-demo' : REPOSITORY
  writeFileSync(
    file,
    JSON.stringify({
      action: 'synchronize',
      number: PR,
      pull_request: {number: PR, head: {sha: HEAD_SHA, repo: {full_name: head}}, base: {repo: {full_name: REPOSITORY}}},
    }),
  )
  return {
    GITHUB_EVENT_NAME: options.event ?? 'pull_request',
    GITHUB_EVENT_PATH: file,
    GITHUB_API_URL: api,
    // (as the runner sets it: api.github.com/graphql, or a GitHub Enterprise server's /api/graphql)
    GITHUB_GRAPHQL_URL: `${api}/graphql`,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_RUN_ID: '4242',
  }
}

const stepOf = (result: ActionResult, id: string) => result.steps.find((s) => s.id === id)!

// each run of the action starts the executable (its first run writes 8 MB) and waits for runs: on
// a loaded machine a run takes tens of seconds
describe('the GitHub Action (action.yml) against a local release and the dev server', {timeout: 240_000}, () => {
  it("the GitHub example's step: installs this action's own release for Linux x64, checked and cached; the gate passes", async () => {
    served.length = 0
    const cacheStore = new CacheStore()
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
    // amctl runs from a directory of the job's own (under RUNNER_TEMP) that holds it alone
    const installed = result.outputs.amctl
    expect(installed).toMatch(new RegExp(`/temp/amctl-${version.replaceAll('.', '\\.')}\\.\\w{6}/amctl$`))
    expect(release.sha256(installed)).toBe(release.sha256(join(releaseDir, 'amctl-linux-x64')))
    expect(result.path).toEqual([dirname(installed)])
    expect(readdirSync(dirname(installed))).toEqual(['amctl'])
    expect(result.cache.saved).toEqual([
      expect.stringMatching(new RegExp(`^amctl-${version.replaceAll('.', '\\.')}-linux-x64-[0-9a-f]{64}$`)),
    ])

    // (the seeded history makes one of the three runs score above its noise: the step's verdict says so)
    expect(result.outputs).toMatchObject({'exit-code': '0', verdict: 'improved', junit: 'reports/evals.xml', summary: 'reports/evals.md'})
    const xml = readFileSync(join(workspace, 'reports', 'evals.xml'), 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(parseJunit(xml).testsuites.testsuite[0]).toMatchObject({'@_name': 'es_acme_search', '@_tests': '3', '@_failures': '0'})
    expect(readFileSync(join(workspace, 'reports', 'evals.md'), 'utf8')).toContain('### ✅ All 3 runs passed\n')
    // the job summary comes from amctl (GITHUB_ACTIONS=true), with no flag
    expect(result.stepSummary).toContain('### ✅ All 3 runs passed\n')
    const doc = JSON.parse(readFileSync(result.outputs.json, 'utf8'))
    expect(doc.runs.map((run: any) => run.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
    expect(doc.runs.every((run: any) => run.evalSetId === 'es_acme_search')).toBe(true)
    // judged against the repository's baseline file, which a pull request's step leaves as it was
    expect(doc.runs.every((run: any) => run.baseline?.kind === 'file' && run.baseline.path === SEARCH_BASELINE)).toBe(true)
    expect(result.outputs['baseline-updated']).toBe('false')

    // a later job: amctl comes from the cache (only SHA256SUMS is downloaded, to check it); a
    // run below --min-score fails the step with exit 10 and an annotation
    served.length = 0
    await clearPlans()
    await plan({evalSetId: 'es_acme_search', agent: 'codex', status: 'succeeded', score: 0.3, count: 1})
    // (the other runs planned too: unplanned, each would end as the dev server draws the k-th run of
    // its agent and model, which moves with every test that launched one before)
    await plan({evalSetId: 'es_acme_search', status: 'succeeded', score: 0.97})
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
    // (the steps after it are skipped: none has an `if:` that runs after a failed install)
    expect(result.steps.filter((s) => s.exitCode !== null).map((s) => s.id ?? s.name)).toEqual(['release', 'restore', 'install'])
    expect(result.outputs).toMatchObject({amctl: '', 'exit-code': '', verdict: ''})
    expect(result.path).toEqual([])
  })

  it("a self-hosted runner's shared tool cache: a curl and a git planted beside amctl never run; a swapped amctl is replaced before anything runs it", async () => {
    const toolCache = tempDir('amctl-tool-cache-')
    const marks = tempDir('amctl-planted-')
    const planted = (name: string) => `#!/bin/sh\necho ${name} >>${JSON.stringify(join(marks, 'ran'))}\necho amctl/0.0.0\n`
    const install = (workspace = tempDir('amctl-workspace-')) => runExampleStep({workspace, toolCache, until: 'install'})
    const first = await install()
    expect(first.success, JSON.stringify(first.steps, null, 2)).toBe(true)
    // the executable the cache keeps (actions/cache saves this one file)
    const cached = join(toolCache, 'amctl', version, 'linux-x64', 'amctl')
    expect(release.sha256(cached)).toBe(release.sha256(join(releaseDir, 'amctl-linux-x64')))

    // another job of the runner plants tools beside it
    for (const name of ['curl', 'git']) writeFileSync(join(dirname(cached), name), planted(name), {mode: 0o755})
    const second = await install()
    expect(second.success, JSON.stringify(second.steps, null, 2)).toBe(true)
    expect(stepOf(second, 'install').stdout).toContain('from the cache, matching SHA256SUMS')
    // what the job's later steps find on PATH: amctl's own directory, holding amctl alone
    expect(second.path).toHaveLength(1)
    expect(readdirSync(second.path[0])).toEqual(['amctl'])
    const later = spawnSync('bash', ['-c', 'curl --version && git --version && amctl --version'], {
      env: sealedEnv({PATH: [...second.path, machinePath()].join(':'), HOME: tempDir('amctl-home-')}),
      encoding: 'utf8',
    })
    expect(later.status, later.stderr).toBe(0)
    expect(later.stdout).toMatch(new RegExp(`^amctl/${version.replaceAll('.', '\\.')} linux-x64`, 'm'))
    expect(existsSync(join(marks, 'ran'))).toBe(false)

    // an amctl swapped in the cache: not run, the release's downloaded in its place (and cached)
    writeFileSync(cached, planted('amctl'), {mode: 0o755})
    const third = await install()
    expect(third.success, JSON.stringify(third.steps, null, 2)).toBe(true)
    expect(stepOf(third, 'install').stdout).toContain(
      `::warning title=amctl action::${cached} does not match SHA256SUMS: downloading it again`,
    )
    expect(existsSync(join(marks, 'ran'))).toBe(false)
    expect(release.sha256(third.outputs.amctl)).toBe(release.sha256(join(releaseDir, 'amctl-linux-x64')))
    expect(release.sha256(cached)).toBe(release.sha256(join(releaseDir, 'amctl-linux-x64')))
    expect(readdirSync(dirname(third.outputs.amctl))).toEqual(['amctl'])
  })

  it("what an earlier step left for the job (a PATH of its own, shell functions, NODE_OPTIONS, curl's config) never runs in the action's steps; the gate and the comment as without it", async () => {
    const {github, comments} = await fakeGitHub()
    try {
      const workspace = tempDir('amctl-workspace-')
      const runnerDir = tempDir('amctl-runner-')
      const marks = tempDir('amctl-planted-')
      const ran = join(marks, 'ran')
      // an earlier step put the checkout's node_modules/.bin first on PATH: a program of every name
      // on the machine's PATH is there, which says it ran (and whether AMCTL_TOKEN was in its
      // environment) and then does the real program's work; bash aside, which the runner itself
      // finds on PATH before the step's first line runs
      const bin = join(workspace, 'node_modules', '.bin')
      mkdirSync(bin, {recursive: true})
      const recorder = join(marks, 'recorder')
      writeFileSync(
        recorder,
        `#!/bin/sh\nprintf '%s token=%s\\n' "\${0##*/}" "\${AMCTL_TOKEN:+set}" >>${JSON.stringify(ran)}\nPATH=${JSON.stringify(machinePath())} exec "\${0##*/}" "$@"\n`,
        {mode: 0o755},
      )
      const names = new Set(
        machinePath()
          .split(':')
          .flatMap((dir) => (existsSync(dir) ? readdirSync(dir) : [])),
      )
      names.delete('bash')
      for (const name of names) symlinkSync(recorder, join(bin, name))
      mkdirSync(runnerDir, {recursive: true})
      writeFileSync(join(runnerDir, 'path.txt'), `${bin}\n`)
      // and exported shell functions named like the tools (GITHUB_ENV takes any name but NODE_OPTIONS)
      const fn = (name: string) =>
        `BASH_FUNC_${name}%%=() {  printf 'function ${name}\\n' >>${JSON.stringify(ran)}; command ${name} "$@"; }`
      writeFileSync(join(runnerDir, 'env.txt'), `${['curl', 'sha256sum', 'od', 'mktemp', 'head', 'cp'].map(fn).join('\n')}\n`)
      // and a curl config in HOME that copies every request, headers and all, to a file
      mkdirSync(join(runnerDir, 'home'), {recursive: true})
      writeFileSync(join(runnerDir, 'home', '.curlrc'), `trace-ascii = "${join(marks, 'curl-trace')}"\n`)
      // the job's env: sets NODE_OPTIONS (GitHub's runner refuses it from GITHUB_ENV only)
      const preload = join(marks, 'preload.cjs')
      writeFileSync(preload, `require('node:fs').appendFileSync(${JSON.stringify(ran)}, 'NODE_OPTIONS: a preload of the job ran\\n')\n`)
      await plan({evalSetId: 'es_acme_search', status: 'succeeded', score: 0.97})
      const result = await runExampleStep({
        workspace,
        runnerDir,
        githubToken: 'ghs_job_token',
        env: {...pullRequestRun(github.url), NODE_OPTIONS: `--require=${preload}`},
      })
      expect(result.success, JSON.stringify(result.steps, null, 2)).toBe(true)
      expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('')
      expect(existsSync(join(marks, 'curl-trace'))).toBe(false)
      expect(result.outputs).toMatchObject({'exit-code': '0', verdict: 'improved', junit: 'reports/evals.xml', summary: 'reports/evals.md'})
      expect(stepOf(result, 'install').stdout).toContain('matching SHA256SUMS')
      expect(comments).toHaveLength(1)
      expect(comments[0].body).toContain('\n### ✅ All 3 runs passed\n')
    } finally {
      await github.close()
    }
  })

  it('on a pull request: one comment for the eval set, created by the first push and edited in place by the next; exit code and outputs as without it', async () => {
    const {github, comments, human, writes} = await fakeGitHub()
    try {
      // a busy pull request: the action's comment lands on the second page of the list
      for (let i = 0; i < 100; i++) human(i === 0 ? '> <!-- amctl:es_acme_search --> quoted, not ours' : `comment ${i}`)
      const cacheStore = new CacheStore()
      const run = () =>
        runExampleStep({workspace: tempDir('amctl-workspace-'), cacheStore, githubToken: 'ghs_job_token', env: pullRequestRun(github.url)})
      await plan({evalSetId: 'es_acme_search', status: 'succeeded', score: 0.97})
      const first = await run()
      expect(first.success, JSON.stringify(first.steps, null, 2)).toBe(true)
      expect(first.outputs).toMatchObject({'exit-code': '0', verdict: 'improved', junit: 'reports/evals.xml', summary: 'reports/evals.md'})
      expect(writes()).toEqual([`POST /repos/${REPOSITORY}/issues/${PR}/comments`])
      expect(comments).toHaveLength(101)
      const ours = comments[100]
      expect(ours.body.split('\n')[0]).toBe('<!-- amctl:es_acme_search -->')
      expect(ours.body).toContain('\n### ✅ All 3 runs passed\n')
      // the method links the docs of the action's own release
      expect(ours.body).toContain(`[docs/ci.md](${server.url}/acme-labs/amctl/blob/v${version}/docs/ci.md)`)
      expect(ours.body).toContain(`commit ${HEAD_SHA.slice(0, 7)}`)
      expect(ours.body).toContain(`[workflow run](${server.url}/${REPOSITORY}/actions/runs/4242)`)
      expect(stepOf(first, 'comment').stdout).toContain(`amctl: commented on pull request #${PR} for es_acme_search (${ours.html_url})`)
      // the HTML report (the comment is on: one of the step's own), uploaded with the others as one artifact the comment links
      expect(readFileSync(first.outputs.html, 'utf8')).toContain('<title>amctl: all 3 runs passed</title>')
      expect(first.cache.uploaded.map((a) => ({name: a.name, files: a.files.map((f) => basename(f))}))).toEqual([
        {name: 'amctl-reports-es_acme_search', files: ['evals.xml', 'evals.md', 'report.html']},
      ])
      expect(first.outputs['artifact-url']).toBe(`${server.url}/${REPOSITORY}/actions/runs/4242/artifacts/1`)
      // the line the comment gains: the artifact's own URL, upload-artifact's output (the upload is the step before the comment)
      expect(ours.body).toContain(
        `\n\n📊 [This step's reports](${server.url}/${REPOSITORY}/actions/runs/4242/artifacts/1), the HTML report among them: artifact amctl\\-reports\\-es\\_acme\\_search of the workflow run.\n\n<sub>`,
      )
      expect(first.steps.map((step) => step.id)).toEqual(expect.arrayContaining(['evals', 'upload', 'comment']))
      expect(first.steps.findIndex((step) => step.id === 'upload')).toBeLessThan(first.steps.findIndex((step) => step.id === 'comment'))

      // the next push: the same comment, edited; no second one
      github.requests.length = 0
      await clearPlans()
      await plan({evalSetId: 'es_acme_search', agent: 'codex', status: 'succeeded', score: 0.3, count: 1})
      await plan({evalSetId: 'es_acme_search', status: 'succeeded', score: 0.97})
      const second = await run()
      expect(second.success).toBe(false)
      expect(stepOf(second, 'evals').exitCode).toBe(10)
      expect(second.outputs).toMatchObject({
        'exit-code': '10',
        verdict: 'below-min-score',
        junit: 'reports/evals.xml',
        summary: 'reports/evals.md',
      })
      expect(writes()).toEqual([`PATCH /repos/${REPOSITORY}/issues/comments/${ours.id}`])
      expect(comments).toHaveLength(101)
      expect(comments[100].body.split('\n')[0]).toBe('<!-- amctl:es_acme_search -->')
      expect(comments[100].body).toMatch(
        /\n### ❌ \*\*codex \/ [^*]+\*\* scored 0\.30, below --min-score [\d.]+ · 1 of 3 runs did not pass\n/,
      )
      // a failed gate is when the reports are read: uploaded and linked all the same (`!cancelled()`)
      expect(second.cache.uploaded.map((a) => a.name)).toEqual(['amctl-reports-es_acme_search'])
      expect(comments[100].body).toContain(`📊 [This step's reports](${server.url}/${REPOSITORY}/actions/runs/4242/artifacts/1)`)
      expect(comments[0].body).toBe('> <!-- amctl:es_acme_search --> quoted, not ours')
      expect(stepOf(second, 'comment').stdout).toContain(
        `amctl: edited the comment on pull request #${PR} for es_acme_search (${ours.html_url})`,
      )
    } finally {
      await github.close()
    }
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

// The gate against a baseline file and --repeat auto (issues 29 §4, 30 §2), by the release's
// executable (the evals step alone: installing it is the tests above) against the dev server. The
// file is made here, so every verdict can be worked out by hand (as test/e2e/commands/
// ci-repeat-auto.test.ts does): es_acme_checkout's two groups, 20 runs each alternating 0.67 and
// 0.73 (mean 0.70, sd 0.030779).
describe('the baseline file and --repeat auto from the action', {timeout: 240_000}, () => {
  const EVAL_SET = 'es_acme_checkout'
  const FILE = 'evals/checkout-baseline.json'
  const planned = (agent: string, score: number, count: number) => plan({evalSetId: EVAL_SET, agent, status: 'succeeded', score, count})

  /** A workspace holding the committed baseline file. */
  function checkout(): {workspace: string; file: string; text: string} {
    const workspace = tempDir('amctl-workspace-')
    const at = (i: number) => new Date(Date.now() - (20 - i) * 60_000).toISOString()
    const group = (agent: string, model: string) => {
      const runs = Array.from({length: 20}, (_, i) => ({id: `run_file_${agent}_${i}`, score: i % 2 === 0 ? 0.67 : 0.73, createdAt: at(i)}))
      return {agent, model, ...groupStats(runs), runs, setAside: [], failed: [], cancelled: []}
    }
    const text = baselineFileText({
      version: 2,
      org: 'acme',
      evalSetId: EVAL_SET,
      savedAt: new Date().toISOString(),
      keep: 50,
      groups: [group('claude-code', 'claude-sonnet-4-5'), group('codex', 'gpt-5')],
    })
    const file = join(workspace, FILE)
    mkdirSync(dirname(file), {recursive: true})
    writeFileSync(file, text)
    return {workspace, file, text}
  }

  /** The runner's variables of `event` on `ref`: the payload names the repository's default branch, main (and the pull request). */
  function runOf(event: string, ref: string, api = ''): Record<string, string> {
    const file = join(tempDir('amctl-event-'), 'event.json')
    const repository = {full_name: REPOSITORY, default_branch: 'main'}
    const pr = {number: PR, head: {sha: HEAD_SHA, repo: {full_name: REPOSITORY}}, base: {ref: 'main', repo: {full_name: REPOSITORY}}}
    writeFileSync(file, JSON.stringify(event === 'pull_request' ? {number: PR, pull_request: pr, repository} : {ref, repository}))
    return {
      GITHUB_EVENT_NAME: event,
      GITHUB_EVENT_PATH: file,
      GITHUB_REF: ref,
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_API_URL: api,
      GITHUB_RUN_ID: '4343',
    }
  }

  /** The action's evals step, by the release's executable, with these inputs on this event. */
  async function gate(workspace: string, inputs: Record<string, string>, run: Record<string, string>, githubToken?: string) {
    const result = await runAction({
      actionPath: checkedOutAction(),
      workspace,
      with: {'eval-set': EVAL_SET, 'baseline-file': FILE, ...inputs},
      from: 'evals',
      outputsOf: {install: {amctl: join(releaseDir, release.executableName())}},
      env: {
        AMCTL_TOKEN: await e2e.current.token(),
        AMCTL_BASE_URL: e2e.current.url,
        AMCTL_ORG: 'acme',
        AMCTL_CONFIG_DIR: tempDir('amctl-runner-config-'),
        ...run,
      },
      githubToken,
    })
    const step = stepOf(result, 'evals')
    const doc = result.outputs.json ? JSON.parse(readFileSync(result.outputs.json, 'utf8')) : undefined
    return {result, step, doc}
  }

  it('a pull request gates against the file and never changes it; the comment names it', async () => {
    const {github, comments} = await fakeGitHub()
    try {
      const {workspace, file, text} = checkout()
      await planned('claude-code', 0.7, 1)
      await planned('codex', 0.5, 1)
      const {result, step, doc} = await gate(workspace, {}, runOf('pull_request', `refs/pull/${PR}/merge`, github.url), 'ghs_job_token')
      expect(result.outputs).toMatchObject({'exit-code': '10', verdict: 'regressed', 'baseline-updated': 'false', 'baseline-warnings': ''})
      expect(step.stdout).not.toContain('update-baseline')
      expect(step.stderr).not.toContain('--update-baseline')
      expect(doc.runs.find((run: any) => run.agent === 'codex')).toMatchObject({verdict: 'regressed', baseline: {kind: 'file', path: FILE}})
      expect(readFileSync(file, 'utf8')).toBe(text)
      expect(comments).toHaveLength(1)
      expect(comments[0].body).toContain(FILE)
      expect(comments[0].body).toMatch(/\n### ❌ \*\*.+\*\* regressed: .+ · 1 of 2 runs did not pass\n/)
    } finally {
      await github.close()
    }
  })

  it("a push to the default branch adds the step's runs to the file (update-baseline: auto); a push to another branch does not", async () => {
    const {workspace, file, text} = checkout()
    await planned('claude-code', 0.71, 2)
    await planned('codex', 0.69, 2)
    const other = await gate(workspace, {}, runOf('push', 'refs/heads/feature'))
    expect(other.result.outputs).toMatchObject({'exit-code': '0', verdict: 'passed', 'baseline-updated': 'false'})
    expect(readFileSync(file, 'utf8')).toBe(text)

    const main = await gate(workspace, {}, runOf('push', 'refs/heads/main'))
    expect(main.result.outputs).toMatchObject({'exit-code': '0', verdict: 'passed', 'baseline-updated': 'true'})
    expect(main.step.stdout).toContain(`update-baseline: a push to the default branch (main): this step's runs join ${FILE}`)
    expect(main.step.stderr).toContain(
      `--update-baseline: added 2 runs to ${FILE}: 1 to claude-code / claude-sonnet-4-5, 1 to codex / gpt-5`,
    )
    const after = baselineAt(file)
    for (const group of after.groups) {
      expect(group.runs).toHaveLength(21)
      const mine = main.doc.runs.find((run: any) => run.agent === group.agent)
      expect(group.runs.at(-1)).toMatchObject({id: mine.id, score: mine.score})
    }
  })

  it("a push whose runs move a group's level: the output baseline-warnings, a warning line and a ::warning say so; an unchanged group is not named", async () => {
    const {workspace, file} = checkout()
    // codex 5 runs at 0.58, about 4 sd below the file's 0.70 ± 0.03; claude-code at its level
    await planned('claude-code', 0.7, 5)
    await planned('codex', 0.58, 5)
    const main = await gate(workspace, {repeat: '5'}, runOf('push', 'refs/heads/main'))
    expect(main.result.outputs).toMatchObject({'exit-code': '10', verdict: 'regressed', 'baseline-updated': 'true'})
    const first = baselineAt(file).groups.find((g) => g.agent === 'codex')!.runs[20]
    expect(main.doc.runs.filter((run: any) => run.agent === 'codex')[0].id).toBe(first.id)
    const line = `codex / gpt-5 moved from 0.70 to 0.58 at ${first.id} (−0.12, 3.9 sd): this update makes it the baseline`
    expect(main.result.outputs['baseline-warnings']).toBe(line)
    // the same line as Markdown text, which shows it as it is
    expect(main.result.outputs['baseline-warnings-markdown']).toMatch(/^codex \/ gpt\\-5 moved from 0\\\.70 /)
    expect(shownText(main.result.outputs['baseline-warnings-markdown'])).toBe(line)
    expect(main.step.stderr).toContain(`\nwarning: ${line}\n`)
    expect(main.step.stderr).toContain(`\n::warning title=amctl%3A --update-baseline takes in a change of level::${line}\n`)
    expect(main.step.stderr).not.toContain('claude-code / claude-sonnet-4-5 moved')
    // the JSON document is whole after the lines the step read before it
    expect(main.doc.baselineUpdate).toMatchObject({updated: true, warnings: [line]})

    // a push at the file's levels (a fresh checkout): the output is there, empty
    await clearPlans()
    await planned('claude-code', 0.7, 1)
    await planned('codex', 0.7, 1)
    const other = await gate(checkout().workspace, {}, runOf('push', 'refs/heads/main'))
    expect(other.result.outputs).toMatchObject({
      'exit-code': '0',
      'baseline-updated': 'true',
      'baseline-warnings': '',
      'baseline-warnings-markdown': '',
    })
  })

  /**
   * The control plane as the action's amctl sees it: the dev server, every request forwarded as it
   * came, and `meanwhile` run once before the first poll of the run list after the launch is
   * forwarded: amctl read the baseline file before it launched, and updates it after the verdict
   * that poll gives.
   */
  async function between(meanwhile: () => void): Promise<TestServer> {
    let launched = false
    let done = false
    const skip = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding'])
    return startServer(async (req, res) => {
      if (req.method === 'POST') launched = true
      else if (launched && !done && req.method === 'GET' && /^\/api\/v1\/orgs\/[^/]+\/runs(\?|$)/.test(req.path)) {
        done = true
        meanwhile()
      }
      const headers = Object.entries(req.headers).flatMap(([name, value]) =>
        skip.has(name) || value === undefined ? [] : [[name, String(value)] as [string, string]],
      )
      const answer = await fetch(`${e2e.current.url}${req.path}`, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
      })
      const back = [...answer.headers].filter(([name]) => !skip.has(name))
      res.writeHead(answer.status, Object.fromEntries(back)).end(await answer.text())
    })
  }

  it.each([
    [
      "swapped for another organization's file",
      (file: string, text: string) => writeFileSync(file, text.replace('"org": "acme"', '"org": "globex"')),
      /now holds runs of organization globex, not acme as when the step read it; it was left as it is \(invalid_request\)$/,
    ],
    [
      'made unwritable: its directory replaced by a file',
      (file: string) => {
        renameSync(dirname(file), `${dirname(file)}.moved`)
        writeFileSync(dirname(file), 'not a directory\n')
      },
      /was not updated: /,
    ],
  ] as const)(
    'a push to the default branch whose update fails (the file %s): baseline-updated false, the failure its own line, exit 1',
    async (_, meanwhile, why) => {
      const {workspace, file, text} = checkout()
      await planned('claude-code', 0.71, 1)
      await planned('codex', 0.69, 1)
      const proxy = await between(() => meanwhile(file, text))
      try {
        const main = await gate(workspace, {'base-url': proxy.url}, runOf('push', 'refs/heads/main'))
        expect(main.result.outputs).toMatchObject({'exit-code': '1', verdict: 'error', 'baseline-updated': 'false'})
        expect(main.step.stdout).toContain(`update-baseline: a push to the default branch (main): this step's runs join ${FILE}`)
        const line = main.step.stderr.split('\n').find((l) => l.startsWith('error: --update-baseline: '))
        expect(line).toMatch(new RegExp(`^error: --update-baseline: ${FILE} was not updated: `))
        expect(line).toMatch(why)
        // the verdict is kept: both runs passed, and the JSON says why the file is not updated
        expect(main.doc.runs.map((run: any) => run.verdict)).toEqual(['passed', 'passed'])
        expect(main.doc.baselineUpdate).toMatchObject({path: FILE, updated: false, error: {message: expect.any(String)}})
        if (existsSync(file)) expect(readFileSync(file, 'utf8')).not.toContain(main.doc.runs[0].id)
      } finally {
        await proxy.close()
      }
    },
  )

  it('repeat: auto with max-drop launches one at a time until each group is decided: the outputs and the comment say the verdict', async () => {
    const {github, comments} = await fakeGitHub()
    try {
      const {workspace} = checkout()
      await planned('claude-code', 0.72, 5)
      await planned('codex', 0.64, 1)
      await planned('codex', 0.74, 1)
      const run = runOf('pull_request', `refs/pull/${PR}/merge`, github.url)
      const cleared = await gate(workspace, {repeat: 'auto', 'max-drop': '0.1'}, run, 'ghs_job_token')
      expect(cleared.result.outputs).toMatchObject({'exit-code': '0', verdict: 'passed'})
      expect(cleared.doc.launches).toHaveLength(2)
      expect(cleared.doc.groups.map((g: any) => [g.agent, g.verdict, g.decidedAt])).toEqual([
        ['claude-code', 'passed', 1],
        ['codex', 'passed', 2],
      ])
      expect(comments).toHaveLength(1)
      expect(comments[0].body).toContain('2 launches (--repeat auto, at most 5)')

      // at max-repeat still undecided: inconclusive, a warning; with fail-inconclusive the step fails
      await clearPlans()
      await planned('claude-code', 0.72, 4)
      await planned('codex', 0.64, 4)
      const warned = await gate(workspace, {repeat: 'auto', 'max-drop': '0.1', 'max-repeat': '2'}, run, 'ghs_job_token')
      expect(warned.result.outputs).toMatchObject({'exit-code': '0', verdict: 'inconclusive'})
      expect(warned.doc.launches).toHaveLength(2)
      expect(warned.step.stderr).toMatch(/^::warning title=amctl%3A group es_acme_checkout codex \/ gpt-5/m)
      const failed = await gate(
        workspace,
        {repeat: 'auto', 'max-drop': '0.1', 'max-repeat': '2', 'fail-inconclusive': 'true'},
        run,
        'ghs_job_token',
      )
      expect(failed.result.outputs).toMatchObject({'exit-code': '10', verdict: 'inconclusive'})
      expect(failed.result.success).toBe(false)
      expect(comments).toHaveLength(1)
      expect(comments[0].body).toMatch(/inconclusive/)
      expect(comments[0].body).toContain('2 launches (--repeat auto, at most 2)')
    } finally {
      await github.close()
    }
  })

  it.each([
    ['repeat: sometimes', {repeat: 'sometimes'}, /^error: --repeat /],
    ['max-repeat: 50', {repeat: 'auto', 'max-drop': '0.1', 'max-repeat': '50'}, /^error: --max-repeat /],
    ['repeat: auto without max-drop', {repeat: 'auto'}, /^error: --repeat auto needs --max-drop D > 0/],
    [
      'update-baseline: true without a baseline file',
      {'baseline-file': '', 'update-baseline': 'true'},
      /^error: --update-baseline acts only with --baseline-file/,
    ],
    ['a baseline file that is not there', {'baseline-file': 'evals/none.json'}, /evals\/none\.json/],
    ['baseline-max-age: soon', {'baseline-max-age': 'soon'}, /^error: --baseline-max-age /],
  ])('%s: amctl refuses it, exit 2 and its one line, verdict error, nothing launched', async (_, inputs, message) => {
    const {workspace, file, text} = checkout()
    await e2e.current.clearRequests()
    const {result, step} = await gate(workspace, inputs, runOf('push', 'refs/heads/main'))
    expect(result.outputs).toMatchObject({'exit-code': '2', verdict: 'error', 'baseline-updated': 'false'})
    expect(step.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(message)])
    expect((await e2e.current.requests()).filter((r) => r.method === 'POST')).toEqual([])
    expect(readFileSync(file, 'utf8')).toBe(text)
  })
})

// The example workflows of examples/ci/ played job by job (test/helpers/workflow-runner.ts) as
// GitHub would run them for a push, a pull request, a schedule or a run by hand: their shell
// steps, the action (installed from the local release, as above) against the dev server, and the
// Actions cache; the repository is a local git repository (origin) whose checkout is the workspace.
// peter-evans/create-pull-request is played by what it does to the repository (a commit of the
// paths on its branch, pushed); the steps that publish reports are only checked to be reached.
describe('the example workflows, played against the dev server', {timeout: 240_000}, () => {
  const EXAMPLES = join(ROOT, 'examples', 'ci')
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: sealedEnv({
        HOME: cwd,
        GIT_AUTHOR_NAME: 'Ada',
        GIT_AUTHOR_EMAIL: 'ada@example.com',
        GIT_COMMITTER_NAME: 'Ada',
        GIT_COMMITTER_EMAIL: 'ada@example.com',
      }),
    })

  /** origin: a repository whose main commits the baseline file of es_acme_search (as `edit` changes it). */
  async function origin(edit?: (file: BaselineFile) => BaselineFile): Promise<string> {
    const bare = join(tempDir('amctl-origin-'), 'evals-demo.git')
    git(dirname(bare), 'init', '--quiet', '--bare', '--initial-branch=main', bare)
    const seed = await withSearchBaseline(tempDir('amctl-seed-'))
    if (edit !== undefined) writeFileSync(join(seed, SEARCH_BASELINE), baselineFileText(edit(JSON.parse(searchBaseline!))))
    git(seed, 'init', '--quiet', '--initial-branch=main')
    git(seed, 'add', '.')
    git(seed, 'commit', '--quiet', '-m', 'the baseline file')
    git(seed, 'push', '--quiet', bare, 'main')
    return bare
  }
  /** What actions/checkout leaves: a clone of `ref` with origin set. */
  function checkoutOf(bare: string, ref = 'main'): string {
    const workspace = join(tempDir('amctl-workspace-'), 'evals-demo')
    git(dirname(workspace), 'clone', '--quiet', '--branch', ref, bare, workspace)
    return workspace
  }
  const fileOf = (bare: string, ref: string) => {
    const dir = tempDir('amctl-show-')
    return JSON.parse(git(dir, '--git-dir', bare, 'show', `${ref}:${SEARCH_BASELINE}`))
  }
  const runIdsOf = (file: any): string[] => file.groups.flatMap((g: any) => g.runs.map((r: any) => r.id)).sort()

  /** The runs of the next launch score their group's mean in the seeded file (all pass), but `drops`. */
  async function planLaunch(drops: Record<string, number> = {}, count = 1) {
    for (const group of JSON.parse(searchBaseline!).groups) {
      const score = drops[group.agent] ?? Math.round(group.mean * 1000) / 1000
      await plan({evalSetId: 'es_acme_search', agent: group.agent, status: 'succeeded', score, count})
    }
  }

  const repository = {full_name: REPOSITORY, default_branch: 'main'}
  const events = {
    push: (runId: string): WorkflowEvent => ({name: 'push', ref: 'refs/heads/main', payload: {ref: 'refs/heads/main', repository}, runId}),
    pullRequest: (runId: string): WorkflowEvent => ({
      name: 'pull_request',
      ref: `refs/pull/${PR}/merge`,
      baseRef: 'main',
      payload: {
        number: PR,
        pull_request: {
          number: PR,
          head: {sha: HEAD_SHA, repo: {full_name: REPOSITORY}},
          base: {ref: 'main', repo: {full_name: REPOSITORY}},
        },
        repository,
      },
      runId,
    }),
    schedule: (runId: string): WorkflowEvent => ({
      name: 'schedule',
      ref: 'refs/heads/main',
      payload: {schedule: '17 4 * * 1', repository},
      runId,
    }),
    dispatch: (runId: string, launches: string): WorkflowEvent => ({
      name: 'workflow_dispatch',
      ref: 'refs/heads/main',
      payload: {ref: 'refs/heads/main', inputs: {launches}, repository},
      runId,
    }),
  }

  /** Plays a job; the actions it uses: amctl's (this checkout, the local release), create-pull-request on `bare`. */
  async function play(
    file: string,
    job: string,
    event: WorkflowEvent,
    workspace: string,
    more: {bare?: string; api?: string; cacheStore?: CacheStore} = {},
  ) {
    const proposed: Array<Record<string, string>> = []
    const result = await runJob({
      file: join(EXAMPLES, file),
      job,
      event,
      workspace,
      secrets: {AMCTL_TOKEN: await e2e.current.token()},
      // the release server in place of github.com, the dev server in place of the control plane the example names
      env: {GITHUB_SERVER_URL: server.url, GITHUB_API_URL: more.api ?? '', AMCTL_CONFIG_DIR: tempDir('amctl-runner-config-')},
      replaceEnv: {AMCTL_BASE_URL: e2e.current.url},
      cacheStore: more.cacheStore ?? new CacheStore(),
      githubToken: 'ghs_job_token',
      uses: async (call): Promise<UsesResult> => {
        if (call.uses === '<owner>/amctl@v0') {
          const action = await runAction({
            actionPath: checkedOutAction(),
            workspace,
            with: call.with,
            env: call.env,
            runnerDir: call.runnerDir,
            cacheStore: call.cacheStore,
            githubToken: call.githubToken,
          })
          return {
            success: action.success,
            outputs: action.outputs,
            stdout: action.steps.map((step) => step.stdout).join(''),
            stderr: action.steps.map((step) => step.stderr).join(''),
          }
        }
        if (call.uses === 'peter-evans/create-pull-request@v7') {
          proposed.push(call.with)
          git(workspace, 'checkout', '--quiet', '-B', call.with.branch)
          git(workspace, 'add', '--', call.with['add-paths'])
          if (git(workspace, 'status', '--porcelain', '--', call.with['add-paths']) === '') return {success: true, outputs: {}}
          git(workspace, 'commit', '--quiet', '-m', call.with['commit-message'])
          git(workspace, 'push', '--quiet', '--force', 'origin', call.with.branch)
          return {success: true, outputs: {'pull-request-operation': 'created'}}
        }
        if (/^(mikepenz\/action-junit-report@v5|actions\/upload-artifact@v4)$/.test(call.uses)) return {success: true, outputs: {}}
        throw new Error(`uses ${call.uses}: not played here`)
      },
    })
    const step = (id: string) => result.steps.find((s) => s.id === id || s.name === id)!
    return {result, proposed, step}
  }

  it('github-baseline.yml: each push to main gates against the committed file and proposes it with its runs, on one branch that gathers them; a failing gate proposes them too', async () => {
    const bare = await origin()
    const first = fileOf(bare, 'main')
    await planLaunch()
    const one = await play('github-baseline.yml', 'update', events.push('101'), checkoutOf(bare))
    expect(one.result.success, JSON.stringify(one.result.steps, null, 2)).toBe(true)
    expect(one.step('Start from the update not merged yet, if there is one').stdout).toBe(
      `${SEARCH_BASELINE} as the default branch has it (no update pending)\n`,
    )
    expect(one.step('evals').outputs).toMatchObject({'exit-code': '0', verdict: 'passed', 'baseline-updated': 'true'})
    expect(one.proposed).toEqual([expect.objectContaining({branch: 'amctl/evals-baseline', 'add-paths': SEARCH_BASELINE})])
    // each group takes its run and keeps its newest `keep` (50)
    const stepRuns = JSON.parse(readFileSync(one.step('evals').outputs.json, 'utf8')).runIds as string[]
    const kept = (file: any, ...runs: string[][]) => {
      for (const group of file.groups)
        expect(group.runs.length).toBe(
          Math.min(file.keep, first.groups.find((g: any) => g.agent === group.agent).runs.length + runs.length),
        )
      expect(runIdsOf(file)).toEqual(expect.arrayContaining(runs.flat()))
    }
    kept(fileOf(bare, 'amctl/evals-baseline'), stepRuns)

    // the next push, its update not merged: its runs join the update's file; codex regressed (above
    // --min-score, far below its runs in the file), so
    // the gate fails the job, and the runs are proposed all the same
    await planLaunch({codex: 0.55})
    const two = await play('github-baseline.yml', 'update', events.push('102'), checkoutOf(bare))
    expect(two.result.success).toBe(false)
    expect(two.step('Start from the update not merged yet, if there is one').stdout).toContain(
      `${SEARCH_BASELINE} as amctl/evals-baseline has it (not merged yet)`,
    )
    expect(two.step('evals').outputs).toMatchObject({'exit-code': '10', verdict: 'regressed', 'baseline-updated': 'true'})
    expect(two.step("Propose the file with this push's runs").outcome).toBe('success')
    const both = JSON.parse(readFileSync(two.step('evals').outputs.json, 'utf8')).runIds as string[]
    kept(fileOf(bare, 'amctl/evals-baseline'), stepRuns, both)
    // main's file is untouched until the update is merged; the other job is not for pushes
    expect(fileOf(bare, 'main')).toEqual(first)
    expect((await play('github-baseline.yml', 'refresh', events.push('103'), checkoutOf(bare))).result.ran).toBe(false)
  })

  /**
   * The committed file with codex's group (its model renamed `model`, if given) at 20 runs around
   * 0.84, then 4 at 0.77: a push's run, a fifth at 0.77, makes a level of them.
   */
  const codexMoving =
    (model?: string) =>
    (file: BaselineFile): BaselineFile => {
      const at = (i: number) => new Date(Date.now() - (60 - i) * 60_000).toISOString()
      const runs = [
        ...Array.from({length: 20}, (_, i) => ({id: `run_file_codex_${i}`, score: [0.82, 0.84, 0.86, 0.84][i % 4], createdAt: at(i)})),
        ...Array.from({length: 4}, (_, i) => ({id: `run_file_codex_new_${i}`, score: 0.77, createdAt: at(20 + i)})),
      ]
      const moving = {...groupStats(runs), runs, setAside: [], failed: [], cancelled: []}
      return {...file, groups: file.groups.map((g) => (g.agent === 'codex' ? {...g, model: model ?? g.model, ...moving} : g))}
    }

  it("github-baseline.yml: a push that moves a group's level proposes the file with the sentence that says so first in the pull request's body", async () => {
    const bare = await origin(codexMoving())
    await planLaunch({codex: 0.77})
    const push = await play('github-baseline.yml', 'update', events.push('106'), checkoutOf(bare))
    const warnings = push.step('evals').outputs['baseline-warnings']
    expect(warnings.split('\n')).toEqual([
      expect.stringMatching(
        /^codex \/ gpt-5 moved from 0\.84 to 0\.77 at run_file_codex_new_0 \(−0\.07, \d\.\d sd\): this update makes it the baseline$/,
      ),
    ])
    expect(push.proposed).toHaveLength(1)
    const {body} = push.proposed[0]
    // the same sentence as Markdown text (the output baseline-warnings-markdown)
    const markdown = push.step('evals').outputs['baseline-warnings-markdown']
    expect(shownText(markdown)).toBe(warnings)
    expect(body.startsWith(`${markdown}\n\n`), body).toBe(true)
    // then the example's own words, with the verdict
    expect(body.slice(markdown.length + 2)).toContain(`(verdict of the last: ${push.step('evals').outputs.verdict})`)
  })

  it("github-baseline.yml: a model named like a mention, a link and HTML moves its level: the plain output keeps amctl's text, the Markdown output and the pull request's body mention no one and link nothing", async () => {
    // codex's model on es_acme_search renamed (server text), in the eval set and in the committed
    // file, whose group moves as in the test above
    const model = 'gpt-5 @octocat [x](https://e.x) <b>'
    const path = `${e2e.current.url}${API_PREFIX}/orgs/acme/eval-sets/es_acme_search`
    const api = async (body: unknown) => {
      const res = await fetch(path, {
        method: 'PATCH',
        headers: {authorization: `Bearer ${await e2e.current.token()}`, 'content-type': 'application/json'},
        body: JSON.stringify(body),
      })
      if (!res.ok) throw new Error(`PATCH ${path}: ${res.status} ${await res.text()}`)
      return ((await res.json()) as {targets: Array<{agent: string; model: string}>}).targets
    }
    const targets = await api({})
    await api({targets: targets.map((t) => (t.agent === 'codex' ? {...t, model} : t))})
    try {
      const bare = await origin(codexMoving(model))
      await planLaunch({codex: 0.77})
      const push = await play('github-baseline.yml', 'update', events.push('107'), checkoutOf(bare))
      const outputs = push.step('evals').outputs
      // plain text as amctl wrote it: its JSON's sentence, the server's name untouched
      const plain = outputs['baseline-warnings']
      expect(plain).toMatch(
        /^codex \/ gpt-5 @octocat \[x\]\(https:\/\/e\.x\) <b> moved from 0\.84 to 0\.77 at run_file_codex_new_0 \(−0\.07, \d\.\d sd\): this update makes it the baseline$/,
      )
      expect(JSON.parse(readFileSync(outputs.json, 'utf8')).baselineUpdate.warnings).toEqual([plain])
      // Markdown text: the mention broken by U+2060, the link's brackets and the URL's `:` escaped, the tag as text
      const markdown = outputs['baseline-warnings-markdown']
      expect(markdown).toContain('codex / gpt\\-5 \\@\u2060octocat \\[x\\]\\(https\\://e\\.x\\) &lt;b&gt; moved from 0\\.84')
      expect(markdown).not.toContain('<b>')
      expect(githubMentions(markdown)).toEqual([])
      // what a reader sees is amctl's sentence: the brackets and the tag shown, not made a link
      // and HTML (the URL's `\:` keeps cmark-gfm from linking it, which remark-gfm does not play)
      expect(shownText(markdown).replaceAll('\u2060', '')).toBe(plain)
      // the pull request's body starts with it
      expect(push.proposed).toHaveLength(1)
      const {body} = push.proposed[0]
      expect(body.startsWith(`${markdown}\n\n`), body).toBe(true)
      expect(body).not.toContain('<b>')
      expect(githubMentions(body)).toEqual([])
    } finally {
      await api({targets})
    }
  })

  it('github-baseline.yml run by hand: the file anew from the runs of N launches (evals baseline save --runs), proposed', async () => {
    const bare = await origin()
    await planLaunch({}, 3)
    const refresh = await play('github-baseline.yml', 'refresh', events.dispatch('104', '3'), checkoutOf(bare))
    expect(refresh.result.success, JSON.stringify(refresh.result.steps, null, 2)).toBe(true)
    const doc = JSON.parse(readFileSync(refresh.step('evals').outputs.json, 'utf8'))
    expect(doc.launches).toHaveLength(3)
    expect(refresh.proposed).toEqual([expect.objectContaining({branch: 'amctl/evals-baseline', 'add-paths': SEARCH_BASELINE})])
    const made = fileOf(bare, 'amctl/evals-baseline')
    expect(runIdsOf(made)).toEqual([...doc.runIds].sort())
    expect(made.groups.map((g: any) => g.runs.length)).toEqual([3, 3, 3])
  })

  it('github-actions.yml on a pull request: gates against the committed file, leaves it as it was, comments', async () => {
    const {github, comments} = await fakeGitHub()
    try {
      const bare = await origin()
      const workspace = checkoutOf(bare)
      await planLaunch({codex: 0.55})
      const pr = await play('github-actions.yml', 'evals', events.pullRequest('105'), workspace, {api: github.url})
      expect(pr.result.success).toBe(false)
      expect(pr.step('evals').outputs).toMatchObject({'exit-code': '10', verdict: 'regressed', 'baseline-updated': 'false'})
      expect(git(workspace, 'status', '--porcelain', '--', SEARCH_BASELINE)).toBe('')
      expect(comments).toHaveLength(1)
      expect(comments[0].body).toContain(SEARCH_BASELINE)
      // the reports are published when the gate failed too
      expect(pr.result.steps.slice(2).map((step) => step.outcome)).toEqual(['success', 'success'])
    } finally {
      await github.close()
    }
  })

  it('github-baseline-cache.yml: the schedule makes the first file, a push adds its runs under a key of its own, a pull request restores the newest from main and gates; before any, a pull request says what to do', async () => {
    const {github, comments} = await fakeGitHub()
    try {
      const cacheStore = new CacheStore()
      const FILE = 'github-baseline-cache.yml'
      const empty = await play(FILE, 'gate', events.pullRequest('200'), tempDir('amctl-workspace-'), {api: github.url, cacheStore})
      expect(empty.result.success).toBe(false)
      expect(empty.step('No baseline file yet').stdout).toBe(
        '::error title=evals::no baseline file in the cache: make the first one (Actions → evals → Run workflow, on the default branch)\n',
      )
      expect(empty.step('evals').outcome).toBe('skipped')

      // (a schedule gives no inputs: 10 launches)
      await planLaunch({}, 10)
      const refresh = await play(FILE, 'refresh', events.schedule('201'), tempDir('amctl-workspace-'), {cacheStore})
      expect(refresh.result.success, JSON.stringify(refresh.result.steps, null, 2)).toBe(true)
      const refreshed = JSON.parse(readFileSync(refresh.step('evals').outputs.json, 'utf8')).runIds as string[]
      expect(refreshed).toHaveLength(30)
      expect(refresh.result.cache.saved).toEqual(['evals-baseline-es_acme_search-201-1'])

      await planLaunch()
      const workspace = tempDir('amctl-workspace-')
      const push = await play(FILE, 'gate', events.push('202'), workspace, {cacheStore})
      expect(push.result.success, JSON.stringify(push.result.steps, null, 2)).toBe(true)
      expect(push.step('restore').outputs).toMatchObject({'cache-hit': 'false', 'cache-matched-key': 'evals-baseline-es_acme_search-201-1'})
      expect(push.step('evals').outputs).toMatchObject({verdict: 'passed', 'baseline-updated': 'true'})
      expect(push.result.cache.saved).toEqual(['evals-baseline-es_acme_search-202-1'])
      const pushed = JSON.parse(readFileSync(push.step('evals').outputs.json, 'utf8')).runIds as string[]
      const saved = JSON.parse(readFileSync(join(workspace, SEARCH_BASELINE), 'utf8'))
      expect(runIdsOf(saved)).toEqual([...refreshed, ...pushed].sort())

      await planLaunch({codex: 0.55})
      const prWorkspace = tempDir('amctl-workspace-')
      const pr = await play(FILE, 'gate', events.pullRequest('203'), prWorkspace, {api: github.url, cacheStore})
      expect(pr.step('restore').outputs['cache-matched-key']).toBe('evals-baseline-es_acme_search-202-1')
      expect(pr.step('evals').outputs).toMatchObject({'exit-code': '10', verdict: 'regressed', 'baseline-updated': 'false'})
      expect(pr.result.cache.saved).toEqual([])
      expect(JSON.parse(readFileSync(join(prWorkspace, SEARCH_BASELINE), 'utf8'))).toEqual(saved)
      expect(comments).toHaveLength(1)
      expect(comments[0].body).toContain('regressed')
    } finally {
      await github.close()
    }
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
    cpSync(join(ROOT, 'action'), join(workspace, 'action'), {recursive: true})
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
  function fakeAmctl(document: unknown, exitCode: number, reports = false): {file: string; argv: () => string[]} {
    const dir = tempDir('amctl-fake-')
    const file = join(dir, 'amctl')
    writeFileSync(
      file,
      `#!${process.execPath}
const {mkdirSync, writeFileSync} = require('node:fs')
const {dirname} = require('node:path')
const argv = process.argv.slice(2)
writeFileSync(${JSON.stringify(join(dir, 'argv.json'))}, JSON.stringify(argv))
// with reports: the files --junit and --summary name, written as amctl writes them (a new file each run)
for (const flag of ${reports ? "['--junit', '--summary']" : '[]'}) {
  const at = argv.findIndex((arg) => arg === flag || arg.startsWith(flag + '='))
  if (at < 0) continue
  const path = argv[at] === flag ? argv[at + 1] : argv[at].slice(flag.length + 1)
  mkdirSync(dirname(path), {recursive: true})
  writeFileSync(path, flag === '--summary' ? '### ❌ amctl: the summary of run ' + process.pid + '\\n' : '<testsuites/>' + process.pid)
}
require(${JSON.stringify(join(ROOT, 'node_modules', 'jq-wasm'))}).loadJq().then((jq) => {
  process.stdout.write(jq.raw(${JSON.stringify(JSON.stringify(document))}, argv[argv.indexOf('--jq') + 1], ['-r']).stdout + '\\n')
  process.exit(${exitCode})
})
`,
      {mode: 0o755},
    )
    return {file, argv: () => JSON.parse(readFileSync(join(dir, 'argv.json'), 'utf8'))}
  }

  const evals = async (
    document: unknown,
    exitCode: number,
    inputs: Record<string, string> = {},
    more: Partial<RunActionOptions> & {reports?: boolean} = {},
  ) => {
    const {reports, ...options} = more
    const amctl = fakeAmctl(document, exitCode, reports)
    const result = await runAction({
      actionPath: checkedOutAction(),
      workspace: tempDir('amctl-workspace-'),
      with: {'eval-set': 'es_acme_search', ...inputs},
      from: 'evals',
      outputsOf: {install: {amctl: amctl.file}},
      ...options,
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
    ['exit 143 (SIGTERM: the job cancelled or timed out)', 'interrupted', 143, runs('passed')],
    ['exit 3 (no verdict: an error)', 'error', 3, {}],
    ["exit 10, the runs' verdicts: the least favourable", 'regressed', 10, runs('passed', 'regressed', 'no-baseline')],
    ['exit 10, a failed run and a regression', 'failed', 10, runs('regressed', 'failed')],
    ['exit 0, an improvement', 'improved', 0, runs('passed', 'improved')],
    ['exit 0, a verdict the action does not know ranks below the failing ones', 'flaky', 0, runs('passed', 'flaky')],
    ['exit 10, groups (--repeat) before runs', 'below-min-score', 10, {...runs('failed'), groups: [{verdict: 'below-min-score'}]}],
    ["exit 10, the document's own verdict first", 'regressed-beyond-noise', 10, {...runs('regressed'), verdict: 'regressed-beyond-noise'}],
    ['exit 10, a verdict that is not a word is not passed on', 'not-passed', 10, {...runs('passed'), verdict: 'x\n::error::injected'}],
    ['exit 10, verdicts that all pass: the exit code wins', 'not-passed', 10, runs('passed', 'improved')],
    ["exit 10, the document's own verdict says passed: the exit code wins", 'not-passed', 10, {...runs('failed'), verdict: 'passed'}],
    ['exit 0, a failing verdict: the exit code wins', 'passed', 0, runs('passed', 'regressed')],
  ] as const)('%s: %s', async (_, verdict, exitCode, document) => {
    const {result} = await evals(document, exitCode as number)
    expect(result.outputs['exit-code']).toBe(String(exitCode))
    expect(result.outputs.verdict).toBe(verdict)
    expect(result.success).toBe(exitCode === 0)
    if (exitCode !== 3) expect(JSON.parse(readFileSync(result.outputs.json, 'utf8'))).toEqual(document)
  })

  it('a newline in an input that becomes an output sets no other output: every output is in the delimiter form', async () => {
    const junit = 'rep2/x.xml\nverdict=passed\nexit-code=0'
    const summary = 'rep2/y.md\namctl<<EOF\n/tmp/x\nEOF'
    const {result} = await evals(runs('passed', 'regressed'), 10, {junit, summary}, {reports: true})
    expect(result.success).toBe(false)
    expect(result.outputs).toMatchObject({'exit-code': '10', verdict: 'regressed', junit, summary})
    expect(result.stepOutputs.evals).toEqual({
      'exit-code': '10',
      verdict: 'regressed',
      json: expect.any(String),
      junit,
      summary,
      'baseline-updated': 'false',
      'baseline-warnings': '',
      'baseline-warnings-markdown': '',
      // the reports written, uploaded as this artifact by the next step
      upload: 'true',
      artifact: 'amctl-reports-es_acme_search',
      // not a pull request: no comment (the step after the upload)
      comment: 'false',
    })
  })

  it("the baseline's warnings: each line in its place, plain in baseline-warnings, as Markdown text in baseline-warnings-markdown", async () => {
    const warnings = [
      '@octocat / m moved from 0.84 to 0.77 at run_0',
      'codex / **bold** [x](https://e.x) <img src=x> fails 3 of its 20 runs',
    ]
    const {result} = await evals({...runs('passed'), baselineUpdate: {updated: true, warnings}}, 0)
    expect(result.outputs['baseline-warnings']).toBe(warnings.join('\n'))
    expect(result.outputs['baseline-warnings-markdown'].split('\n')).toEqual([
      '\\@\u2060octocat / m moved from 0\\.84 to 0\\.77 at run\\_0',
      'codex / \\*\\*bold\\*\\* \\[x\\]\\(https\\://e\\.x\\) &lt;img src=x&gt; fails 3 of its 20 runs',
    ])
  })

  it("reports an earlier run left at the paths are not this step's: a failed start names none; a run that writes them names both", async () => {
    const workspace = tempDir('amctl-workspace-')
    mkdirSync(join(workspace, 'reports'))
    writeFileSync(join(workspace, 'reports', 'evals.xml'), '<testsuites/><!-- yesterday -->')
    writeFileSync(join(workspace, 'reports', 'evals.md'), '### ✅ amctl: all 3 runs passed (yesterday)')
    const inputs = {junit: 'reports/evals.xml', summary: 'reports/evals.md'}
    const failed = await evals({}, 2, inputs, {workspace})
    expect(failed.result.outputs).toMatchObject({'exit-code': '2', verdict: 'error', junit: '', summary: ''})
    // (the files themselves are the user's: left as they were)
    expect(readFileSync(join(workspace, 'reports', 'evals.md'), 'utf8')).toBe('### ✅ amctl: all 3 runs passed (yesterday)')
    const passed = await evals(runs('passed'), 0, inputs, {workspace, reports: true})
    expect(passed.result.outputs).toMatchObject({'exit-code': '0', verdict: 'passed', ...inputs})
    // given in `args` instead of as inputs, the same
    const args = await evals(runs('passed'), 0, {args: '--junit reports/evals.xml --summary=reports/evals.md'}, {workspace, reports: true})
    expect(args.argv()).toEqual(expect.arrayContaining(['--junit', 'reports/evals.xml', '--summary=reports/evals.md']))
    expect(args.result.outputs).toMatchObject(inputs)
  })

  describe('the comment on the pull request', () => {
    const onPullRequest = async (api: string, options: {fork?: boolean; event?: string} = {}) => ({
      env: pullRequestRun(api, options),
      githubToken: 'ghs_job_token',
    })

    it("without a summary input: amctl writes one of the step's own for the comment, which no output names; one comment per eval set", async () => {
      const {github, comments} = await fakeGitHub()
      try {
        const first = await evals(runs('passed', 'regressed'), 10, {}, {...(await onPullRequest(github.url)), reports: true})
        const argv = first.argv()
        const own = argv[argv.indexOf('--summary') + 1]
        expect(own).toMatch(/\/temp\/amctl-comment\.\w{6}\/summary\.md$/)
        expect(first.result.outputs).toMatchObject({'exit-code': '10', verdict: 'regressed', summary: '', junit: ''})
        expect(comments).toHaveLength(1)
        expect(comments[0].body).toMatch(
          /^<!-- amctl:es_acme_search -->\n### ❌ amctl: the summary of run \d+\n\n<sub>eval set es\\_acme\\_search · commit c0ffee1 · /,
        )
        // another eval set: a comment of its own, the first one untouched
        const other = await evals(
          runs('passed'),
          0,
          {'eval-set': 'es-acme <checkout>'},
          {...(await onPullRequest(github.url)), reports: true},
        )
        expect(other.result.success).toBe(true)
        expect(comments).toHaveLength(2)
        expect(comments[1].body.split('\n')[0]).toBe('<!-- amctl:es%2Dacme%20%3Ccheckout%3E -->')
        expect(comments[0].body).toContain('eval set es\\_acme\\_search')
      } finally {
        await github.close()
      }
    })

    it("a step that ends without a verdict (exit 3) says so in the comment, in place of the last push's summary", async () => {
      const {github, comments} = await fakeGitHub()
      try {
        await evals(runs('passed'), 0, {}, {...(await onPullRequest(github.url)), reports: true})
        expect(comments[0].body).toContain('the summary of run')
        const {result} = await evals({}, 3, {}, await onPullRequest(github.url))
        expect(result.outputs).toMatchObject({'exit-code': '3', verdict: 'error'})
        expect(comments).toHaveLength(1)
        expect(comments[0].body).toContain('### ⚠️ amctl: no verdict for es\\_acme\\_search\n')
        expect(comments[0].body).toContain('\namctl exited 3 (error) before judging any run')
        expect(comments[0].body).not.toContain('the summary of run')
      } finally {
        await github.close()
      }
    })

    it('an eval set named like a person or a team mentions no one in the comment (its headline and footer); an email address stays as it is; a URL links nothing', async () => {
      const {github, comments} = await fakeGitHub()
      try {
        const evalSet = '@octocat (@acme-labs/reviewers) ada@example.com https://e.x'
        const {result} = await evals({}, 3, {'eval-set': evalSet}, await onPullRequest(github.url))
        expect(result.outputs).toMatchObject({'exit-code': '3', verdict: 'error'})
        expect(comments).toHaveLength(1)
        expect(comments[0].body).toContain('### ⚠️ amctl: no verdict for ')
        expect(githubMentions(comments[0].body)).toEqual([])
        // (U+2060 WORD JOINER after each @ that could start a mention: it shows nothing)
        const shown = shownText(comments[0].body).replaceAll('\u2060', '')
        expect(shown).toContain(`no verdict for ${evalSet}`)
        expect(shown).toContain(`eval set ${evalSet} · commit c0ffee1`)
        // (the `:` of `://` escaped: cmark-gfm links a bare URL at an unescaped `:` only)
        expect(comments[0].body).toContain(
          'no verdict for \\@\u2060octocat \\(\\@\u2060acme\\-labs/reviewers\\) ada\\@example\\.com https\\://e\\.x\n',
        )
      } finally {
        await github.close()
      }
    })

    // issue 36 §1: the comment to edit is the one the identity posting now wrote; a marker anyone
    // else planted ("✅ all runs passed" on a failing pull request) is never taken for it
    const MARKER = '<!-- amctl:es_acme_search -->'
    const PLANTED = `${MARKER}\n### ✅ All 3 runs passed\n`

    it("a comment with the marker by anyone else is left alone: a new one is made, and it is the one the next push edits; the step's result as without it", async () => {
      const {github, comments, commentBy, writes} = await fakeGitHub()
      try {
        const planted = commentBy(MALLORY, PLANTED)
        const first = await evals(runs('passed', 'regressed'), 10, {}, {...(await onPullRequest(github.url)), reports: true})
        expect(first.result.outputs).toMatchObject({'exit-code': '10', verdict: 'regressed'})
        expect(stepOf(first.result, 'evals').exitCode).toBe(10)
        expect(writes()).toEqual([`POST /repos/${REPOSITORY}/issues/${PR}/comments`])
        expect(comments).toHaveLength(2)
        expect(comments[0]).toEqual(planted)
        expect(comments[1].user).toEqual(ACTIONS_BOT)
        expect(comments[1].body).toMatch(/^<!-- amctl:es_acme_search -->\n### ❌ amctl: the summary of run \d+\n/)
        expect(stepOf(first.result, 'comment').stdout).toContain(
          `amctl: commented on pull request #${PR} for es_acme_search (${comments[1].html_url}); a comment with its marker by mallory left alone`,
        )
        github.requests.length = 0
        const second = await evals(runs('passed'), 0, {}, {...(await onPullRequest(github.url)), reports: true})
        expect(second.result.success).toBe(true)
        expect(writes()).toEqual([`PATCH /repos/${REPOSITORY}/issues/comments/${comments[1].id}`])
        expect(comments).toHaveLength(2)
        expect(comments[0]).toEqual(planted)
        expect(stepOf(second.result, 'comment').stdout).toContain(`amctl: edited the comment on pull request #${PR} for es_acme_search`)
      } finally {
        await github.close()
      }
    })

    it("with a person's token (a PAT) as github-token: that person's own comment is edited, not the one the job's token wrote", async () => {
      const {github, comments, commentBy, writes} = await fakeGitHub()
      try {
        const bots = commentBy(ACTIONS_BOT, `${MARKER}\nan earlier push, by the job's token`)
        const adas = commentBy(ADA, `${MARKER}\nan earlier push, by ada's token`)
        const {result} = await evals(
          runs('passed'),
          0,
          {'github-token': 'ghp_ada_token'},
          {...(await onPullRequest(github.url)), reports: true},
        )
        expect(result.success).toBe(true)
        expect(writes()).toEqual([`PATCH /repos/${REPOSITORY}/issues/comments/${adas.id}`])
        expect(comments).toHaveLength(2)
        expect(comments[0]).toEqual(bots)
        expect(comments[1].body).toContain('the summary of run')
      } finally {
        await github.close()
      }
    })

    it.each([
      ['the edit is refused (HTTP 403)', {patch: 403}, '; the earlier comment could not be edited (HTTP 403)'],
      [
        'who posts cannot be told (the viewer query answers HTTP 403)',
        {viewer: 403},
        '; who posts could not be told (HTTP 403): no earlier comment is edited',
      ],
    ])("%s: a new comment instead of none, the step's result unchanged", async (_, refusal, says) => {
      const {github, comments, commentBy, writes} = await fakeGitHub(refusal)
      try {
        const earlier = commentBy(ACTIONS_BOT, `${MARKER}\n### ✅ amctl: the summary of an earlier push`)
        const {result} = await evals(runs('passed', 'regressed'), 10, {}, {...(await onPullRequest(github.url)), reports: true})
        expect(result.outputs).toMatchObject({'exit-code': '10', verdict: 'regressed'})
        expect(stepOf(result, 'evals').exitCode).toBe(10)
        expect(writes()).toEqual([
          ...('patch' in refusal ? [`PATCH /repos/${REPOSITORY}/issues/comments/${earlier.id}`] : []),
          `POST /repos/${REPOSITORY}/issues/${PR}/comments`,
        ])
        expect(comments).toHaveLength(2)
        expect(comments[1].body).toContain('### ❌ amctl: the summary of run')
        expect(stepOf(result, 'comment').stdout).toContain(
          `amctl: commented on pull request #${PR} for es_acme_search (${comments[1].html_url})${says}`,
        )
      } finally {
        await github.close()
      }
    })

    it.each([130, 143])(
      'a step cancelled (exit %i: 130 Ctrl-C, 143 SIGTERM) leaves the comment alone: a newer push owns it',
      async (code) => {
        const {github, comments} = await fakeGitHub()
        try {
          await evals(runs('passed'), 0, {}, {...(await onPullRequest(github.url)), reports: true})
          const before = comments[0].body
          const {result} = await evals(runs('passed'), code, {}, {...(await onPullRequest(github.url)), reports: true})
          expect(result.outputs).toMatchObject({'exit-code': String(code), verdict: 'interrupted'})
          expect(comments).toHaveLength(1)
          expect(comments[0].body).toBe(before)
        } finally {
          await github.close()
        }
      },
    )

    it("a fork's pull request: one notice, nothing sent to GitHub, the step's exit code and outputs unchanged", async () => {
      const {github} = await fakeGitHub()
      try {
        const {result} = await evals(
          runs('passed', 'regressed'),
          10,
          {},
          {...(await onPullRequest(github.url, {fork: true})), reports: true},
        )
        expect(result.outputs).toMatchObject({'exit-code': '10', verdict: 'regressed'})
        expect(stepOf(result, 'evals').exitCode).toBe(10)
        expect(
          stepOf(result, 'comment')
            .stdout.split('\n')
            .filter((line) => line.startsWith('::')),
        ).toEqual([
          `::notice title=amctl action::no comment on pull request #${PR}: it comes from a fork, whose runs get a read-only token (docs/ci-reference.md#pull-requests-from-forks)`,
        ])
        expect(github.requests).toEqual([])
      } finally {
        await github.close()
      }
    })

    it.each([403, 404])("a token that may not write (HTTP %i): one notice, the step's exit code and outputs unchanged", async (status) => {
      const {github} = await fakeGitHub({status})
      try {
        const {result} = await evals(runs('passed'), 0, {}, {...(await onPullRequest(github.url)), reports: true})
        expect(result.success).toBe(true)
        expect(result.outputs).toMatchObject({'exit-code': '0', verdict: 'passed'})
        expect(
          stepOf(result, 'comment')
            .stdout.split('\n')
            .filter((line) => line.startsWith('::')),
        ).toEqual([
          `::notice title=amctl action::no comment on pull request #${PR}: the token may not write to it (HTTP ${status}); give the job \`permissions: pull-requests: write\``,
        ])
        expect(github.requests.map((r) => r.method)).toEqual(['GET'])
      } finally {
        await github.close()
      }
    })

    it('comment: auto comments on pull_request events only; false never; true says when there is no pull request; another word is exit 2', async () => {
      const {github, comments} = await fakeGitHub()
      try {
        const push = await evals(runs('passed'), 0, {}, {...(await onPullRequest(github.url, {event: 'push'})), reports: true})
        expect(push.result.success).toBe(true)
        expect(push.argv()).not.toContain('--summary')
        const off = await evals(runs('passed'), 0, {comment: 'false'}, await onPullRequest(github.url))
        expect(off.result.success).toBe(true)
        expect(github.requests).toEqual([])
        const forced = await evals(runs('passed'), 0, {comment: 'true'}, {env: {GITHUB_EVENT_NAME: 'push'}, githubToken: 'ghs_job_token'})
        expect(stepOf(forced.result, 'comment').stdout).toContain(
          '::notice title=amctl action::no comment: this run is not for a pull request (event push)',
        )
        expect(forced.result.outputs).toMatchObject({'exit-code': '0', verdict: 'passed'})
        const target = await evals(
          runs('passed'),
          0,
          {comment: 'true'},
          await onPullRequest(github.url, {event: 'pull_request_target', fork: true}),
        )
        expect(target.result.success).toBe(true)
        expect(comments).toHaveLength(1)
        const bad = await evals(runs('passed'), 0, {comment: 'yes'}, await onPullRequest(github.url))
        expect(stepOf(bad.result, 'evals')).toMatchObject({
          exitCode: 2,
          stdout: '::error title=amctl action::the input comment is auto, true or false\n',
        })
        expect(bad.result.outputs['exit-code']).toBe('')
        expect(() => bad.argv()).toThrow(/ENOENT/)
      } finally {
        await github.close()
      }
    })
  })

  describe('the baseline file and --repeat', () => {
    const flagsOf = (argv: string[]) => argv.slice(0, argv.indexOf('--json'))

    it('each input becomes its flag: baseline-file, baseline-max-age, confidence, repeat, max-repeat; the switches require-baseline and fail-inconclusive', async () => {
      const {result, argv} = await evals({runIds: [], runs: []}, 0, {
        'baseline-file': 'evals/search baseline.json',
        'baseline-max-age': '14d',
        confidence: '0.99',
        repeat: 'auto',
        'max-repeat': '8',
        'max-drop': '0.1',
        'require-baseline': 'true',
        'fail-inconclusive': 'true',
      })
      expect(result.success).toBe(true)
      expect(flagsOf(argv())).toEqual([
        ...['evals', 'run', 'es_acme_search', '--wait', '--max-drop', '0.1', '--baseline-file', 'evals/search baseline.json'],
        ...['--baseline-max-age', '14d', '--confidence', '0.99', '--repeat', 'auto', '--max-repeat', '8'],
        ...['--require-baseline', '--fail-inconclusive'],
      ])
      // (no file was there, so none was updated)
      expect(result.outputs['baseline-updated']).toBe('false')
      const off = await evals({runIds: [], runs: []}, 0, {'require-baseline': 'false', 'fail-inconclusive': 'false'})
      expect(flagsOf(off.argv())).toEqual(['evals', 'run', 'es_acme_search', '--wait'])
    })

    /** The runner's variables of a run for `event` on `ref` of a repository whose default branch is `main`. */
    const on = (event: string, ref: string): Partial<RunActionOptions> => {
      const file = join(tempDir('amctl-event-'), 'event.json')
      writeFileSync(file, JSON.stringify({ref, repository: {full_name: REPOSITORY, default_branch: 'main'}}))
      return {env: {GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: file, GITHUB_REF: ref, GITHUB_REPOSITORY: REPOSITORY}}
    }
    const FILE = {'baseline-file': 'evals/baseline.json', comment: 'false'}

    it.each([
      ['auto, a push to the default branch (its name from the event)', true, {}, on('push', 'refs/heads/main')],
      ['auto, a push to another branch', false, {}, on('push', 'refs/heads/feature')],
      ['auto, a push of a tag', false, {}, on('push', 'refs/tags/main')],
      ['auto, a pull request into the default branch', false, {}, on('pull_request', 'refs/pull/7/merge')],
      ['auto, the default branch run by hand', false, {}, on('workflow_dispatch', 'refs/heads/main')],
      ['auto, a push to the default branch without a baseline file', false, {'baseline-file': ''}, on('push', 'refs/heads/main')],
      ['true, on a pull request', true, {'update-baseline': 'true'}, on('pull_request', 'refs/pull/7/merge')],
      ['false, on a push to the default branch', false, {'update-baseline': 'false'}, on('push', 'refs/heads/main')],
    ] as const)('update-baseline %s: --update-baseline passed: %s', async (_, updates, inputs, options) => {
      const {result, argv} = await evals({runIds: [], runs: []}, 0, {...FILE, ...inputs}, options)
      expect(result.success).toBe(true)
      expect(argv().includes('--update-baseline')).toBe(updates)
      const says = stepOf(result, 'evals').stdout.includes('update-baseline: a push to the default branch (main): this step')
      expect(says).toBe(updates && inputs['update-baseline' as keyof typeof inputs] === undefined)
    })

    it('update-baseline true without a baseline file is passed to amctl, which refuses it; given in `args`, --update-baseline is passed once', async () => {
      const alone = await evals({}, 2, {'update-baseline': 'true'})
      expect(flagsOf(alone.argv())).toEqual(['evals', 'run', 'es_acme_search', '--wait', '--update-baseline'])
      expect(alone.result.outputs).toMatchObject({'exit-code': '2', verdict: 'error', 'baseline-updated': 'false'})
      const args = await evals({runIds: [], runs: []}, 0, {args: '--baseline-file=b.json --update-baseline'}, on('push', 'refs/heads/main'))
      expect(flagsOf(args.argv())).toEqual(['evals', 'run', 'es_acme_search', '--wait', '--baseline-file=b.json', '--update-baseline'])
    })

    /** A workspace holding evals/baseline.json, and a symbolic and a hard link to it under reports/. */
    const linked = () => {
      const workspace = tempDir('amctl-workspace-')
      mkdirSync(join(workspace, 'evals'))
      mkdirSync(join(workspace, 'reports'))
      writeFileSync(join(workspace, 'evals', 'baseline.json'), '{"the": "baseline file"}\n')
      symlinkSync(join('..', 'evals', 'baseline.json'), join(workspace, 'reports', 'symlink.md'))
      linkSync(join(workspace, 'evals', 'baseline.json'), join(workspace, 'reports', 'hard.xml'))
      return workspace
    }
    const SAME = ': the report would overwrite the baseline file; give the report another path'

    it.each([
      [
        'junit equal to baseline-file',
        {junit: 'evals/baseline.json'},
        'the input junit (evals/baseline.json) and the input baseline-file (evals/baseline.json)',
      ],
      [
        'summary a symbolic link to it',
        {summary: 'reports/symlink.md'},
        'the input summary (reports/symlink.md) and the input baseline-file (evals/baseline.json)',
      ],
      [
        'junit a hard link to it',
        {junit: 'reports/hard.xml'},
        'the input junit (reports/hard.xml) and the input baseline-file (evals/baseline.json)',
      ],
      [
        'another spelling of its path',
        {summary: './evals/../evals/baseline.json'},
        'the input summary (./evals/../evals/baseline.json) and the input baseline-file (evals/baseline.json)',
      ],
      [
        '--summary in args, a hard link',
        {args: '--summary=reports/hard.xml'},
        '--summary in args (reports/hard.xml) and the input baseline-file (evals/baseline.json)',
      ],
      [
        '--baseline-file in args, the input junit a symbolic link to it',
        {'baseline-file': '', junit: 'reports/symlink.md', args: '--baseline-file evals/baseline.json'},
        'the input junit (reports/symlink.md) and --baseline-file in args (evals/baseline.json)',
      ],
    ])('a report that is the baseline file (%s): exit 2 naming both, before amctl runs; the file as it was', async (_, inputs, names) => {
      const workspace = linked()
      const {result, argv} = await evals(runs('passed'), 0, {...FILE, comment: 'false', ...inputs}, {workspace})
      expect(stepOf(result, 'evals')).toMatchObject({
        exitCode: 2,
        stdout: `::error title=amctl action::${names} are the same file${SAME}\n`,
      })
      expect(result.outputs['exit-code']).toBe('')
      expect(() => argv()).toThrow(/ENOENT/)
      expect(readFileSync(join(workspace, 'evals', 'baseline.json'), 'utf8')).toBe('{"the": "baseline file"}\n')
    })

    it("a path with a newline is named on the error's one line", async () => {
      const {result} = await evals(runs('passed'), 0, {'baseline-file': 'b\n::warning::x.json', junit: 'b\n::warning::x.json'})
      expect(stepOf(result, 'evals').stdout).toBe(
        `::error title=amctl action::the input junit (b%0A::warning::x.json) and the input baseline-file (b%0A::warning::x.json) are the same file${SAME}\n`,
      )
    })

    it('reports beside the baseline file are written as ever', async () => {
      const workspace = linked()
      const {result, argv} = await evals(runs('passed'), 0, {...FILE, junit: 'reports/evals.xml', summary: 'reports/evals.md'}, {workspace})
      expect(result.outputs).toMatchObject({'exit-code': '0', verdict: 'passed'})
      expect(argv()).toEqual(expect.arrayContaining(['--junit', 'reports/evals.xml', '--summary', 'reports/evals.md']))
    })

    it.each([
      ['update-baseline', 'yes', 'auto, true or false'],
      ['require-baseline', '', 'true or false'],
      ['fail-inconclusive', 'TRUE', 'true or false'],
    ])('%s: %j is exit 2 naming the input and its words, before amctl runs', async (input, value, words) => {
      const {result, argv} = await evals(runs('passed'), 0, {[input]: value})
      expect(stepOf(result, 'evals')).toMatchObject({exitCode: 2, stdout: `::error title=amctl action::the input ${input} is ${words}\n`})
      expect(result.outputs['exit-code']).toBe('')
      expect(() => argv()).toThrow(/ENOENT/)
    })

    it('inconclusive ranks with the words the action does not know: below regressed, above no-baseline; on exit 0 it is the verdict', async () => {
      const doc = (...verdicts: string[]) => ({runIds: [], groups: verdicts.map((verdict) => ({verdict}))})
      expect((await evals(doc('passed', 'inconclusive', 'no-baseline'), 0)).result.outputs.verdict).toBe('inconclusive')
      expect((await evals(doc('inconclusive', 'regressed'), 10)).result.outputs.verdict).toBe('regressed')
      expect((await evals(doc('passed', 'inconclusive'), 10)).result.outputs.verdict).toBe('inconclusive')
    })
  })

  it('without eval-set: exit 2 naming the input, nothing run', async () => {
    const {result} = await evals({}, 0, {'eval-set': ''})
    expect(result.success).toBe(false)
    expect(result.outputs['exit-code']).toBe('')
    expect(result.steps[0].stdout.trim()).toBe('::error title=amctl action::the input eval-set is required (the eval set to launch)')
  })
})
