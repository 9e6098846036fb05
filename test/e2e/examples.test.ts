import {spawn} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {type DevServer, startDevServer} from '../../src/devserver/index.js'
import {USERS} from '../../src/devserver/seed.js'
import {amctlOnPath} from '../helpers/bin.js'
import {ROOT} from '../helpers/cli.js'
import {amctlLines, documentPaths, shellBlocksOf} from '../helpers/markdown.js'
import {tempDir} from '../helpers/temp.js'
import {machinePath, sealedEnv} from '../helpers/env.js'
import {systemClock} from '../../src/core/clock.js'

/**
 * Every example of every command's help, and every `amctl` line of the documents' shell blocks
 * (README.md, CONTRIBUTING.md, docs/), run as written by bash, with `amctl` on the PATH, against a
 * fresh dev server seeded as `amctl dev server` seeds it, logged in as ada@example.com: it must
 * exit as documented. The base URL the examples spell (`http://127.0.0.1:4010`) is the test
 * server's. A document's block marked `<!-- not-runnable: REASON -->` is not run; one marked
 * `<!-- exits N: REASON -->` must exit N (CONTRIBUTING.md, "Documentation").
 */

interface Example {
  id: string
  command: string
}

/** A command line of a document, to run unless a help example runs the same line. */
interface DocumentLine {
  file: string
  command: string
  exit: number
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

/** `command` without a trailing `# comment` (a `#` outside quotes, after a space) or `&`, its spaces single. */
function sameLine(command: string): string {
  let quote = ''
  let end = command.length
  for (let i = 0; i < command.length && end === command.length; i++) {
    const c = command[i]
    if (quote !== '') quote = c === quote ? '' : quote
    else if (c === "'" || c === '"') quote = c
    else if (c === '#' && /\s/.test(command[i - 1] ?? '')) end = i
  }
  return command
    .slice(0, end)
    .replace(/\s&\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
}
const helpLines = new Set(EXAMPLES.map((e) => sameLine(e.command)))
const DOCUMENT_LINES: DocumentLine[] = [
  ...new Map(
    documentPaths()
      .flatMap((file) => shellBlocksOf(file, readFileSync(join(ROOT, file), 'utf8')).blocks.flatMap(amctlLines))
      .filter((line) => line.marker?.kind !== 'not-runnable' && !helpLines.has(sameLine(line.command)))
      .map((line): [string, DocumentLine] => [
        sameLine(line.command),
        {file: line.file, command: line.command, exit: line.marker?.kind === 'exits' ? line.marker.exit : 0},
      ]),
  ).values(),
]

/** What an example documents other than "exit 0", keyed by a piece of its text. */
const EXPECT: {match: string; exit: number; why: string}[] = [
  {match: 'tags delete tag_acme_flaky --org acme', exit: 2, why: 'asks on a terminal; off one it needs --yes'},
  {match: 'mcp-servers delete mcp_acme_filesystem --org acme', exit: 2, why: 'asks on a terminal; off one it needs --yes'},
  // the seed makes outcomes deterministic: one of the two launched runs scores below 0.4
  {match: '--min-score 0.4', exit: 10, why: 'a run did not pass --min-score'},
  // the examples run without a terminal, where no one could approve a device login
  {match: 'auth login --base-url http://127.0.0.1:4010', exit: 2, why: 'a device login needs a terminal'},
  // and one of the two launched runs of es_acme_checkout fails
]

/**
 * Baseline files the examples judge against or show (`--baseline-file search-baseline.json`,
 * `evals baseline show checkout-baseline.json`): saved from the fresh server's seeded history
 * first, as a CI job would have saved it, unless the example saves it itself (`--file NAME`).
 */
const BASELINE_FILES: Record<string, string> = {'checkout-baseline.json': 'es_acme_checkout', 'search-baseline.json': 'es_acme_search'}
function withBaselineFiles(script: string): string {
  const saves = Object.entries(BASELINE_FILES)
    .filter(([name]) => script.includes(name) && !script.includes(`--file ${name}`))
    .map(([name, evalSet]) => `amctl evals baseline save ${evalSet} --org acme --file ${name} >/dev/null 2>&1 && `)
  return `${saves.join('')}${script}`
}

/** The device hooks approve or deny a login waiting under a code: one is started, and its code stands in for the example's. */
const DEVICE = (command: string) => command.includes('/_dev/device/')
const EXAMPLE_CODE = /[A-Z]{4}-[A-Z]{4}/

/**
 * Examples that start a server and run until Ctrl-C: they must come up, then stop cleanly on
 * SIGINT. One sent to the background (`amctl dev server &`, in a quick start) runs in front here.
 */
const SERVES = (command: string) => /^amctl dev server( |$)/.test(command)
const inFront = (command: string) => command.replace(/\s&\s*(#.*)?$/, '')

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

describe('every example in the help and the documents works as documented against a fresh dev server', () => {
  let server: DevServer | undefined
  afterAll(() => server?.close())

  it('covers every command', () => {
    expect(new Set(EXAMPLES.map((e) => e.id))).toEqual(new Set(Object.keys(manifest.commands)))
  })

  /** Runs `command` as bash would, against a fresh dev server, as ada@example.com; it must exit `expected`. */
  async function runLine(command: string, expected: number): Promise<void> {
    await server?.close()
    const device = DEVICE(command)
    server = await startDevServer({now: systemClock.wall, port: 0, runSeconds: 0, approve: device ? 'manual' : 'auto'})
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
      ...sealedEnv({PATH: `${bin}:${machinePath()}`, HOME: cwd}),
      AMCTL_BASE_URL: server.url,
      AMCTL_TOKEN: token,
      AMCTL_CI_TOKEN: token,
      AMCTL_CONFIG_DIR: join(cwd, 'config'),
      AMCTL_KEYCHAIN: 'off',
      // (the shell `amctl autocomplete` gives instructions for when none is named)
      SHELL: '/bin/bash',
      url: server.url,
    }
    let script = withBaselineFiles(command.replaceAll('http://127.0.0.1:4010', server.url))
    if (device) {
      const login = await fetch(`${server.url}/api/v1/cli/token`, {
        method: 'POST',
        headers: {'content-type': 'application/json'},
        body: '{}',
      })
      const {userCode} = (await login.json()) as {userCode: string}
      script = script.replace(EXAMPLE_CODE, userCode)
    }
    const serves = SERVES(command)
    const r = await bash(serves ? inFront(script).replace(/^amctl dev server/, 'amctl dev server --port 0') : script, env, cwd, serves)
    const context = `${command}\nexit ${r.code}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`
    expect(r.code, context).toBe(expected)
    expect(r.stderr, context).not.toMatch(/\n\s+at /) // no stack trace
    if (expected === 0) expect(r.stderr, context).not.toMatch(/^error: /m)
  }

  it.each(EXAMPLES.map((e) => [e.id, e.command, e] as const))('%s: %s', async (_id, _command, example) => {
    await runLine(example.command, EXPECT.find((e) => example.command.includes(e.match))?.exit ?? 0)
  })

  it.each(DOCUMENT_LINES.map((line) => [line.file, line.command, line] as const))('%s: %s', async (_file, _command, line) => {
    await runLine(line.command, line.exit)
  })
})
