#!/usr/bin/env node
// `npm run demo`: amctl end to end against the local control plane, as a user would run it.
// Builds if needed, starts `amctl dev server` on a free port with a temporary data file, and
// runs each command in a temporary config dir with the keychain off (your own config, keychain
// and AMCTL_* variables are never touched), printing each command before its output.
// Exits 0 when every step behaved as documented, 1 otherwise.

import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = join(root, 'bin', 'run.cjs')
const tty = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR
const paint = (code, text) => (tty ? `\u001B[${code}m${text}\u001B[0m` : text)

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

// 1. build if the bundle is missing or older than a source file or the package description
const bundle = join(root, 'dist', 'amctl.cjs')
const sources = Math.max(newestMtime(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs)
if (!existsSync(bundle) || sources > statSync(bundle).mtimeMs) {
  console.log(paint('2', '# building amctl (npm run build)…'))
  const build = spawnSync('npm', ['run', 'build', '--silent'], {cwd: root, stdio: 'inherit'})
  if (build.status !== 0) process.exit(1)
}
const seed = await import(new URL('../dist/devserver/seed.js', import.meta.url))

// 2. a private world: temp config dir, temp data file, no keychain, none of the caller's AMCTL_*
const work = mkdtempSync(join(tmpdir(), 'amctl-demo-'))
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('AMCTL_')))
env.AMCTL_CONFIG_DIR = join(work, 'config')
env.AMCTL_KEYCHAIN = 'off'
// interrupted (Ctrl-C, a killed CI step): nothing of the private world is left behind
let server
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server?.kill('SIGINT')
    rmSync(work, {recursive: true, force: true})
    process.exit(130)
  })
}

// launched runs finish within seconds, so `evals run --wait` ends quickly
const serverArgs = ['dev', 'server', '--port', '0', '--data', join(work, 'state.json'), '--run-seconds', '3']
console.log(paint('1', `\n$ amctl ${serverArgs.join(' ')}`))
server = spawn(process.execPath, [bin, ...serverArgs], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
})
const lines = createInterface({input: server.stdout})
const baseUrl = await new Promise((resolve, reject) => {
  lines.once('line', resolve)
  server.once('exit', (code) => reject(new Error(`dev server exited early (${code})`)))
})
lines.on('line', (line) => console.log(line))
await new Promise((resolve) => setTimeout(resolve, 50))
console.log(baseUrl)

let failed = 0
/** Runs one amctl command the way a user types it; output goes straight to this terminal. `expect`: an exit code or a list of them. */
function amctl(args, {expect = 0, input, quiet = false, stdin = 'ignore'} = {}) {
  const expected = [expect].flat()
  if (!quiet) console.log(paint('1', `\n$ amctl ${args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a}'`)).join(' ')}`))
  const result = spawnSync(process.execPath, [bin, ...args], {
    env,
    input,
    stdio: [input === undefined ? stdin : 'pipe', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
    encoding: 'utf8',
  })
  if (!expected.includes(result.status)) {
    failed++
    console.log(paint('31', `✗ expected exit ${expected.join(' or ')}, got ${result.status}`))
    if (quiet) console.log(result.stdout, result.stderr)
  } else if (result.status !== 0 && !quiet) {
    console.log(paint('2', `# exit ${result.status}, as documented`))
  }
  return result
}

const evalSet = seed.EVAL_SETS.acmeCheckout
const climb = seed.OPTIMIZATIONS.acmeCheckout
// a device login needs someone at a terminal to approve it (the dev server approves at once);
// without one (CI) amctl refuses it at once, and a token read from stdin logs in instead
const ci = !['', 'false', '0', undefined].includes(process.env.CI?.trim().toLowerCase())
const atTerminal = Boolean(process.stdin.isTTY) && !ci
try {
  if (atTerminal) amctl(['auth', 'login', '--base-url', baseUrl, '--no-browser'], {stdin: 'inherit'})
  else {
    amctl(['auth', 'login', '--base-url', baseUrl], {expect: 2})
    console.log(paint('2', '# no terminal here: log in with a token on stdin, as CI does (the dev server mints one for ada)'))
    const minted = await fetch(`${baseUrl}/_dev/tokens`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({email: 'ada@example.com'}),
    })
    amctl(['auth', 'login', '--base-url', baseUrl, '--with-token'], {input: `${(await minted.json()).token}\n`})
  }
  amctl(['auth', 'status'])
  amctl(['config', 'set', 'org', 'acme'])
  amctl(['tokens', 'create', '--name', 'ci', '--expires', '30d'])
  amctl(['evals', 'update', evalSet, '--cadence', 'WEEKLY', '--samples', '5'])
  amctl(['evals', 'run', evalSet])
  console.log(paint('2', '\n# launch again and wait for the runs: exit 0 when every run succeeded, 10 when one did not'))
  amctl(['evals', 'run', evalSet, '--wait', '--interval', '1', '--wait-timeout', '2m'], {expect: [0, 10]})
  amctl(['runs', 'list', '--limit', '5'])
  const newest = JSON.parse(amctl(['runs', 'list', '--limit', '1', '--json'], {quiet: true}).stdout || '{"items":[]}').items[0]?.id
  amctl(['runs', 'fork', newest ?? 'run_missing'])
  amctl(['optimizations', 'preview', climb])
  amctl(['optimizations', 'propose', climb])
  amctl(['optimizations', 'chat', climb, '--message', '-'], {input: 'Which trial should we keep, and why?\n'})
  console.log(paint('2', '\n# globex does not have the Optimizations capability:'))
  amctl(['optimizations', 'propose', seed.OPTIMIZATIONS.globexDocs, '--org', 'globex'], {expect: 4})
  amctl(['evals', 'update', evalSet, '--samples', '51'], {expect: 2})
} finally {
  server.kill('SIGINT')
  await new Promise((resolve) => server.once('exit', resolve))
  rmSync(work, {recursive: true, force: true})
}

console.log(
  failed === 0 ? paint('32', '\n✓ demo finished: every command behaved as documented') : paint('31', `\n✗ ${failed} step(s) did not`),
)
process.exit(failed === 0 ? 0 : 1)
