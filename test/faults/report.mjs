#!/usr/bin/env node
// The reliability figures of amctl as a markdown table (docs/reliability.md).
//
//   node test/faults/report.mjs --run   clear the figures, run `vitest run --project faults`, print the table
//   node test/faults/report.mjs         print the table of the last run (npm test runs the suite too)
//
// `npm run test:faults` is the first form. It tests the built CLI (bin/run.cjs → dist/), which the
// test run's global setup builds first. The figures are written by the tests themselves (test/faults/figures.ts)
// to $FAULT_FIGURES_DIR, else .faults/ in the project (git-ignored).
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, readdirSync, rmSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const DIR = process.env.FAULT_FIGURES_DIR || fileURLToPath(new URL('../../.faults/', import.meta.url))
const RESULTS = join(DIR, 'vitest.json')

let exitCode = 0
if (process.argv.includes('--run')) {
  rmSync(DIR, {recursive: true, force: true})
  mkdirSync(DIR, {recursive: true})
  const vitest = join(ROOT, 'node_modules', '.bin', 'vitest')
  const run = spawnSync(vitest, ['run', '--project', 'faults', '--reporter=default', '--reporter=json', `--outputFile.json=${RESULTS}`], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {...process.env, FAULT_FIGURES_DIR: DIR},
  })
  exitCode = run.status ?? 1
  process.stdout.write('\n')
}

/** Every section the tests wrote: {faults: {...}, malformed: {...}, ...} */
function load() {
  const out = {}
  if (!existsSync(DIR)) return out
  for (const name of readdirSync(DIR)) {
    if (!name.endsWith('.json') || name === 'vitest.json') continue
    const section = JSON.parse(readFileSync(join(DIR, name), 'utf8'))
    out[section.section] = section.figures
  }
  return out
}

const f = load()
const get = (path) => path.split('.').reduce((v, k) => (v === undefined || v === null ? undefined : v[k]), f)
const n = (v) => (v === undefined || v === null ? '—' : typeof v === 'number' ? v.toLocaleString('en-US') : String(v))
const s = (ms) => (ms === undefined || ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`)
const pct = (v) => (v === undefined ? '—' : `${(v * 100).toFixed(1)} %`)

const rows = []
const row = (area, figure, value) => rows.push(`| ${area} | ${figure} | ${value} |`)

// tests
if (existsSync(RESULTS)) {
  const r = JSON.parse(readFileSync(RESULTS, 'utf8'))
  const files = r.testResults ?? []
  const ms = files.reduce((a, t) => Math.max(a, t.endTime ?? 0), 0) - files.reduce((a, t) => Math.min(a, t.startTime ?? Infinity), Infinity)
  row('suite', 'tests passed / failed', `${n(r.numPassedTests)} / ${n(r.numFailedTests)} (${files.length} files, ${s(ms)})`)
}

// faults
const rl = get('faults.runsList')
if (rl) {
  row('runs list --all --json, 30 % faults', 'runs listed / on the server', `${n(rl.received)} / ${n(rl.runs)} (pages of ${rl.pageSize})`)
  row(
    '',
    'faults injected (503 / 429 Retry-After: 1 / dropped)',
    `${n(rl.faultsInjected)} of ${n(rl.requests)} requests, ${pct(rl.faultRate)} (${rl.faults503} / ${rl.faults429} / ${rl.faultsDropped})`,
  )
  row('', 'items lost / duplicated', `${n(rl.lost)} / ${n(rl.duplicated)}`)
  row('', 'exit code, time (its retry waits counted, not waited: a fake clock)', `${n(rl.exitCode)}, ${s(rl.ms)}`)
}
const da = get('faults.dropAfterLaunch')
if (da) {
  row(
    'evals run, connection dropped after the launch',
    'invocations / launches the server saw',
    `${n(da.invocations)} / ${n(da.launchesSeenByServer)}`,
  )
  row('', 'double launches', n(da.doubleLaunches))
  row('', 'runs created (runs per launch × invocations)', `${n(da.runCountGrowth)} (${da.runsPerLaunch} × ${da.invocations})`)
  row('', 'exited 9 / showed the launched runs', `${n(da.exit9)} / ${n(da.newestRunsShown)}`)
}
const p429 = get('faults.post429')
if (p429) row('POST retries', '429 + Retry-After: attempts, exit', `${n(p429.attempts)}, ${n(p429.exitCode)}`)
const pr = get('faults.postRefused')
if (pr)
  row(
    '',
    'refused before sending: refused attempts, requests received, exit',
    `${n(pr.refusedAttempts)}, ${n(pr.requestsReceived)}, ${n(pr.exitCode)}`,
  )
const gets = ['502', '503', '504', '429'].map((st) => [st, get(`faults.get${st}`)]).filter(([, v]) => v)
if (gets.length)
  row('GET retries exhausted', 'status: attempts → exit', gets.map(([st, v]) => `${st}: ${v.attempts} → ${v.exitCode}`).join(', '))
const tm = get('faults.timeoutMs')
if (tm) {
  const idem = Object.entries(tm).filter(([k]) => /\((GET|PATCH|DELETE)\)$/.test(k))
  const posts = Object.entries(tm).filter(([k]) => !/\((GET|PATCH|DELETE)\)$/.test(k))
  const range = (list) => (list.length ? `${s(Math.min(...list.map(([, v]) => v)))} – ${s(Math.max(...list.map(([, v]) => v)))}` : '—')
  row('server never answers, --timeout 1', `GET/PATCH/DELETE (4 attempts, exit 1): ${idem.length} commands`, range(idem))
  const evalsRun = posts.find(([k]) => k === 'evals run')
  row(
    '',
    `POST (1 attempt, exit 9): ${posts.length} commands`,
    `${range(posts.filter(([k]) => k !== 'evals run'))}${evalsRun ? `; evals run ${s(evalsRun[1])} (then lists runs)` : ''}`,
  )
}
const pg = get('faults.proxyDropsConnectGET')
const pp = get('faults.proxyDropsConnectPOST')
if (pg || pp) row('', 'proxy dropping every CONNECT: GET, POST (exit 1 each)', `${s(pg?.ms)}, ${s(pp?.ms)}`)

// malformed
const mr = get('malformed.responses')
if (mr) {
  row(
    'malformed responses',
    `command runs (${n(mr.answers)} kinds of answer; GET object, GET list, --all rows, --all --json, POST; in-process on a fake clock, a sample by the built CLI)`,
    n(mr.cases),
  )
  row('', 'crashes (stack trace, "unexpected failure") / hangs', `${n(mr.crashes)} / ${n(mr.hangs)}`)
  row('', 'slowest (a 502 is retried 4 times; its waits counted, not waited)', s(mr.slowestMs))
}

// bad input
const bi = get('bad-input.table')
if (bi) {
  row('bad input', 'cases tried', n(bi.cases))
  row('', 'documented exit code / one error line, stdout empty', `${n(bi.documentedExit)} / ${n(bi.oneErrorLine)}`)
  row('', 'requests sent (dev server log + trap proxy)', n(bi.requestsSent))
}

// secrets
const vb = get('secrets.verbose')
if (vb) {
  row('secrets', 'command runs checked for the token (--verbose, --json, errors, AMCTL_DEBUG=1, stored login)', n(vb.commandRuns))
  row('', 'token leaks (outside `auth token` and the new token of `tokens create`)', n(vb.leaks))
}
const fm = get('secrets.fileModes')
if (fm) row('', 'config dir / credentials.json / config.json modes', `${fm.dir} / ${fm.credentials} / ${fm.config}`)
if (get('secrets.redirectsRefused') !== undefined) {
  row(
    '',
    'cross-origin redirects refused / requests that reached the other origin',
    `${n(get('secrets.redirectsRefused'))} / ${n(get('secrets.requestsAtOtherOrigin'))}`,
  )
}
const cl = get('secrets.concurrentLogins')
if (cl) {
  row('', 'concurrent logins: rounds, processes', `${n(cl.rounds)}, ${n(cl.processes)}`)
  row(
    '',
    'unreadable files / lost profiles / lost credentials / leftover lock or temp files',
    `${n(cl.unreadableFiles)} / ${n(cl.lostProfiles)} / ${n(cl.lostCredentials)} / ${n(cl.leftoverFiles)}`,
  )
}

// signals
const sig = Object.entries(f.signals ?? {})
if (sig.length)
  row(
    'Ctrl-C (SIGINT)',
    'exit codes; time to exit',
    `${sig.map(([, v]) => v.exitCode).join(', ')}; ${sig.map(([, v]) => `${v.msFromSigintToExit} ms`).join(', ')}`,
  )

// a keychain whose session bus accepts and never answers
const kc = get('keychain')
if (kc) {
  if (kc.login)
    row(
      'keychain: a session bus that never answers',
      'auth login --with-token: exit, time (the token in the file)',
      `${n(kc.login.exitCode)}, ${s(kc.login.ms)}`,
    )
  if (kc.runsList)
    row(
      kc.login ? '' : 'keychain: a session bus that never answers',
      'runs list: exit, time (the token from the file)',
      `${n(kc.runsList.exitCode)}, ${s(kc.runsList.ms)}`,
    )
  if (kc.ctrlC) row('', 'Ctrl-C while the call waits: exit (its connection to the bus closed)', n(kc.ctrlC.exitCode))
  // a bus that stalls partway through the exchange the module makes on the main thread
  const stalls = ['auth', 'unix-fd', 'hello'].map((stage) => [stage, kc[`stalls-${stage}`]]).filter(([, v]) => v)
  if (stalls.length)
    row(
      'keychain: a session bus that stalls partway',
      `runs list, the bus stalling after ${stalls.map(([stage]) => (stage === 'unix-fd' ? 'NEGOTIATE_UNIX_FD' : stage === 'auth' ? 'AUTH' : 'Hello')).join(' / ')}: exit, time`,
      stalls.map(([, v]) => `${n(v.exitCode)}, ${s(v.ms)}`).join(' / '),
    )
  const answers = ['garbage-to-AUTH', 'garbage-after-AUTH', 'no-Secret-Service'].map((name) => kc[`answers-${name}`]).filter(Boolean)
  if (answers.length)
    row(
      '',
      'garbage to AUTH / garbage after AUTH / no Secret Service: exit, time',
      answers.map((v) => `${n(v.exitCode)}, ${s(v.ms)}`).join(' / '),
    )
  if (kc.unixexec)
    row('', 'an address amctl cannot ask first (`unixexec:`): exit, time', `${n(kc.unixexec.exitCode)}, ${s(kc.unixexec.ms)}`)
  const ctrlC = ['auth', 'hello'].map((stage) => kc[`ctrlC-${stage}`]).filter(Boolean)
  if (ctrlC.length) row('', 'Ctrl-C while the bus stalls after AUTH / after Hello: exit', ctrlC.map((v) => n(v.exitCode)).join(' / '))
}

if (rows.length === 0) {
  process.stdout.write(`No figures in ${DIR}: run \`npm run test:faults\` (or \`npx vitest run test/faults\`) first.\n`)
} else {
  process.stdout.write(`${['| area | figure | value |', '|---|---|---|', ...rows].join('\n')}\n`)
}
process.exitCode = exitCode
