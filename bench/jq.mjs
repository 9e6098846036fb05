#!/usr/bin/env node
// What --jq adds to a command's start, as a ratio to the same command with --json (its floor),
// measured in the same run on the same machine; with --baseline, the same figures for another
// build of amctl (e.g. a checkout of main), alternated with this one, to show what a change of the
// jq engine costs.
//
//   node bench/jq.mjs [--reps N] [--baseline DIR]
//
// DIR is a checkout with dist/ built (its bin/run.cjs is run). Every process runs in the clean
// environment of bench/harness.mjs, logged in to one local control plane (this checkout's).
// Figures: `config list` (no request) and `runs list --limit 1` (one request), each with
// `--jq EXPR` against `--json`; medians of wall time, and the spread of the ratio (its lowest
// and highest quartile, pair by pair).

import {existsSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {devServer, node, world} from './harness.mjs'

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

const FIGURES = [
  ['config list', ['config', 'list'], 'keys'],
  ['runs list --limit 1', ['runs', 'list', '--limit', '1'], '.items[0].id'],
]

const w = world()
const server = await devServer(builds[0][1], w.clean, {})
try {
  const rows = []
  for (const [figure, argv, expression] of FIGURES) {
    for (const [name, bin] of builds) {
      const r = w.compare([node, bin, ...argv, '--jq', expression], [node, bin, ...argv, '--json'], {reps, warmup: 3})
      rows.push({figure, build: name, jqMs: r.a, floorMs: r.b, ratio: r.a / r.b, spread: r.spread})
      console.error(`  ${figure} (${name}): --jq ${r.a.toFixed(1)} ms, --json ${r.b.toFixed(1)} ms, ratio ${(r.a / r.b).toFixed(2)}`)
    }
  }
  console.log('| command | build | --jq (median) | floor: --json (median) | ratio | spread of the ratio |')
  console.log('|---|---|---|---|---|---|')
  for (const r of rows) {
    const spread = `${r.spread[0].toFixed(2)}–${r.spread[1].toFixed(2)}`
    console.log(`| ${r.figure} | ${r.build} | ${r.jqMs.toFixed(1)} ms | ${r.floorMs.toFixed(1)} ms | ${r.ratio.toFixed(2)} | ${spread} |`)
  }
} finally {
  await server.stop()
  w.remove()
}
