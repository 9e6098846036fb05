import {spawn} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {type DevServer, startDevServer} from '../../src/devserver/index.js'
import {USERS} from '../../src/devserver/seed.js'
import {amctlOnPath} from '../helpers/bin.js'
import {ROOT} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp.js'

/**
 * Every example of every command's help (issue 9.26), run as written by bash, with `amctl` on the
 * PATH, against a fresh dev server seeded as `amctl dev server` seeds it: it must exit as
 * documented. The base URL the examples spell (`http://127.0.0.1:4010`) is the test server's.
 */

interface Example {
  id: string
  command: string
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
  commands: Record<string, {examples?: (string | {command: string})[]}>
}
const EXAMPLES: Example[] = Object.entries(manifest.commands).flatMap(([id, command]) =>
  (command.examples ?? []).map((example) => ({
    id,
    command: (typeof example === 'string' ? example : example.command)
      .replaceAll('<%= config.bin %>', 'amctl')
      .replaceAll('<%= command.id %>', id.replaceAll(':', ' ')),
  })),
)

/** What an example documents other than "exit 0", keyed by a piece of its text. */
const EXPECT: {match: string; exit: number; why: string}[] = [
  {match: 'tags delete tag_acme_flaky --org acme', exit: 2, why: 'asks on a terminal; off one it needs --yes'},
  {match: 'mcp-servers delete mcp_acme_filesystem --org acme', exit: 2, why: 'asks on a terminal; off one it needs --yes'},
  // the seed makes outcomes deterministic: one of the two launched runs scores below 0.4
  {match: '--min-score 0.4', exit: 10, why: 'a run did not pass --min-score'},
  // and one of the two launched runs of es_acme_checkout fails
  {match: 'es_acme_checkout --org acme --wait --baseline previous', exit: 10, why: 'a launched run failed'},
]

/** The device hooks approve or deny a login waiting under a code: one is started, and its code stands in for the example's. */
const DEVICE = (command: string) => command.includes('/_dev/device/')
const EXAMPLE_CODE = /[A-Z]{4}-[A-Z]{4}/

/** Examples that start a server and run until Ctrl-C: they must come up, then stop cleanly on SIGINT. */
const SERVES = (command: string) => /^amctl dev server( |$)/.test(command)

let bin: string
beforeAll(() => {
  bin = amctlOnPath()
})

interface Outcome {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `script` in bash (its own process group), in `cwd`; `stopAfterFirstLine` sends SIGINT once stdout has a line. */
function bash(script: string, env: Record<string, string>, cwd: string, stopAfterFirstLine: boolean): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], {cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    const killAll = (signal: NodeJS.Signals) => {
      try {
        process.kill(-(child.pid ?? 0), signal)
      } catch {
        // already gone
      }
    }
    const timer = setTimeout(() => killAll('SIGKILL'), 20_000)
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString()
      if (stopAfterFirstLine && stdout.includes('\n')) killAll('SIGINT')
    })
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString()
    })
    child.on('error', reject)
    // whatever the example left running in the background (a server read through a FIFO) ends with it
    child.on('exit', () => killAll('SIGKILL'))
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({code, stdout, stderr})
    })
  })
}

describe('every example in the help works as documented against a fresh dev server', () => {
  let server: DevServer | undefined
  afterAll(() => server?.close())

  it('covers every command', () => {
    expect(new Set(EXAMPLES.map((e) => e.id))).toEqual(new Set(Object.keys(manifest.commands)))
  })

  it.each(EXAMPLES.map((e) => [e.id, e.command, e] as const))('%s: %s', async (_id, _command, example) => {
    await server?.close()
    const device = DEVICE(example.command)
    server = await startDevServer({port: 0, runSeconds: 0, approve: device ? 'manual' : 'auto'})
    const {token} = (await (
      await fetch(`${server.url}/_dev/tokens`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({email: USERS.ada.email}),
      })
    ).json()) as {token: string}
    const cwd = tempDir('amctl-example-')
    writeFileSync(join(cwd, 'implementation.json'), '{"stack":"node","notes":"checkout lives in acme/storefront"}\n')
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: cwd,
      AMCTL_BASE_URL: server.url,
      AMCTL_TOKEN: token,
      AMCTL_CI_TOKEN: token,
      AMCTL_CONFIG_DIR: join(cwd, 'config'),
      AMCTL_KEYCHAIN: 'off',
      url: server.url,
    }
    let script = example.command.replaceAll('http://127.0.0.1:4010', server.url)
    if (device) {
      const login = await fetch(`${server.url}/api/v1/cli/token`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: '{}',
      })
      const {userCode} = (await login.json()) as {userCode: string}
      script = script.replace(EXAMPLE_CODE, userCode)
    }
    const serves = SERVES(example.command)
    const r = await bash(serves ? script.replace(/^amctl dev server/, 'amctl dev server --port 0') : script, env, cwd, serves)
    const expected = EXPECT.find((e) => example.command.includes(e.match))?.exit ?? 0
    const context = `${example.command}\nexit ${r.code}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`
    expect(r.code, context).toBe(expected)
    expect(r.stderr, context).not.toMatch(/\n\s+at /) // no stack trace
    if (expected === 0) expect(r.stderr, context).not.toMatch(/^error: /m)
  })
})
