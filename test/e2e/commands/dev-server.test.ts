import {type ChildProcessWithoutNullStreams, spawn, spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {Ajv} from 'ajv'
import {afterEach, describe, expect, it} from 'vitest'
import {HOOKS} from '../../../src/devserver/options.js'
import {amctlOnPath, BIN, freshConfigDir, runBin} from '../../helpers/bin.js'
import {ROOT} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/temp.js'
import {lines} from './util.js'
import {machinePath, sealedEnv} from '../../helpers/env.js'

// `amctl dev server` as a user runs it: the real bin/run.cjs in a subprocess, its URL read from
// the first stdout line, then amctl pointed at it; Ctrl-C (SIGINT) stops it with exit 0.

interface Server {
  child: ChildProcessWithoutNullStreams
  firstLine: string
  stdout: () => string
  stderr: () => string
  exited: Promise<{code: number | null; signal: NodeJS.Signals | null}>
}

const started: Server[] = []
afterEach(() => {
  for (const server of started.splice(0))
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
})

/** Runs a snippet with bash -e, amctl on PATH, in a private config dir. */
function bash(script: string, env: Record<string, string> = {}) {
  const configDir = freshConfigDir()
  const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
    encoding: 'utf8',
    timeout: 20_000,
    env: sealedEnv({PATH: `${amctlOnPath()}:${machinePath()}`, AMCTL_CONFIG_DIR: configDir, AMCTL_KEYCHAIN: 'off', ...env}),
  })
  return {code: result.status, stdout: result.stdout, stderr: result.stderr}
}

/**
 * The examples of `amctl dev server --help` exactly as it prints them (80 columns, no TTY): a
 * description, then the command as a user would copy it, `$ ` prompt removed.
 */
async function helpExamples(): Promise<{description: string; command: string}[]> {
  const help = await runBin(['dev', 'server', '--help'])
  expect(help.exitCode, help.stderr).toBe(0)
  const blocks = help.stdout.split('\nEXAMPLES\n')[1].split(/\n\n/)
  const examples: {description: string; command: string}[] = []
  for (let i = 0; i + 1 < blocks.length; i += 2) {
    const description = blocks[i].replace(/\s+/g, ' ').trim()
    const command = blocks[i + 1]
      .split('\n')
      .map((line) => line.replace(/^ {4}(\$ )?/, ''))
      .join('\n')
    examples.push({description, command})
  }
  return examples
}

/** `limit`: a command the server runs under (`prlimit --fsize=N`). */
function startServer(extra: string[] = [], limit: string[] = []): Promise<Server> {
  const [command, ...before] = [...limit, process.execPath]
  const child = spawn(command, [...before, BIN, 'dev', 'server', '--port', '0', '--seed', 'default', ...extra], {
    env: sealedEnv({AMCTL_CONFIG_DIR: freshConfigDir(), AMCTL_KEYCHAIN: 'off'}),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  const exited = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((resolve) =>
    child.on('close', (code, signal) => resolve({code, signal})),
  )
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no first line from the dev server within 15 s; stderr: ${err}`)), 15_000)
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')))
    child.stdout.on('data', (chunk: Buffer) => {
      const before = out
      out += chunk.toString('utf8')
      if (!before.includes('\n') && out.includes('\n')) {
        clearTimeout(timer)
        const server: Server = {child, firstLine: out.slice(0, out.indexOf('\n')), stdout: () => out, stderr: () => err, exited}
        started.push(server)
        resolve(server)
      }
    })
    void exited.then(({code}) => {
      clearTimeout(timer)
      reject(new Error(`the dev server exited (${code}) before printing its URL; stderr: ${err}`))
    })
  })
}

/** SIGINT, then the exit status — failing (not hanging) if the server does not stop within 10 s. */
async function interrupt(server: Server): Promise<{code: number | null; signal: NodeJS.Signals | null}> {
  server.child.kill('SIGINT')
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the dev server did not exit within 10 s of SIGINT')), 10_000)
  })
  try {
    return await Promise.race([server.exited, limit])
  } finally {
    clearTimeout(timer)
  }
}

const hasPrlimit = spawnSync('prlimit', ['--version'], {env: sealedEnv()}).status === 0

describe('amctl dev server (subprocess)', () => {
  it.skipIf(!hasPrlimit)(
    '--data on a full disk (a file-size limit): a change it cannot write answers 507 and is undone; a restart has every answered change, no refused one',
    async () => {
      const file = join(tempDir('amctl-e2e-full-'), 'state.json')
      // the seeded state (about 75 KB) fits in 1 MB; 20,000 more runs do not
      const server = await startServer(['--data', file], ['prlimit', '--fsize=1000000'])
      const url = server.firstLine
      const post = (path: string, body: unknown, method = 'POST') =>
        fetch(`${url}${path}`, {method, headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})
      const refused = await post('/_dev/orgs/acme/runs', {count: 20_000})
      expect(refused.status).toBe(507)
      expect(((await refused.json()) as {error: {code: string}}).error.code).toBe('insufficient_storage')
      expect(server.stderr()).toMatch(/warning: could not write .*EFBIG.*; the change was refused \(507\)/)
      const state = async () => (await (await fetch(`${url}/_dev/orgs/acme`)).json()) as {runCount: number; credits: number}
      expect((await state()).runCount).toBe(260)
      // a change that fits is written and answered
      expect((await post('/_dev/orgs/acme', {credits: 5}, 'PATCH')).status).toBe(200)
      expect(await interrupt(server)).toEqual({code: 0, signal: null})

      const again = await startServer(['--data', file])
      const kept = (await (await fetch(`${again.firstLine}/_dev/orgs/acme`)).json()) as {runCount: number; credits: number}
      expect(kept).toMatchObject({runCount: 260, credits: 5})
      expect(await interrupt(again)).toEqual({code: 0, signal: null})
    },
  )

  it('prints its URL, serves a device-flow login and every seeded run, and exits 0 on SIGINT', async () => {
    const server = await startServer()
    const url = server.firstLine
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

    const configDir = freshConfigDir()
    const login = await runBin(['auth', 'login'], {env: {AMCTL_BASE_URL: url, AMCTL_CONFIG_DIR: configDir}, stdinTerminal: true})
    expect(login.exitCode, login.stderr).toBe(0)
    expect(login.stdout).toBe('')
    expect(login.stderr).toContain(`Then approve the login at ${url}/device`)
    expect(login.stderr).toContain(`Logged in to ${url} as ada@example.com (acme, globex)`)

    // same config dir, no AMCTL_BASE_URL: the login saved the URL in the profile
    const all = await runBin(['runs', 'list', '--org', 'acme', '--all', '--json'], {env: {AMCTL_CONFIG_DIR: configDir}})
    expect(all.exitCode, all.stderr).toBe(0)
    expect(all.stderr).toBe('')
    const ids = (JSON.parse(all.stdout).items as Array<{id: string}>).map((run) => run.id)
    const {runCount} = (await (await fetch(`${url}/_dev/orgs/acme`)).json()) as {runCount: number}
    expect(runCount).toBeGreaterThanOrEqual(250)
    expect(ids).toHaveLength(runCount)
    expect(new Set(ids).size).toBe(runCount)

    const exit = await interrupt(server)
    expect(exit).toEqual({code: 0, signal: null})
    // stdout: the URL, then one tab-separated line per seeded org; hints went to stderr
    expect(lines(server.stdout())).toEqual([
      url,
      'acme\torg_01J9ACME0000000000000000\tAcme Corp',
      'globex\torg_01J9GLOBEX00000000000000\tGlobex Corporation',
    ])
    expect(server.stderr()).toContain(`amctl dev server listening on ${url}`)
  })

  it('--json prints exactly one JSON line describing the server', async () => {
    const server = await startServer(['--json'])
    const doc = JSON.parse(server.firstLine)
    expect(doc.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(doc.orgs).toEqual([
      {slug: 'acme', publicId: 'org_01J9ACME0000000000000000', name: 'Acme Corp'},
      {slug: 'globex', publicId: 'org_01J9GLOBEX00000000000000', name: 'Globex Corporation'},
    ])
    expect(doc.users.map((u: {email: string}) => u.email)).toEqual(['ada@example.com', 'grace@example.com'])
    // the line is the document schemas/dev-server.json describes, as every --json document has one (issue 32 item 20)
    const validate = new Ajv({strict: false}).compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'dev-server.json'), 'utf8')))
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true)
    expect(validate({...doc, baseUrl: 4010})).toBe(false)
    const me = await fetch(`${doc.baseUrl}/api/v1/me`)
    expect(me.status).toBe(401)

    expect(await interrupt(server)).toEqual({code: 0, signal: null})
    expect(lines(server.stdout())).toEqual([server.firstLine])
  })

  it("the help's idiom for scripts returns: it reads the URL while the server runs, and `kill $!` stops it", async () => {
    const idiom = (await helpExamples()).find((example) => example.command.startsWith('exec 3<'))!
    expect(idiom.description).toContain('`kill $!` stops the server')
    const script = `${idiom.command}
echo "url=$url"
curl -fsS "$url/api/v1/openapi.json" > /dev/null && echo served
pid=$!
kill $!
while kill -0 "$pid" 2> /dev/null; do sleep 0.05; done
curl -s "$url/api/v1/openapi.json" > /dev/null || echo stopped`
    const result = bash(script)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^url=http:\/\/127\.0\.0\.1:\d+\nserved\nstopped\n$/)
  })

  it('every /_dev/ hook example of the help works against the server, pasted as the help prints it', async () => {
    const server = await startServer(['--approve', 'manual'])
    const hooks = (await helpExamples()).filter((example) => example.description.includes('/_dev/'))
    expect(hooks).toHaveLength(HOOKS.length)
    for (const example of hooks) {
      let {command} = example
      if (command.includes('/_dev/device/')) {
        // a login waiting for approval, with the code the example shows replaced by its own
        const start = (await (await fetch(`${server.firstLine}/api/v1/cli/token`, {method: 'POST'})).json()) as {userCode: string}
        command = command.replace('BCDF-GHJK', start.userCode)
      }
      const result = bash(command, {url: server.firstLine})
      expect(result.code, `${example.description}\n${command}\n${result.stderr}`).toBe(0)
      expect(JSON.parse(result.stdout), command).toBeTypeOf('object')
    }
    expect(await interrupt(server)).toEqual({code: 0, signal: null})
  })

  it('launched runs move on to their outcome with --run-seconds, as amctl sees them', async () => {
    const server = await startServer(['--run-seconds', '0'])
    const headers = {'content-type': 'application/json'}
    const minted = await fetch(`${server.firstLine}/_dev/tokens`, {method: 'POST', headers, body: '{"email":"ada@example.com"}'})
    const env = {AMCTL_BASE_URL: server.firstLine, AMCTL_TOKEN: ((await minted.json()) as {token: string}).token}
    const launched = await runBin(['evals', 'run', 'es_acme_search', '--org', 'acme', '--json'], {env})
    expect(launched.exitCode, launched.stderr).toBe(0)
    const {runIds} = JSON.parse(launched.stdout) as {runIds: string[]}
    const listed = await runBin(['runs', 'list', '--org', 'acme', '--limit', String(runIds.length), '--json'], {env})
    const statuses = (JSON.parse(listed.stdout).items as {status: string}[]).map((run) => run.status)
    for (const status of statuses) expect(['succeeded', 'failed', 'cancelled']).toContain(status)
    expect(await interrupt(server)).toEqual({code: 0, signal: null})
  })
})
