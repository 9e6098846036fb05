#!/usr/bin/env node
// Where the unit suite's time goes (docs/performance.md, "The unit suite's time", has the figures).
//
//   node bench/unit-suite.mjs [--runs N] [--files N] [--project NAME] [--check] [-- VITEST ARGS…]
//
// Runs `vitest run --project unit` (or NAME) N times (default 3) in a clean environment, as
// `env -i PATH=$PATH HOME=$HOME` would give it (no NODE_OPTIONS, no NODE_EXTRA_CA_CERTS, which
// alone adds ~30 ms to every Node process), and prints one row per run: the load average before
// it, the `node -e 0` floor measured just before it, wall time and its ratio to that floor, CPU
// time (user + system, of vitest and its workers, from /usr/bin/time: Debian package "time"),
// and vitest's phases summed over the files (transform, setup, import, tests). Then the files
// that took longest in the last run, their import (collect) and test time apart. The machine is
// usually shared: compare CPU time and phase sums as well as wall time, and more than one run.
//
// The unit suite's target (issue 31): its wall time at most 460 times the floor on a 2-core
// machine. --check exits 1 when the median ratio is above it.
//
// vitest also loads this file as a reporter (--reporter=bench/unit-suite.mjs): it writes each
// file's phases to $UNIT_SUITE_OUT.

import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {cpus, loadavg, tmpdir} from 'node:os'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {stripVTControlCharacters} from 'node:util'

const self = fileURLToPath(import.meta.url)
const root = join(dirname(self), '..')

/** The reporter: each test file's phases, as vitest's diagnostic() gives them, in milliseconds. */
export default class UnitSuitePhases {
  onTestRunEnd(modules) {
    const files = modules.map((m) => {
      const d = m.diagnostic()
      return {file: relative(root, m.moduleId), setup: d.setupDuration, collect: d.collectDuration, tests: d.duration}
    })
    writeFileSync(process.env.UNIT_SUITE_OUT, JSON.stringify(files))
  }
}

/** vitest's "1.23s" or "456ms" in seconds */
const seconds = (match) => (match === null ? Number.NaN : Number(match[1]) / (match[2] === 'ms' ? 1000 : 1))
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const cleanEnv = {PATH: process.env.PATH, HOME: process.env.HOME}
/** the unit suite's wall time, at most this many times `node -e 0` (issue 31 §2) */
const TARGET_RATIO = 460

function floor() {
  const times = []
  for (let i = 0; i < 11; i++) {
    const start = process.hrtime.bigint()
    spawnSync(process.execPath, ['-e', '0'], {env: cleanEnv})
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  return median(times)
}

function run(project, vitestArgs, out) {
  const load = loadavg()[0]
  const nodeFloor = floor()
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', 'TIME %e %U %S', process.execPath, 'node_modules/vitest/vitest.mjs', 'run', '--project', project, ...vitestArgs],
    {cwd: root, env: {...cleanEnv, UNIT_SUITE_OUT: out}, encoding: 'utf8'},
  )
  const output = stripVTControlCharacters(result.stdout + result.stderr)
  const time = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(output)
  const summary = /Test Files\s+(.*)/.exec(output)?.[1].trim()
  if (time === null || result.status !== 0) {
    process.stderr.write(output)
    throw new Error(`the ${project} suite failed (exit ${result.status})`)
  }
  const files = JSON.parse(readFileSync(out, 'utf8'))
  const sum = (key) => files.reduce((total, f) => total + f[key], 0) / 1000
  return {
    load,
    nodeFloor,
    wall: Number(time[1]),
    ratio: (Number(time[1]) * 1000) / nodeFloor,
    cpu: Number(time[2]) + Number(time[3]),
    setup: sum('setup'),
    import: sum('collect'),
    tests: sum('tests'),
    transform: seconds(/transform ([\d.]+)(m?s)/.exec(output)),
    summary,
    files,
  }
}

if (process.argv[1] === self) {
  const args = process.argv.slice(2)
  const dash = args.indexOf('--')
  const own = dash === -1 ? args : args.slice(0, dash)
  const vitestArgs = dash === -1 ? [] : args.slice(dash + 1)
  const option = (name, fallback) => (own.includes(name) ? Number(own[own.indexOf(name) + 1]) : fallback)
  const runs = option('--runs', 3)
  const shown = option('--files', 12)
  const project = own.includes('--project') ? own[own.indexOf('--project') + 1] : 'unit'
  const dir = mkdtempSync(join(tmpdir(), 'amctl-unit-suite-'))
  const reporter = ['--reporter=default', `--reporter=${self}`]
  try {
    console.log(`${cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}`)
    console.log(`vitest run --project ${project}`)
    console.log('| run | load | node -e 0 | wall | wall ÷ floor | CPU | transform | setup | import | tests | files |')
    console.log('|---|---|---|---|---|---|---|---|---|---|---|')
    const rows = []
    for (let i = 1; i <= runs; i++) {
      const r = run(project, [...reporter, ...vitestArgs], join(dir, `run-${i}.json`))
      rows.push(r)
      const s = (v) => `${v.toFixed(1)} s`
      console.log(
        `| ${i} | ${r.load.toFixed(2)} | ${r.nodeFloor.toFixed(0)} ms | ${s(r.wall)} | ${r.ratio.toFixed(0)}× | ${s(r.cpu)} | ${s(r.transform)} | ${s(r.setup)} | ${s(r.import)} | ${s(r.tests)} | ${r.summary} |`,
      )
    }
    const m = (key) => `${median(rows.map((r) => r[key])).toFixed(1)} s`
    const ratio = median(rows.map((r) => r.ratio))
    console.log(
      `| median | | ${median(rows.map((r) => r.nodeFloor)).toFixed(0)} ms | ${m('wall')} | ${ratio.toFixed(0)}× | ${m('cpu')} | ${m('transform')} | ${m('setup')} | ${m('import')} | ${m('tests')} | |`,
    )
    if (project === 'unit') {
      console.log(`\ntarget: wall ≤ ${TARGET_RATIO}× node -e 0; median ${ratio.toFixed(0)}×: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`)
      if (own.includes('--check') && ratio > TARGET_RATIO) process.exitCode = 1
    }
    console.log(`\nThe longest files of the last run (import = collect: the file and what it imports, then its describe blocks):`)
    console.log('| file | import | tests |')
    console.log('|---|---|---|')
    const last = rows.at(-1).files.sort((a, b) => b.collect + b.tests - (a.collect + a.tests))
    for (const f of last.slice(0, shown)) console.log(`| ${f.file} | ${f.collect.toFixed(0)} ms | ${f.tests.toFixed(0)} ms |`)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}
