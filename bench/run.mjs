#!/usr/bin/env node
// `npm run bench`: amctl's start-up and paging costs as ratios to floors measured in the same
// run, on the same machine, against the same local control plane (issues 13 and 19). Targets
// depend on Node's major version (TARGETS below): Node 20 starts slower than 22 and 24.
//
//   node bench/run.mjs [--quick] [--check] [--out DIR]
//
// --quick  fewer repetitions (CI); --check  exit 1 when a figure is grossly off, i.e. worse than
// twice its target (a slow or busy machine moves ratios, not by 2×); --out  where results go
// (default .bench/): results.md (the table) and results.json (every number).
//
// Every process runs in a clean environment, as `env -i PATH=$PATH HOME=$tmp` would give it:
// none of the caller's variables (NODE_OPTIONS, NODE_EXTRA_CA_CERTS, AMCTL_*), a HOME of the
// bench's own where amctl is logged in to the dev server (token in credentials.json, base-url and
// org in config.json) and keeps its code cache. Each figure alternates amctl and its floor
// (A B A B …) after a warm-up and compares medians of wall time (the spread is the lowest and
// highest quartile of the ratios, pair by pair); stdout is a pipe; peak RSS comes from
// /usr/bin/time -f %M (Debian package "time"). The terminal row runs both amctl and its floor on
// a pseudo-terminal (`script`, util-linux), which adds the same to both.

import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {cpus, loadavg, release, totalmem} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {devServer, hasTime, median, node, world} from './harness.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const check = args.includes('--check')
const outDir = args.includes('--out') ? args[args.indexOf('--out') + 1] : join(root, '.bench')
const REPS = quick ? 8 : 30
const WARMUP = quick ? 2 : 3
const ALL_REPS = quick ? 2 : 5
const BIG = 100_000
const SMALL = 10_000
const WATCHED = 20
const bin = join(root, 'bin', 'run.cjs')
const major = Number(process.versions.node.split('.')[0])
/** The targets of issue 19, by Node version (ratios to the floor, except RSS). */
const TARGETS = {
  version: 1.3,
  help: 1.2,
  terminalHelp: 1.3,
  local: major >= 22 ? 1.6 : 1.8,
  request: major >= 22 ? 1.5 : 1.6,
  paging: 1.1,
  stats: 1.1,
}

if (!existsSync(join(root, 'dist', 'amctl.cjs'))) {
  console.error('dist/ is missing: run `npm run build` first')
  process.exit(1)
}
if (!hasTime) console.error('note: /usr/bin/time not found (Debian package "time"): peak RSS figures are skipped')
const hasScript = spawnSync('script', ['--version'], {encoding: 'utf8'}).status === 0
if (!hasScript) console.error('note: `script` not found (util-linux): the terminal figure is skipped')
const gh = spawnSync('gh', ['--version'], {encoding: 'utf8'})
const ghVersion = gh.status === 0 ? gh.stdout.split('\n')[0] : undefined

const w = world()
const {once} = w
const compare = (a, b, opts = {}) => w.compare(a, b, {reps: REPS, warmup: WARMUP, ...opts})

const results = []
const say = (line) => console.error(`  ${line}`)
/** A ratio figure: amctl's median over its floor's, against a target ratio. */
function ratioRow(figure, floor, r, target, extra = {}) {
  const ratio = r.a / r.b
  const spread = r.spread
  results.push({
    figure,
    floor,
    amctlMs: r.a,
    floorMs: r.b,
    ratio,
    spread,
    target,
    pass: ratio <= target,
    gross: ratio > 2 * target,
    ...extra,
  })
  say(
    `${figure}: ${r.a.toFixed(1)} ms vs ${r.b.toFixed(1)} ms = ${ratio.toFixed(2)}× (${spread[0].toFixed(2)}–${spread[1].toFixed(2)}; target ≤ ${target}×)`,
  )
}
/** A value figure (MB, %, requests) against an upper bound. */
function valueRow(figure, value, unit, target, detail) {
  const pass = Number.isNaN(value) ? true : value <= target
  results.push({figure, value, unit, target, detail, pass, gross: !Number.isNaN(value) && value > 2 * target})
  say(`${figure}: ${Number.isNaN(value) ? 'n/a' : value.toFixed(1)} ${unit}${detail ? ` (${detail})` : ''} (target ≤ ${target} ${unit})`)
}

// --- the local control plane, in its own process, with SMALL runs in acme, BIG in globex
const load = loadavg()
const server = await devServer(bin, w.clean, {acme: SMALL, globex: BIG})
const {baseUrl, token, call, hook} = server
try {
  const amctl = (...argv) => [node, bin, ...argv]
  const nodeE0 = [node, '-e', '0']
  const api = (path) => [node, join(root, 'bench', 'floor-http.cjs'), `${baseUrl}/api/v1${path}`, token]
  /** argv on a pseudo-terminal (a shell command line for `script`) */
  const onTerminal = (argv) => ['script', '-qec', argv.map((a) => `'${a}'`).join(' '), '/dev/null']
  console.error(`bench: ${quick ? 'quick' : 'full'} run, ${REPS} alternating repetitions per start-up figure, Node ${process.version}`)

  // --- start-up
  ratioRow('`amctl --version`', '`node -e 0`', compare(amctl('--version'), nodeE0), TARGETS.version)
  ratioRow('`amctl --help`', '`node -e 0`', compare(amctl('--help'), nodeE0), TARGETS.help)
  ratioRow('`amctl runs list --help`', '`node -e 0`', compare(amctl('runs', 'list', '--help'), nodeE0), TARGETS.help)
  if (hasScript) {
    // (the first run at this width draws it and keeps it: the warm-up's)
    ratioRow(
      '`amctl --help` on a terminal (after the first run at its width)',
      '`node -e 0` on a terminal',
      compare(onTerminal(amctl('--help')), onTerminal(nodeE0), {env: {TERM: 'xterm-256color'}}),
      TARGETS.terminalHelp,
    )
  }
  if (ghVersion) {
    const r = compare(['gh', 'help'], nodeE0)
    results.push({
      figure: '`gh help` (for reference)',
      floor: '`node -e 0`',
      amctlMs: r.a,
      floorMs: r.b,
      ratio: r.a / r.b,
      target: null,
      pass: true,
    })
    say(`gh help: ${r.a.toFixed(1)} ms vs ${r.b.toFixed(1)} ms = ${(r.a / r.b).toFixed(2)}× (${ghVersion})`)
  }
  ratioRow('`amctl config list`', '`node -e 0`', compare(amctl('config', 'list'), nodeE0), TARGETS.local)
  ratioRow('`amctl auth token` (no request)', '`node -e 0`', compare(amctl('auth', 'token'), nodeE0), TARGETS.local)

  // --- one request
  const floorHttp = 'the same request with `node:http`'
  ratioRow(
    '`amctl runs list --json --limit 50`',
    floorHttp,
    compare(amctl('runs', 'list', '--json', '--limit', '50'), api('/orgs/acme/runs?limit=50')),
    TARGETS.request,
  )
  ratioRow(
    '`amctl orgs summary --json`',
    floorHttp,
    compare(amctl('orgs', 'summary', '--json'), api('/orgs/acme/summary')),
    TARGETS.request,
  )

  // --- paging: the same requests as amctl (the server's page size, then its cursors), by undici.
  // The floor runs with --liftoff-only (bin/build/undici.cjs has it set when amctl loads undici, for a
  // proxy), or it would pay V8's background optimization of undici's WebAssembly parser at exit,
  // which would flatter amctl (node:http here).
  say(`paging ${BIG.toLocaleString('en-US')} runs, ${ALL_REPS} alternating repetitions…`)
  const all = (org) => amctl('runs', 'list', '--all', '--json', '--org', org)
  const pager = (org) => [node, '--liftoff-only', join(root, 'bench', 'floor-paginate.mjs'), `${baseUrl}/api/v1/orgs/${org}/runs`, token]
  const big = compare(all('globex'), pager('globex'), {reps: ALL_REPS, warmup: 1, rss: true})
  ratioRow(
    `\`amctl runs list --all --json\` over ${BIG.toLocaleString('en-US')} runs`,
    'a minimal undici cursor loop',
    big,
    TARGETS.paging,
    {
      amctlRssMb: big.aRss,
      floorRssMb: big.bRss,
    },
  )
  valueRow(`peak RSS of \`runs list --all --json\` over ${BIG.toLocaleString('en-US')} runs`, big.aRss, 'MB', 80)
  const small = median(Array.from({length: ALL_REPS}, () => once(all('acme'), {rss: true}).mb))
  valueRow(
    `RSS growth from ${SMALL.toLocaleString('en-US')} to ${BIG.toLocaleString('en-US')} runs`,
    ((big.aRss - small) / small) * 100,
    '%',
    10,
    `${small.toFixed(1)} MB → ${big.aRss.toFixed(1)} MB`,
  )

  // --- evals stats over the BIG runs of globex (its one eval set, every run within the 30-day
  // window, so the whole list is read): the same requests as amctl (200 to a page), the loop
  // writing every run where amctl only counts them
  say(`evals stats over ${BIG.toLocaleString('en-US')} runs, ${ALL_REPS} alternating repetitions…`)
  const stats = compare(
    amctl('evals', 'stats', 'es_globex_onboarding', '--org', 'globex'),
    [node, '--liftoff-only', join(root, 'bench', 'floor-paginate.mjs'), `${baseUrl}/api/v1/orgs/globex/runs?limit=200`, token],
    {reps: ALL_REPS, warmup: 1, rss: true},
  )
  ratioRow(
    `\`amctl evals stats\` over ${BIG.toLocaleString('en-US')} runs`,
    'the undici cursor loop, 200 to a page',
    stats,
    TARGETS.stats,
    {amctlRssMb: stats.aRss, floorRssMb: stats.bRss},
  )
  valueRow(`peak RSS of \`evals stats\` over ${BIG.toLocaleString('en-US')} runs`, stats.aRss, 'MB', 80)

  // --- runs watch: the WATCHED newest runs, all running (so every poll looks for all of them),
  // polled every second until --wait-timeout; the dev server's request log says how many
  // requests each poll made
  const page = await call('GET', `/api/v1/orgs/acme/runs?limit=${WATCHED}`, {token})
  for (const run of page.items) await hook('PATCH', `/_dev/runs/${run.id}`, {status: 'running', score: null})
  const before = (await hook('GET', '/_dev/requests')).items.at(-1)?.seq ?? 0
  once(amctl('runs', 'watch', ...page.items.map((r) => r.id), '--interval', '1', '--wait-timeout', quick ? '2' : '4'), {
    okStatus: [0, 10, 11],
  })
  const polls = []
  for (const entry of (await hook('GET', '/_dev/requests')).items) {
    if (entry.seq <= before || !entry.path.startsWith('/api/v1/orgs/acme/runs')) continue
    if (!entry.path.includes('cursor=')) polls.push(0)
    polls[polls.length - 1]++
  }
  valueRow(
    `requests per poll of \`amctl runs watch\` (${WATCHED} runs on the first page)`,
    Math.max(...polls),
    'requests',
    1,
    `${polls.length} polls, ${polls.reduce((a, b) => a + b, 0)} requests`,
  )

  // --- the dev server under load (no target: the number is there so a regression shows)
  say('loading the dev server: GET a page of 200 runs, 16 connections…')
  const loadRun = spawnSync(
    node,
    [join(root, 'bench', 'load.mjs'), `${baseUrl}/api/v1/orgs/globex/runs?limit=200`, quick ? '2' : '5', '16'],
    {
      env: {...w.clean, AMCTL_TOKEN: token},
      encoding: 'utf8',
    },
  )
  const l = JSON.parse(loadRun.stdout)
  results.push({
    figure: 'dev server: `GET …/runs?limit=200`, 16 connections',
    value: l.rps,
    unit: 'req/s',
    detail: `p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, ${l.errors} errors`,
    target: null,
    pass: l.errors === 0,
    gross: l.errors > 0,
  })
} finally {
  await server.stop()
  w.remove()
}

// --- report
const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.version}`
const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}${quick ? ' (quick run)' : ''}; load average ${load[0].toFixed(1)} at the start.`,
  '',
  '| figure | floor | amctl | the floor | ratio (quartiles) | target | |',
  '|---|---|---|---|---|---|---|',
]
for (const r of results) {
  const mark = r.target === null ? '' : r.pass ? '✓' : '✗'
  if (r.ratio !== undefined) {
    const rss = r.amctlRssMb ? ` (peak RSS ${r.amctlRssMb.toFixed(0)} MB)` : ''
    const floorRss = r.floorRssMb ? ` (${r.floorRssMb.toFixed(0)} MB)` : ''
    const target = r.target === null ? '' : `≤ ${r.target}×`
    lines.push(
      `| ${r.figure} | ${r.floor} | ${r.amctlMs.toFixed(1)} ms${rss} | ${r.floorMs.toFixed(1)} ms${floorRss} | ${r.ratio.toFixed(2)}×${r.spread ? ` (${r.spread[0].toFixed(2)}–${r.spread[1].toFixed(2)})` : ''} | ${target} | ${mark} |`,
    )
  } else {
    const value = Number.isNaN(r.value) ? 'n/a' : `${r.value.toFixed(r.unit === 'MB' || r.unit === '%' ? 1 : 0)} ${r.unit}`
    const target = r.target === null ? 'none' : `≤ ${r.target} ${r.unit}`
    lines.push(`| ${r.figure} | | ${value}${r.detail ? ` (${r.detail})` : ''} | | | ${target} | ${mark} |`)
  }
}
if (process.env.NODE_EXTRA_CA_CERTS) {
  lines.push('', 'NODE_EXTRA_CA_CERTS is set in this shell: every Node process pays for it, floors included, so the bench runs without it.')
}
const md = `${lines.join('\n')}\n`
mkdirSync(outDir, {recursive: true})
writeFileSync(join(outDir, 'results.md'), md)
writeFileSync(join(outDir, 'results.json'), `${JSON.stringify({machine, quick, loadAverage: load, results}, null, 2)}\n`)
process.stdout.write(`\n${md}`)

const missed = results.filter((r) => r.target !== null && !r.pass)
if (missed.length > 0) process.stdout.write(`\nNot met: ${missed.map((r) => r.figure).join('; ')} (see docs/performance.md).\n`)
if (check) {
  const gross = results.filter((r) => r.gross)
  if (gross.length > 0) {
    process.stdout.write(`\n--check: worse than twice the target: ${gross.map((r) => r.figure).join('; ')}\n`)
    process.exitCode = 1
  } else process.stdout.write('\n--check: no figure is worse than twice its target\n')
}
