#!/usr/bin/env node
// bench/judge.mjs: the CPU a wait spends judging its groups (issue 37 item 11, "judge a group in
// microseconds, not milliseconds"), in process, on the gate's own code (src/gate/state.ts).
//
//   node bench/judge.mjs [--groups N] [--reps N] [--polls N] [--seed S] [--only NAME,…] [--out DIR]
//
// Each scenario is --groups groups (default 10,000) of three runs (--repeat 3 with its 2 relaunches
// to come, or three looks of --repeat auto), each group with a baseline of its own (scores of two
// decimals, as the API gives them), judged by WatchState as a wait judges them:
//
// - history:            --baseline history, 20 runs a group, every run succeeded
// - history, failures:  the same, one group in ten with a failed run, baselines that failed 0–3 times
// - file:               --baseline-file, 50 runs a group (FILE.defaultKeep)
// - file, failures:     the same, one group in ten with a failed run
// - auto:               --repeat auto, look 3 of at most 5, --max-drop 0.05, a history of 20
// - history, 1,000:     the first scenario at a tenth of the groups (µs a group must not grow with groups)
//
// Figures, each the median of --reps (default 5) after a warm-up, in µs of CPU (the process's, its
// garbage collector's threads included) a group:
// - floor:  a loop over the same groups that reads each group's runs and baseline and sums their
//           scores: what any judgement must at least touch, measured in the same process;
// - first:  the process's first WatchState.judged() (what the step's first look pays, caches cold);
// - judged: judged() of a fresh WatchState (the module's caches warm, the state's own empty);
// - again:  judged() once more on the same state after a poll that changed nothing;
// - wait:   a whole wait, once: --polls polls (default 10), the first finding every run running, each
//           later one finishing a share of them, with the verdict and every run's verdict after each
//           poll (what the wait and the live view read): its CPU, a group and poll.
// The verdicts of every scenario are tallied, so that figures before and after a change can be
// checked to judge alike.
//
// Each scenario runs in a process of its own, in a clean environment (`env -i PATH=$PATH
// HOME=$tmp`), on src/gate/ bundled by esbuild into OUT (default .bench/). Writes OUT/judge.md and
// OUT/judge.json; about a minute on 2 cores.

import {spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {cpus, loadavg, tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {bundleSource} from './harness.mjs'
import {normalDraws} from './random.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const number = (name, fallback) => {
  const n = Number(option(name, fallback))
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`)
  return n
}
const groups = number('--groups', 10_000)
const reps = number('--reps', 5)
const polls = number('--polls', 10)
const seed = number('--seed', 1)
const outDir = option('--out', join(root, '.bench'))

const SCENARIOS = {
  history: {label: 'history of 20', kind: 'history', runs: 20, failures: false},
  'history-failures': {label: 'history of 20, failures', kind: 'history', runs: 20, failures: true},
  file: {label: 'file of 50', kind: 'file', runs: 50, failures: false},
  'file-failures': {label: 'file of 50, failures', kind: 'file', runs: 50, failures: true},
  auto: {label: '--repeat auto, look 3 of 5', kind: 'history', runs: 20, failures: false, auto: true},
  'history-small': {label: 'history of 20, a tenth of the groups', kind: 'history', runs: 20, failures: false, tenth: true},
}
const only = option('--only', Object.keys(SCENARIOS).join(',')).split(',')
for (const name of only) if (!(name in SCENARIOS)) throw new Error(`--only: no scenario ${name} (${Object.keys(SCENARIOS).join(', ')})`)

const PER_GROUP = 3
const CREATED = '2026-01-01T00:00:00Z'
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const two = (x) => Math.min(1, Math.max(0, Math.round(x * 100) / 100))
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

// ———————————————————————————————————————— one scenario ————————————————————————————————————————

async function scenario(name, bundle) {
  const s = SCENARIOS[name]
  const count = s.tenth ? Math.round(groups / 10) : groups
  const src = await import(pathToFileURL(bundle).href)
  const {WatchState, loadQuantile, loadToleranceFactor} = src
  const quantile = await loadQuantile()
  const tolerance = s.kind === 'file' ? await loadToleranceFactor() : undefined
  const z = normalDraws(seed * 7919 + Object.keys(SCENARIOS).indexOf(name))
  // the step: count groups of PER_GROUP runs, each group a target of its own with a baseline of its own
  const runs = []
  const baselines = []
  for (let g = 0; g < count; g++) {
    const sd = 0.02 + 0.04 * Math.abs(z()) * 0.5
    const scores = Array.from({length: s.runs}, () => two(0.7 + sd * z()))
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length
    const sdOf = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (scores.length - 1))
    const failed = s.failures ? g % 4 : 0
    const outcomes = {failed, cancelled: 0, finished: s.runs + failed, runs: []}
    const common = {
      runs: s.runs,
      mean,
      sd: sdOf,
      runIds: scores.map((_, i) => `b${g}_${i}`),
      scores,
      times: scores.map(() => CREATED),
      outcomes,
    }
    baselines.push(
      s.kind === 'file'
        ? {kind: 'file', path: 'base.json', ...common, savedAt: CREATED, newestRunAt: CREATED, stale: false}
        : {kind: 'history', ...common, window: null, outliers: []},
    )
    const drop = g % 7 === 0 ? 0.08 : 0
    for (let r = 0; r < PER_GROUP; r++) {
      const fails = s.failures && g % 10 === 0 && r === 0
      runs.push({
        id: `r${g}_${r}`,
        status: fails ? 'failed' : 'succeeded',
        score: fails ? null : two(0.7 - drop + sd * z()),
        evalSetId: 'es_bench',
        agent: `agent${g}`,
        model: 'm',
        batchId: null,
        forkedFrom: null,
        createdAt: CREATED,
      })
    }
  }
  const choice =
    s.kind === 'file'
      ? {
          kind: 'file',
          path: 'base.json',
          file: {version: 2, org: 'acme', evalSetId: 'es_bench', savedAt: CREATED, keep: 50, groups: []},
          outcomes: true,
          source: {path: 'base.json', real: 'base.json'},
          maxAgeS: 0,
          update: false,
          confidence: 0.95,
        }
      : {kind: 'history', windowS: 0, runs: s.runs, confidence: 0.95}
  const rules = {
    failFast: false,
    grouped: true,
    asGroups: true,
    baseline: choice,
    quantile,
    ...(tolerance ? {tolerance} : {}),
    ...(s.auto ? {maxDrop: 0.05, launches: {made: 3, max: 5, first: 1, auto: true, decided: new Map()}} : {}),
    // --repeat 3 and the default 2 relaunches: the failure test counts 5 launches
    ...(!s.auto ? {launches: {made: 3, max: 5, first: 3, auto: false, decided: new Map()}} : {}),
  }
  const ids = runs.map((r) => r.id)
  const all = new Map(runs.map((r) => [r.id, r]))
  const ready = () => {
    const state = new WatchState(ids, rules)
    state.apply(all, 0)
    const found = new Map(state.groups().map((group, i) => [group.id, baselines[i]]))
    state.setBaselines(found)
    return state
  }
  // CPU time, not wall time: a machine other work shares (as CI's is) takes the core away, not the work
  const timed = (work) => {
    const started = cpuMs()
    const value = work()
    return {ms: cpuMs() - started, value}
  }
  const perGroup = (ms) => (ms * 1000) / count
  // the floor: every group's runs and baseline read, their scores summed
  const floorOnce = (state) =>
    timed(() => {
      let sum = 0
      for (const group of state.groups()) {
        for (const w of state.runsOf(group)) sum += typeof w.run.score === 'number' ? w.run.score : 0
        for (const score of group.baseline.scores) sum += score
      }
      return sum
    }).ms
  const first = timed(() => ready().judged())
  const tally = {}
  for (const {judgement} of first.value) tally[judgement.verdict] = (tally[judgement.verdict] ?? 0) + 1
  const floor = []
  const judged = []
  const again = []
  for (let i = 0; i < reps + 1; i++) {
    const state = ready()
    floor.push(floorOnce(state))
    judged.push(timed(() => state.judged()).ms)
    again.push(timed(() => state.judged()).ms)
  }
  // a whole wait: the runs found running at the first poll, a share finishing at each later one
  const waitCpu = []
  for (let i = 0; i < 1; i++) {
    const state = new WatchState(ids, rules)
    const running = new Map(runs.map((r) => [r.id, {...r, status: 'running', score: null}]))
    const before = cpuMs()
    state.apply(running, 0)
    state.setBaselines(new Map(state.groups().map((group, g) => [group.id, baselines[g]])))
    let verdict = state.verdict()
    for (let p = 1; p < polls && verdict === undefined; p++) {
      const finishing = new Map()
      for (let r = 0; r < runs.length; r++) if (r % (polls - 1) === p - 1) finishing.set(runs[r].id, runs[r])
      state.apply(finishing, p * 1000)
      verdict = state.verdict()
      for (const w of state.entries()) state.runVerdict(w)
    }
    waitCpu.push(cpuMs() - before)
    if (verdict === undefined) throw new Error(`${name}: the wait ended without a verdict`)
  }
  const drop = (xs) => xs.slice(1)
  return {
    name,
    label: s.label,
    groups: count,
    floor: perGroup(median(drop(floor))),
    first: perGroup(first.ms),
    judged: perGroup(median(drop(judged))),
    again: perGroup(median(drop(again))),
    wait: perGroup(median(waitCpu)) / polls,
    tally,
  }
}

// ———————————————————————————————————————— the parent ————————————————————————————————————————

async function main() {
  if (args[0] === '--child') {
    process.stdout.write(`${JSON.stringify(await scenario(args[1], args[2]))}\n`)
    return
  }
  const bundle = await bundleSource(root, outDir, 'judge', [
    "export {WatchState} from './src/gate/state.ts'",
    "export {loadQuantile, loadToleranceFactor} from './src/gate/stats.ts'",
  ])
  const home = mkdtempSync(join(tmpdir(), 'amctl-bench-judge-'))
  const load = loadavg()[0]
  const started = Date.now()
  const rows = []
  try {
    for (const name of only) {
      const child = spawnSync(
        process.execPath,
        [
          fileURLToPath(import.meta.url),
          '--child',
          name,
          bundle,
          '--groups',
          String(groups),
          '--reps',
          String(reps),
          '--polls',
          String(polls),
          '--seed',
          String(seed),
        ],
        {env: {PATH: process.env.PATH, HOME: home}, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024},
      )
      if (child.status !== 0) throw new Error(`scenario ${name} exited ${child.status}: ${child.stderr.slice(-2000)}`)
      const row = JSON.parse(child.stdout.trim().split('\n').at(-1))
      rows.push(row)
      console.error(`${row.label}: ${row.judged.toFixed(1)} µs a group (floor ${row.floor.toFixed(2)} µs)`)
    }
  } finally {
    rmSync(home, {recursive: true, force: true})
  }
  const µs = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2))
  const ratio = (x, floor) => `${(x / floor).toFixed(0)}×`
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.versions.node}`
  const md = [
    '# The judging of a wait (bench/judge.mjs)',
    '',
    `${groups} groups of ${PER_GROUP} runs a scenario (a tenth in the last), ${reps} repetitions, ${polls} polls a wait, seed ${seed}; ${Math.round((Date.now() - started) / 1000)} s on ${machine}, load average ${load.toFixed(1)} at the start. µs a group; the ratio is to the floor of the same row.`,
    '',
    '| scenario | groups | floor | first look | judged | ratio | again, nothing changed | a wait, a group and poll | verdicts |',
    '|---|--:|--:|--:|--:|--:|--:|--:|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.groups} | ${µs(r.floor)} | ${µs(r.first)} | ${µs(r.judged)} | ${ratio(r.judged, r.floor)} | ${µs(r.again)} | ${µs(r.wait)} | ${Object.entries(
          r.tally,
        )
          .sort()
          .map(([v, n]) => `${v} ${n}`)
          .join(', ')} |`,
    ),
  ]
  writeFileSync(join(outDir, 'judge.md'), `${md.join('\n')}\n`)
  writeFileSync(join(outDir, 'judge.json'), `${JSON.stringify({groups, reps, polls, seed, machine, load, rows}, null, 2)}\n`)
  console.log(md.join('\n'))
}

await main()
