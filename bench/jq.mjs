#!/usr/bin/env node
// What --jq adds to a command's start, as a ratio to the same command with --json (its floor),
// measured in the same run on the same machine; with --baseline, the same figures for another
// build of amctl (e.g. a checkout of main), to show what a change of the jq engine costs.
//
//   node bench/jq.mjs [--reps N] [--baseline DIR]
//
// DIR is a checkout with dist/ built (its bin/run.cjs is run). Every process runs in the clean
// environment of bench/harness.mjs, logged in to one local control plane (this checkout's).
// Figures: `config list` (no request) and `runs list --limit 1` (one request), each with
// `--jq EXPR` against `--json`. Each repetition runs every variant once, in a rotating order, so
// a machine whose load changes moves them all alike; the table gives medians of wall time and of
// CPU time (user + system, every thread: /usr/bin/time), the ratio of the medians, and the
// spread of the ratio (its lowest and highest quartile, repetition by repetition). On a busy
// machine CPU time is the steadier figure; on an idle one a worker thread's start runs beside
// the main thread and costs less wall time than CPU time.

import {spawnSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {devServer, median, node, world} from './harness.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const reps = Number(option('--reps', 20))
const baseline = option('--baseline')
const builds = [['this checkout', join(root, 'bin', 'run.cjs')]]
if (baseline) builds.push([`baseline ${baseline}`, join(resolve(baseline), 'bin', 'run.cjs')])
for (const [, bin] of builds) {
  if (!existsSync(join(dirname(bin), '..', 'dist', 'amctl.cjs'))) throw new Error(`${bin}: dist/ is not built`)
}
if (!existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is missing (Debian package "time")')

const FIGURES = [
  ['config list', ['config', 'list'], 'keys'],
  ['runs list --limit 1', ['runs', 'list', '--limit', '1'], '.items[0].id'],
]

const w = world()
/** One run: wall ms and CPU ms (user + system). */
function once(argv) {
  const started = process.hrtime.bigint()
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', ...argv], {env: w.clean, stdio: ['ignore', 'ignore', 'pipe']})
  const wall = Number(process.hrtime.bigint() - started) / 1e6
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(-300)}`)
  const [user, system] = r.stderr.toString().trim().split('\n').at(-1).split(' ').map(Number)
  return {wall, cpu: (user + system) * 1000}
}

const server = await devServer(builds[0][1], w.clean, {})
try {
  const variants = FIGURES.flatMap(([figure, argv, expression]) =>
    builds.flatMap(([build, bin]) => [
      {figure, build, kind: 'jq', argv: [node, bin, ...argv, '--jq', expression]},
      {figure, build, kind: 'json', argv: [node, bin, ...argv, '--json']},
    ]),
  )
  for (const v of variants) once(v.argv) // warm-up: code caches written
  const runs = variants.map(() => [])
  for (let rep = 0; rep < reps; rep++) {
    for (let k = 0; k < variants.length; k++) {
      const i = (k + rep) % variants.length
      runs[i].push(once(variants[i].argv))
    }
  }
  console.log('| command | build | --jq wall / CPU | floor: --json wall / CPU | ratio wall (spread) | ratio CPU (spread) |')
  console.log('|---|---|---|---|---|---|')
  for (let i = 0; i < variants.length; i += 2) {
    const [jq, json] = [runs[i], runs[i + 1]]
    const ratio = (key) => {
      const rs = jq.map((x, r) => x[key] / json[r][key]).sort((a, b) => a - b)
      const q = (p) => rs[Math.min(rs.length - 1, Math.floor(p * rs.length))]
      return `${(median(jq.map((x) => x[key])) / median(json.map((x) => x[key]))).toFixed(2)} (${q(0.25).toFixed(2)}–${q(0.75).toFixed(2)})`
    }
    const ms = (xs, key) => `${median(xs.map((x) => x[key])).toFixed(0)}`
    const {figure, build} = variants[i]
    console.log(
      `| ${figure} | ${build} | ${ms(jq, 'wall')} / ${ms(jq, 'cpu')} ms | ${ms(json, 'wall')} / ${ms(json, 'cpu')} ms | ${ratio('wall')} | ${ratio('cpu')} |`,
    )
  }
} finally {
  await server.stop()
  w.remove()
}
