#!/usr/bin/env node
// `npm run bench`: amctl's start-up and pagination costs as ratios to floors measured in the
// same run, on the same machine, against the same local control plane.
//
//   node bench/run.mjs [--quick] [--out DIR]
//
// Each figure alternates the amctl command and its floor (A B A B …) after a warm-up, and
// compares medians. Peak RSS comes from /usr/bin/time -f %M. Results go to stdout as a
// markdown table and to DIR/results.{json,md} (default .bench/).

import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, openSync, writeFileSync} from 'node:fs'
import {cpus, release, tmpdir, totalmem} from 'node:os'
import {dirname, join} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const quick = process.argv.includes('--quick')
const outDir = process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : join(root, '.bench')
const REPS = quick ? 8 : 30
const WARMUP = 3
const ALL_REPS = quick ? 2 : 5
const BIG = 100_000
const SMALL = 10_000
const PAGE = 200
const TIME = '/usr/bin/time'
const node = process.execPath
const bin = join(root, 'bin', 'run.js')
const devNull = openSync('/dev/null', 'w')

if (!existsSync(join(root, 'dist', 'amctl.cjs'))) {
  console.error('dist/ is missing: run `npm run build` first')
  process.exit(1)
}
const hasTime = existsSync(TIME)
if (!hasTime) console.error(`note: ${TIME} not found (Debian package "time"); peak RSS figures are skipped`)

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Runs a command once with stdout to /dev/null; returns wall ms (and peak RSS in MB with rss). */
function once(argv, env, {rss = false} = {}) {
  const [cmd, args] = rss && hasTime ? [TIME, ['-f', '%M', ...argv]] : [argv[0], argv.slice(1)]
  const started = process.hrtime.bigint()
  const r = spawnSync(cmd, args, {env, stdio: ['ignore', devNull, 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024})
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr.slice(-500)}`)
  const kb = rss && hasTime ? Number(r.stderr.trim().split('\n').at(-1)) : Number.NaN
  return {ms, mb: kb / 1024}
}

/** Alternates A and B, `reps` times each after a warm-up; medians of wall time and RSS. */
function compare(a, b, env, {reps = REPS, warmup = WARMUP, rss = false} = {}) {
  for (let i = 0; i < warmup; i++) {
    once(a, env)
    once(b, env)
  }
  const A = []
  const B = []
  for (let i = 0; i < reps; i++) {
    A.push(once(a, env, {rss}))
    B.push(once(b, env, {rss}))
  }
  return {
    a: median(A.map((x) => x.ms)),
    b: median(B.map((x) => x.ms)),
    aRss: median(A.map((x) => x.mb)),
    bRss: median(B.map((x) => x.mb)),
  }
}

// --- the local control plane, in its own process, with 10,000 runs in acme and 100,000 in globex
const work = mkdtempSync(join(tmpdir(), 'amctl-bench-'))
const server = spawn(node, [bin, 'dev', 'server', '--port', '0', '--json'], {
  env: {...process.env, AMCTL_CONFIG_DIR: join(work, 'server')},
  stdio: ['ignore', 'pipe', 'ignore'],
})
const {baseUrl} = JSON.parse(await new Promise((resolve) => createInterface({input: server.stdout}).once('line', resolve)))
const hook = async (method, path, body) => {
  const res = await fetch(baseUrl + path, {method, headers: {'content-type': 'application/json'}, body: body && JSON.stringify(body)})
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`)
  return res.json()
}
const counts = {acme: (await hook('GET', '/_dev/orgs/acme')).runCount, globex: (await hook('GET', '/_dev/orgs/globex')).runCount}
await hook('POST', '/_dev/orgs/acme/runs', {count: SMALL - counts.acme})
await hook('POST', '/_dev/orgs/globex/runs', {count: BIG - counts.globex})
const {token} = await hook('POST', '/_dev/tokens', {email: 'ada@example.com'})

// amctl as a CI step runs it: token and server from the environment, org as a flag
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  AMCTL_TOKEN: token,
  AMCTL_BASE_URL: baseUrl,
  AMCTL_CONFIG_DIR: join(work, 'client'),
  AMCTL_KEYCHAIN: 'off',
}
const runsUrl = (org) => `${baseUrl}/api/v1/orgs/${org}/runs`
const results = []
const row = (figure, r, target, extra = {}) => {
  const ratio = r.a / r.b
  results.push({figure, amctlMs: r.a, floorMs: r.b, ratio, target, pass: ratio <= target, ...extra})
  console.error(`  ${figure}: ${r.a.toFixed(1)} ms vs ${r.b.toFixed(1)} ms = ${ratio.toFixed(2)}× (target ≤ ${target}×)`)
}

try {
  console.error(`bench: ${quick ? 'quick' : 'full'} run, ${REPS} alternating repetitions per start-up figure`)
  row('`amctl --version` vs `node -e 0`', compare([node, bin, '--version'], [node, '-e', '0'], env), 2.0)
  row('`amctl --help` vs `node -e 0`', compare([node, bin, '--help'], [node, '-e', '0'], env), 2.5)
  row(
    '`amctl runs list --json --limit 50` vs one `fetch`',
    compare(
      [node, bin, 'runs', 'list', '--json', '--limit', '50', '--org', 'acme'],
      [node, join(root, 'bench', 'floor-fetch.mjs'), `${runsUrl('acme')}?limit=50`],
      env,
    ),
    1.8,
  )

  console.error(`  paging ${BIG.toLocaleString('en-US')} runs, ${ALL_REPS} alternating repetitions…`)
  const all = (org) => [node, bin, 'runs', 'list', '--all', '--json', '--limit', String(PAGE), '--org', org]
  const big = compare(all('globex'), [node, join(root, 'bench', 'floor-paginate.mjs'), runsUrl('globex'), String(PAGE)], env, {
    reps: ALL_REPS,
    warmup: 1,
    rss: true,
  })
  row(`\`amctl runs list --all --json\` over ${BIG.toLocaleString('en-US')} runs vs an undici cursor loop`, big, 1.25, {
    amctlRssMb: big.aRss,
    floorRssMb: big.bRss,
  })
  const small = compare(all('acme'), all('acme'), env, {reps: ALL_REPS, warmup: 1, rss: true})
  const smallRss = median([small.aRss, small.bRss])
  results.push({
    figure: `peak RSS of \`--all\` over ${BIG.toLocaleString('en-US')} runs`,
    value: big.aRss,
    unit: 'MB',
    target: 120,
    pass: !(big.aRss > 120),
  })
  const growth = (big.aRss - smallRss) / smallRss
  results.push({
    figure: `RSS at ${BIG.toLocaleString('en-US')} runs vs at ${SMALL.toLocaleString('en-US')}`,
    value: growth * 100,
    unit: '%',
    detail: `${big.aRss.toFixed(1)} MB vs ${smallRss.toFixed(1)} MB`,
    target: 15,
    pass: !(growth * 100 > 15),
  })

  console.error('  loading the dev server: GET a page of 200 runs, 16 connections, 5 s…')
  const load = spawnSync(node, [join(root, 'bench', 'load.mjs'), `${runsUrl('globex')}?limit=200`, quick ? '2' : '5', '16'], {
    env,
    encoding: 'utf8',
  })
  const l = JSON.parse(load.stdout)
  results.push({
    figure: 'dev server: `GET …/runs?limit=200` under load',
    value: l.rps,
    unit: 'req/s',
    detail: `p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, ${l.errors} errors`,
    target: null,
    pass: l.errors === 0,
  })
} finally {
  server.kill('SIGINT')
}

// --- report
const machine = `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.version}`
const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}${quick ? ' (quick run)' : ''}.`,
  '',
  '| figure | amctl | floor | ratio | target | |',
  '|---|---|---|---|---|---|',
]
for (const r of results) {
  if (r.ratio !== undefined) {
    const rss = r.amctlRssMb ? ` (peak RSS ${r.amctlRssMb.toFixed(0)} MB vs ${r.floorRssMb.toFixed(0)} MB)` : ''
    lines.push(
      `| ${r.figure} | ${r.amctlMs.toFixed(1)} ms${rss} | ${r.floorMs.toFixed(1)} ms | ${r.ratio.toFixed(2)}× | ≤ ${r.target}× | ${r.pass ? '✓' : '✗'} |`,
    )
  } else {
    const value = Number.isNaN(r.value) ? 'n/a' : `${r.value.toFixed(r.unit === 'req/s' ? 0 : 1)} ${r.unit}`
    lines.push(
      `| ${r.figure} | ${value}${r.detail ? ` (${r.detail})` : ''} | | | ${r.target === null ? 'none yet' : `≤ ${r.target} ${r.unit}`} | ${r.pass ? '✓' : '✗'} |`,
    )
  }
}
const md = `${lines.join('\n')}\n`
mkdirSync(outDir, {recursive: true})
writeFileSync(join(outDir, 'results.md'), md)
writeFileSync(join(outDir, 'results.json'), `${JSON.stringify({machine, quick, results}, null, 2)}\n`)
process.stdout.write(`\n${md}`)
