import {type ChildProcessWithoutNullStreams, spawn} from 'node:child_process'
import {readdirSync, readFileSync, realpathSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {manFiles} from '../../src/base/help/docs.js'
import {BIN, binCommand, freshConfigDir, runBin} from '../helpers/bin.js'
import {ROOT} from '../helpers/cli.js'
import {keychainRequired, probeSecretService} from '../helpers/secret-service.js'
import {harness, sealedEnv} from '../helpers/env.js'

// The smoke suite of a shipped amctl: every kind of thing it must carry works — the fast
// --version path, the bundle (--help), oclif's help and autocomplete commands, the local control
// plane (`dev server`), a device-flow login and an API call against it, the jq engine
// (dist/jq.wasm), the CI gate's statistics and baseline file (save, judge, --repeat auto), and the
// keychain's native module talking to a Secret Service. By default it runs
// this checkout's bin/run.cjs; .ci/run runs it against the installed npm package and the single
// executable (AMCTL_E2E_BIN), inside a private D-Bus session with gnome-keyring.

const keychain = await probeSecretService()
if (keychain.problem && !keychainRequired) {
  console.warn(`[smoke] keychain test SKIPPED: no Secret Service here (${keychain.problem}); .ci/run provides gnome-keyring.`)
}

const {version} = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string}
// amctl(1) and a page per command: what the package carries (made when it is packed, bin/release.js)
const man = manFiles(JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')))

interface Server {
  child: ChildProcessWithoutNullStreams
  url: string
  exited: Promise<number | null>
}

/** `amctl dev server --port 0` (and `extra` flags), its URL read from the first line of its stdout. */
function startDevServer(extra: string[] = []): Promise<Server> {
  const [file, args] = binCommand(['dev', 'server', '--port', '0', ...extra])
  const child = spawn(file, args, {
    env: sealedEnv({AMCTL_CONFIG_DIR: freshConfigDir(), AMCTL_KEYCHAIN: 'off'}),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  let out = ''
  let err = ''
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL from the dev server within 15 s; stderr: ${err}`)), 15_000)
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      if (out.includes('\n')) {
        clearTimeout(timer)
        resolve({child, url: out.slice(0, out.indexOf('\n')), exited})
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the dev server exited (${code}) before printing its URL; stderr: ${err}`))
    })
  })
}

describe(`a shipped amctl (${BIN})`, () => {
  const servers: Server[] = []
  afterAll(() => {
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL')
  })

  it('--version names the package version, the platform and the Node it runs on', async () => {
    const result = await runBin(['--version'])
    expect(result.stderr).toBe('')
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')[0]).toMatch(
      new RegExp(`^amctl/${version.replaceAll('.', '\\.')} ${process.platform}-${process.arch} node-v\\d+\\.\\d+\\.\\d+$`),
    )
  })

  it("--help, `help <command>`, `autocomplete` and the completion scripts' question answer", async () => {
    const [help, command, autocomplete, complete] = await Promise.all([
      runBin(['--help']),
      runBin(['help', 'runs', 'list']),
      runBin(['autocomplete', 'bash'], {env: {XDG_CACHE_HOME: freshConfigDir()}}),
      runBin(['__complete', 'runs', '']),
    ])
    for (const result of [help, command, autocomplete, complete]) {
      expect(result.stderr, 'no error, no warning').not.toMatch(/error|warning/i)
      expect(result.exitCode).toBe(0)
    }
    expect(help.stdout).toContain('GETTING STARTED')
    expect(command.stdout).toContain('$ amctl runs list')
    expect(autocomplete.stdout).toContain(`eval "$(amctl autocomplete script bash)"`)
    expect(complete.stdout).toMatch(/^fork\t.*\nlist\t.*\nwatch\t.*\n:\n$/)
  })

  // (a checkout has none: they are made when the package is packed, test/release/package.test.ts)
  it.skipIf(BIN === join(ROOT, 'bin', 'run.cjs'))(
    'carries the man pages, amctl(1) and one per command, in its man/ directory',
    async () => {
      // the package's directory: the entry's (a checkout, an npm install), or the single executable's files in its cache
      const cache = freshConfigDir()
      const result = await runBin(['--version'], {env: {AMCTL_CACHE_DIR: cache}})
      expect(result.exitCode, result.stderr).toBe(0)
      const entry = realpathSync(BIN)
      const images = /\.[cm]?js$/.test(entry) ? [] : readdirSync(join(cache, 'sea')).filter((name) => name.startsWith(`${version}-`))
      const root = /\.[cm]?js$/.test(entry) ? dirname(dirname(entry)) : join(cache, 'sea', images[0])
      expect(readdirSync(join(root, 'man')).sort()).toEqual(man.map((page) => basename(page)).sort())
      expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).man).toEqual(man)
    },
  )

  it('dev server, then a login, `runs list` and --jq against it; Ctrl-C stops the server', async () => {
    const server = await startDevServer()
    servers.push(server)
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const env = {AMCTL_BASE_URL: server.url, AMCTL_CONFIG_DIR: freshConfigDir()}

    // a device login needs a terminal (without one amctl exits 2 at once)
    const login = await runBin(['auth', 'login'], {env, stdinTerminal: true})
    expect(login.exitCode, login.stderr).toBe(0)
    expect(login.stderr).toContain(`Logged in to ${server.url} as ada@example.com`)

    const runs = await runBin(['runs', 'list', '--org', 'acme', '--json'], {env})
    expect(runs.exitCode, runs.stderr).toBe(0)
    const items = JSON.parse(runs.stdout).items as Array<{id: string}>
    expect(items.length).toBeGreaterThan(0)

    const first = await runBin(['runs', 'list', '--org', 'acme', '--jq', '.items[0].id'], {env})
    expect(first.exitCode, first.stderr).toBe(0)
    expect(first.stdout).toBe(`${items[0].id}\n`)

    // the JUnit report of a gated wait: the XML library (dist/xml.cjs) ships and loads
    const junit = join(freshConfigDir(), 'reports', 'evals.xml')
    const watched = await runBin(['runs', 'watch', 'run_acme_0251', '--org', 'acme', '--baseline', 'previous', '--junit', junit], {env})
    expect(watched.exitCode, watched.stderr).toBe(0)
    expect(readFileSync(junit, 'utf8')).toContain(
      '<testcase classname="es_acme_checkout" name="claude-code / claude-sonnet-4-5 (run_acme_0251)"',
    )

    server.child.kill('SIGINT')
    expect(await server.exited).toBe(0)
  })

  it('the CI gate: a baseline file saved, a collapse regressed against it (the file untouched), --repeat auto decided after one launch', async () => {
    // runs that finish at once; the statistics (dist/stats.cjs) and the file's checks ship and load
    const server = await startDevServer(['--run-seconds', '0'])
    servers.push(server)
    const env = {AMCTL_BASE_URL: server.url, AMCTL_CONFIG_DIR: freshConfigDir(), AMCTL_ORG: 'acme'}
    const login = await runBin(['auth', 'login'], {env, stdinTerminal: true})
    expect(login.exitCode, login.stderr).toBe(0)

    const file = join(freshConfigDir(), 'checkout-baseline.json')
    const saved = await runBin(['evals', 'baseline', 'save', 'es_acme_checkout', '--file', file], {env})
    expect(saved.exitCode, saved.stderr).toBe(0)
    const bytes = readFileSync(file, 'utf8')
    const shown = await runBin(['evals', 'baseline', 'show', file, '--json'], {env})
    expect(shown.exitCode, shown.stderr).toBe(0)
    expect(JSON.parse(shown.stdout).groups.map((g: {agent: string}) => g.agent)).toEqual(['claude-code', 'codex'])

    // claude-code collapses to 0.3 on every launch from now on (the dev server's outcome plans)
    const plan = await fetch(`${server.url}/_dev/orgs/acme/outcomes`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({evalSetId: 'es_acme_checkout', agent: 'claude-code', status: 'succeeded', score: 0.3, count: 10}),
    })
    expect(plan.status).toBe(200)

    const gated = await runBin(['evals', 'run', 'es_acme_checkout', '--wait', '--baseline-file', file, '--json'], {env})
    expect(gated.exitCode, gated.stderr).toBe(10)
    const claude = JSON.parse(gated.stdout).runs.find((run: {agent: string}) => run.agent === 'claude-code')
    expect(claude).toMatchObject({verdict: 'regressed', baseline: {kind: 'file', path: file}})
    expect(readFileSync(file, 'utf8')).toBe(bytes)

    const auto = await runBin(
      ['evals', 'run', 'es_acme_checkout', '--wait', '--repeat', 'auto', '--max-drop', '0.1', '--baseline-file', file, '--json'],
      {env},
    )
    expect(auto.exitCode, auto.stderr).toBe(10)
    expect(JSON.parse(auto.stdout).launches).toHaveLength(1)
    server.child.kill('SIGINT')
    expect(await server.exited).toBe(0)
  })

  describe.skipIf(Boolean(keychain.problem) && !keychainRequired)('the keychain', () => {
    let server: Server
    beforeAll(async () => {
      server = await startDevServer()
      servers.push(server)
    })

    it('a Secret Service answers (AMCTL_REQUIRE_KEYCHAIN=1)', () => {
      expect(keychain.problem).toBeUndefined()
    })

    it('login stores the token in the Secret Service, status reads it from there, logout removes it', async () => {
      const env = {
        AMCTL_BASE_URL: server.url,
        AMCTL_CONFIG_DIR: freshConfigDir(),
        AMCTL_KEYCHAIN: undefined,
        DBUS_SESSION_BUS_ADDRESS: harness.dbusAddress,
      }
      const stored = keychain.entry!('amctl', `default@${server.url}`)

      const login = await runBin(['auth', 'login'], {env, stdinTerminal: true})
      expect(login.exitCode, login.stderr).toBe(0)
      expect(login.stderr).not.toMatch(/keychain/i)
      const token = await stored.getPassword()
      expect(token).toMatch(/^\S{20,}$/)

      const status = await runBin(['auth', 'status', '--json'], {env})
      expect(status.exitCode, status.stderr).toBe(0)
      expect(JSON.parse(status.stdout)).toMatchObject({tokenSource: 'keychain', token: `${token!.slice(0, 4)}…${token!.slice(-4)}`})

      const logout = await runBin(['auth', 'logout'], {env})
      expect(logout.exitCode, logout.stderr).toBe(0)
      expect(logout.stderr).toContain('removed from keychain')
      expect(await stored.getPassword()).toBeFalsy()
    })
  })
})
