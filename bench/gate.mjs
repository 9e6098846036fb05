#!/usr/bin/env node
// bench/gate.mjs: how often the regression gate fails a step on noise alone (false alarms) and how
// often it catches a true drop (detection), for `--baseline previous --max-drop 0.05` and
// `--baseline history` (--confidence 0.95), with K = 1 and K = 3 (`evals run --repeat 3`)
// (issue 23 §5; the table is in docs/ci.md and docs/performance.md).
//
//   npm run build && node bench/gate.mjs [--trials N] [--previous N] [--detect N] [--workers N] [--seed S] [--quick] [--out DIR]
//   node bench/gate.mjs --section file|auto|outcomes …   the baseline file, --repeat auto, and agents that
//   fail runs: sections of their own, below
//
// --trials  history's false-alarm steps per cell (noise × groups; default 1500, so that the
// pooled rate of each K is known to about ±0.6 %); --previous  the previous-run gate's (default
// 400: its rates are far from any target); --detect  steps per drop (default 150: 450 judged
// groups, 3 a step); --workers  processes (default 2); --seed  the draws (default 1); --quick
// 300, 100 and 40; --out  where gate.md and gate.json go (default .bench/). About 3 minutes
// on 2 idle cores.
//
// What runs: the built CLI (dist/amctl.cjs, as bin/run.cjs loads it) in-process, in a few worker
// processes of a clean environment (`env -i PATH=$PATH HOME=$tmp`), each against a dev server of
// its own (dist/devserver.cjs, --run-seconds 0, its clock held by the worker), stdout going to a
// file the worker reads back after each command. One process per judged step would spend its
// time starting Node, not judging.
//
// One trial, for an eval set of m targets (es_acme_checkout: 2, es_acme_search: 3), every score
// drawn by the dev server from an outcome plan with "mean" and "sd" (normal, clipped to 0–1):
//   1. the history: 20 launches of the eval set scoring N(0.70, sd), at times of their own;
//   2. then, all at one later instant T, for each scenario (no change, and with --detect a true
//      drop d of every target's mean): `evals run --wait --repeat 3` with --baseline previous
//      --max-drop 0.05 and with --baseline history, and `runs watch` of the first launch of each
//      (K = 1) with the same flags. Runs created at T are never each other's baselines (a
//      baseline is created before the run), so every scenario and gate of a trial is judged
//      against the same 20 runs, and each trial against a history of its own.
// A false alarm is a step (one command) that exits 10 when no true mean changed; detection is
// the share of dropped groups whose verdict is `regressed`. Beside each rate: its 95 % Wilson
// interval, and what the normal theory predicts (the t prediction bound is exact for normal
// noise: per step 1 − (1 − 0.05/m)^m; detection from the noncentral t; the previous-run gate from
// the normal distribution of a difference of two noisy scores).
//
// Then `evals stats`' verdicts on seeded histories (its own section, at the end of this file:
// --stats N, --stats-only).

import {fork} from 'node:child_process'
import {closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync} from 'node:fs'
import {request as httpRequest, Agent} from 'node:http'
import {createRequire} from 'node:module'
import {cpus, loadavg, release, tmpdir, totalmem} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {normalDraws} from './random.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

/** The true mean of every target, and the noise of one run (sd). */
const MEAN = 0.7
const NOISE = [0.03, 0.06]
/** The eval sets of the dev server's seed by how many targets (groups) a launch has. */
const EVAL_SETS = {2: 'es_acme_checkout', 3: 'es_acme_search'}
const HISTORY_RUNS = 20
const REPEAT = 3
const MAX_DROP = 0.05
const CONFIDENCE = 0.95
/** The gates compared: the command-line flags of each. */
const GATES = [
  {
    name: 'previous',
    flags: ['--baseline', 'previous', '--max-drop', String(MAX_DROP)],
    label: `--baseline previous --max-drop ${MAX_DROP}`,
  },
  {name: 'history', flags: ['--baseline', 'history'], label: `--baseline history (${CONFIDENCE})`},
]
/** The true drops whose detection is measured (in steps of 3 groups), by noise: 0.05, 0.10, 4 sd (the K = 1 target) and 2.5 sd (K = 3). */
const drops = (sd) => [
  {name: '0.05', drop: 0.05},
  {name: '0.10', drop: 0.1},
  {name: '4 sd', drop: round(4 * sd)},
  {name: '2.5 sd', drop: round(2.5 * sd)},
]
/** The targets of issue 23 §5. */
const TARGETS = {falseAlarm: 0.055, detection: 0.9, detectK1: '4 sd', detectK3: '2.5 sd'}

function round(n, places = 6) {
  return Math.round(n * 10 ** places) / 10 ** places
}

// ———————————————————————————————————————— the parent ————————————————————————————————————————

async function main() {
  const args = process.argv.slice(2)
  if (args.includes('--stats-only')) {
    if (!(await statsBench(args))) process.exitCode = 1
    return
  }
  // the baseline file and --repeat auto: sections of their own (below)
  const section = args.includes('--section') ? args[args.indexOf('--section') + 1] : undefined
  if (section === 'file') return fileMain(args)
  if (section === 'auto') return autoMain(args)
  if (section === 'outcomes') return outcomesMain(args)
  if (section !== undefined) throw new Error(`--section must be file, auto or outcomes, got ${section}`)
  const options = sectionArgs(args)
  const {number, quick, workers, seed, outDir} = options
  const trials = number('--trials', quick ? 300 : 1500)
  const previous = number('--previous', quick ? 100 : 400)
  const detect = number('--detect', quick ? 40 : 150)
  for (const [name, n] of [
    ['--trials', trials],
    ['--previous', previous],
    ['--detect', detect],
    ['--workers', workers],
    ['--seed', seed],
  ]) {
    if (!Number.isInteger(n) || n < (name === '--seed' ? 0 : 1)) throw new Error(`${name} must be a positive integer`)
  }
  if (detect > trials || previous > trials) throw new Error('--detect and --previous must not exceed --trials')
  for (const file of ['amctl.cjs', 'devserver.cjs', 'stats.cjs']) {
    if (!existsSync(join(root, 'dist', file))) {
      console.error(`dist/${file} is missing: run \`npm run build\` first`)
      process.exit(1)
    }
  }

  // the work: chunks of trials of one cell (groups, noise), each on a fresh dev server (bounded memory)
  const CHUNK = 100
  const chunks = []
  for (const m of [3, 2]) {
    for (const sd of NOISE) {
      for (let from = 0; from < trials; from += CHUNK) {
        const to = Math.min(trials, from + CHUNK)
        const first = (n) => Math.max(0, Math.min(n, to) - from)
        chunks.push({m, sd, from, to, previous: first(previous), detect: m === 3 ? first(detect) : 0, seed})
      }
    }
  }
  // the heavier chunks first, so the workers end together
  chunks.sort((a, b) => b.detect * 8 + b.previous - (a.detect * 8 + a.previous))

  const started = performance.now()
  const load = loadavg()[0]
  let done = 0
  const results = await inWorkers(chunks, workers, (chunk) => {
    done += chunk.to - chunk.from
    return `${done} of ${trials * 4} trials (${Math.round((performance.now() - started) / 1000)} s)`
  })
  const seconds = (performance.now() - started) / 1000
  // what the workers counted, kept before anything is derived from it
  mkdirSync(outDir, {recursive: true})
  writeFileSync(join(outDir, 'gate-counts.json'), `${JSON.stringify(results)}\n`)
  const table = summarize(results)
  const pooled = pool(table)
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.versions.node}`
  const cpu = results.reduce((sum, r) => sum + r.cpuMs, 0) / 1000
  const spread = NOISE.map((sd) => {
    const mine = results.filter((r) => r.sd === sd).map((r) => r.historySpread)
    const n = mine.reduce((a, h) => a + h.n, 0)
    const sdOf = Math.sqrt(mine.reduce((a, h) => a + h.sumVar, 0) / n)
    const outliers = mine.reduce((a, h) => a + h.outliers, 0) / n
    return `sd ${sd}: histories of mean ${(mine.reduce((a, h) => a + h.sumMean, 0) / n).toFixed(3)}, sd ${sdOf.toFixed(4)} (root mean square), ${outliers.toFixed(3)} outliers set aside per history`
  })
  const about = `false alarms: ${trials} steps per cell (history), ${previous} (previous); detection: ${detect} steps (${detect * 3} judged groups) per drop; ${spread.join('; ')}. ${workers} workers; seed ${seed}; ${Math.round(seconds)} s (${Math.round(cpu)} s of CPU in the workers) on ${machine}, load average ${load.toFixed(1)} at the start`
  const md = render(table, pooled, about)
  const missed = [...table, ...pooled].flatMap((row) => row.missed)
  const document = {about, seconds, trials, previous, detect, seed, rows: table, pooled}
  if (!publish(options, 'gate', md, document, missed, 'steps')) process.exitCode = 1
  if (!(await statsBench(args))) process.exitCode = 1
}

/** What every section reads of the command line: --quick, --workers, --seed, --out, and its own options. */
function sectionArgs(args) {
  const text = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
  return {
    text,
    number: (name, fallback) => Number(text(name, fallback)),
    quick: args.includes('--quick'),
    workers: Number(text('--workers', 2)),
    seed: Number(text('--seed', 1)),
    outDir: text('--out', join(root, '.bench')),
  }
}

/**
 * A section's end: its table on stdout and in OUT/NAME.md, its figures in OUT/NAME.json, and the
 * targets it missed on stderr. Answers whether the targets hold: a missed one fails a full run;
 * --quick has too few `counted` to judge a target, and only says so.
 */
function publish({quick, outDir}, name, md, document, missed, counted) {
  process.stdout.write(md)
  mkdirSync(outDir, {recursive: true})
  writeFileSync(join(outDir, `${name}.md`), md)
  writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(document, null, 2)}\n`)
  if (missed.length === 0) return true
  const few = counted === undefined ? 'too few' : `too few ${counted}`
  console.error(`targets missed${quick ? ` (--quick: ${few} to judge them)` : ''}:\n${missed.map((m) => `  ${m}`).join('\n')}`)
  return quick
}

/**
 * Runs `chunks` in `workers` processes of a clean environment (this file with --worker), each
 * against a dev server of its own; after each chunk, `progress(chunk)` is the line on stderr.
 * The workers' results, in the order they came.
 */
async function inWorkers(chunks, workers, progress, cliRoot = root) {
  const queue = [...chunks]
  const work = mkdtempSync(join(tmpdir(), 'amctl-bench-gate-'))
  const results = []
  try {
    await Promise.all(
      Array.from({length: Math.min(workers, queue.length)}, async (_, w) => {
        const home = join(work, `home-${w}`)
        mkdirSync(home)
        const out = join(work, `stdout-${w}`)
        const err = join(work, `stderr-${w}`)
        const outFd = openSync(out, 'w')
        const errFd = openSync(err, 'w')
        const child = fork(fileURLToPath(import.meta.url), ['--worker', cliRoot], {
          // a clean environment, as `env -i PATH=$PATH HOME=$tmp` gives
          env: {PATH: process.env.PATH, HOME: home},
          stdio: ['ignore', outFd, errFd, 'ipc'],
          execArgv: [],
        })
        closeSync(outFd)
        closeSync(errFd)
        // the chunk the worker is on: its reply, or the worker's end
        let pending
        child.on('message', (reply) => pending?.resolve(reply))
        const exited = new Promise((resolve) =>
          child.once('exit', (code) => {
            pending?.reject(new Error(`worker ${w} exited ${code}:\n${readFileSync(err, 'utf8').slice(-2000)}`))
            resolve()
          }),
        )
        try {
          for (;;) {
            const chunk = queue.shift()
            if (chunk === undefined) break
            const reply = await new Promise((resolve, reject) => {
              pending = {resolve, reject}
              child.send({chunk, out})
            })
            pending = undefined
            if (reply.error) throw new Error(`worker ${w}: ${reply.error}\n${readFileSync(err, 'utf8').slice(-2000)}`)
            results.push(reply.result)
            process.stderr.write(`\r${progress(chunk)}`)
          }
        } finally {
          child.disconnect()
          await exited
        }
      }),
    )
  } finally {
    process.stderr.write('\n')
    rmSync(work, {recursive: true, force: true})
  }
  return results
}

/** The 95 % Wilson score interval of `k` successes in `n` trials (a formula, not a special function). */
function wilson(k, n, z = 1.959964) {
  const p = k / n
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n)
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))
  return [Math.max(0, centre - half), Math.min(1, centre + half)]
}

/** What the normal theory predicts: false alarms per step and detection per group (jstat). */
function theory(gate, k, m, sd, drop) {
  const {jStat} = require('jstat')
  if (gate === 'previous') {
    // the group's mean of k scores minus one earlier score: N(−drop, sd² (1/k + 1))
    const spread = sd * Math.sqrt(1 / k + 1)
    const perGroup = jStat.normal.cdf(-MAX_DROP, -drop, spread)
    return drop === 0 ? 1 - (1 - perGroup) ** m : perGroup
  }
  // (mean of k − history mean) / (s √(1/k + 1/n)) is noncentral t with n − 1 degrees of freedom
  const n = HISTORY_RUNS
  const alpha = (1 - CONFIDENCE) / m
  const t = jStat.studentt.inv(1 - alpha, n - 1)
  if (drop === 0) return 1 - (1 - alpha) ** m
  const ncp = drop / (sd * Math.sqrt(1 / k + 1 / n))
  // P(T < −t) with noncentrality −ncp = P(T' > t) with +ncp
  return 1 - jStat.noncentralt.cdf(t, n - 1, ncp)
}

/** Per gate, K and noise: the false-alarm rate per step for 2 and 3 groups, and the detection rate of each drop. */
function summarize(results) {
  const rows = []
  for (const gate of GATES) {
    for (const k of [1, REPEAT]) {
      for (const sd of NOISE) {
        const row = {gate: gate.label, name: gate.name, k, sd, falseAlarms: {}, detection: {}, missed: []}
        for (const m of [2, 3]) {
          let steps = 0
          let failed = 0
          for (const r of results.filter((x) => x.m === m && x.sd === sd)) {
            const cell = r.cells[`${gate.name}/${k}/0`]
            if (cell === undefined) continue
            steps += cell.steps
            failed += cell.failedSteps
          }
          row.falseAlarms[m] = rate(failed, steps, theory(gate.name, k, m, sd, 0))
        }
        for (const {name, drop} of drops(sd)) {
          let groups = 0
          let regressed = 0
          for (const r of results.filter((x) => x.m === 3 && x.sd === sd)) {
            const cell = r.cells[`${gate.name}/${k}/${drop}`]
            if (cell === undefined) continue
            groups += cell.groups
            regressed += cell.regressed
          }
          row.detection[name] = {drop, ...rate(regressed, groups, theory(gate.name, k, 3, sd, drop))}
        }
        if (gate.name === 'history') {
          // a cell is off target when even its interval lies above 5.5 % (one cell of 1500 steps at
          // the nominal 4.9 % reads above 5.5 % one time in eight); the pooled rate below is the judge
          for (const m of [2, 3]) {
            const fa = row.falseAlarms[m]
            if (fa.low > TARGETS.falseAlarm) row.missed.push(`history K=${k} sd ${sd}, ${m} groups: false alarms ${cell(fa)} > 5.5 %`)
          }
          const target = k === 1 ? TARGETS.detectK1 : TARGETS.detectK3
          const det = row.detection[target]
          if (det.rate < TARGETS.detection) row.missed.push(`history K=${k} sd ${sd}: detects ${target} in ${pct(det.rate)} < 90 %`)
        }
        rows.push(row)
      }
    }
  }
  return rows
}

/** History's false-alarm rate per step of each K over every cell (noise × groups): the figure the 5.5 % target is judged on. */
function pool(rows) {
  return [1, REPEAT].map((k) => {
    const cells = rows.filter((row) => row.name === 'history' && row.k === k).flatMap((row) => [row.falseAlarms[2], row.falseAlarms[3]])
    const hits = cells.reduce((a, c) => a + c.hits, 0)
    const of = cells.reduce((a, c) => a + c.of, 0)
    const expected = cells.reduce((a, c) => a + c.expected * c.of, 0) / of
    const pooled = {k, ...rate(hits, of, expected), missed: []}
    if (pooled.rate > TARGETS.falseAlarm) pooled.missed.push(`history K=${k}, every cell: false alarms ${cell(pooled)} > 5.5 %`)
    return pooled
  })
}

function rate(k, n, expected) {
  const [low, high] = wilson(k, n)
  return {hits: k, of: n, rate: k / n, low, high, expected}
}

const pct = (x, places = 1) => `${(x * 100).toFixed(places)} %`
const cell = (r) => `${pct(r.rate)} (${(r.low * 100).toFixed(1)}–${(r.high * 100).toFixed(1)})`

function render(rows, pooled, about) {
  const lines = [
    '| gate | K | sd | false alarms / step, 2 groups | false alarms / step, 3 groups | detects 0.05 | detects 0.10 | detects 4 sd | detects 2.5 sd |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ]
  for (const row of rows) {
    const det = (name) => `${cell(row.detection[name])}${name === '0.05' || name === '0.10' ? '' : ` [${row.detection[name].drop}]`}`
    lines.push(
      `| ${row.gate} | ${row.k} | ${row.sd} | ${cell(row.falseAlarms[2])} | ${cell(row.falseAlarms[3])} | ${det('0.05')} | ${det('0.10')} | ${det('4 sd')} | ${det('2.5 sd')} |`,
    )
  }
  lines.push('', 'What the normal theory predicts for the same cells:', '')
  lines.push('| gate | K | sd | 2 groups | 3 groups | 0.05 | 0.10 | 4 sd | 2.5 sd |', '|---|--:|--:|--:|--:|--:|--:|--:|--:|')
  for (const row of rows) {
    const e = (r) => pct(r.expected)
    lines.push(
      `| ${row.gate} | ${row.k} | ${row.sd} | ${e(row.falseAlarms[2])} | ${e(row.falseAlarms[3])} | ${e(row.detection['0.05'])} | ${e(row.detection['0.10'])} | ${e(row.detection['4 sd'])} | ${e(row.detection['2.5 sd'])} |`,
    )
  }
  lines.push(
    '',
    `History's false alarms per step over every cell (noise 0.03 and 0.06, 2 and 3 groups): ${pooled.map((p) => `K = ${p.k}: ${cell(p)} (theory ${pct(p.expected)})`).join('; ')}.`,
  )
  const missed = [...rows, ...pooled].flatMap((row) => row.missed)
  lines.push(
    '',
    missed.length === 0
      ? 'Targets (history: false alarms ≤ 5.5 % a step; detects 4 sd at K = 1 and 2.5 sd at K = 3 in ≥ 90 %): met.'
      : `Targets missed: ${missed.join('; ')}.`,
  )
  lines.push('', about, '')
  return `${lines.join('\n')}\n`
}

// ———————————————————————————————————————— a worker ————————————————————————————————————————

/**
 * Runs the chunks the parent sends, each against a fresh dev server in this process, with the
 * built CLI in this process too (oclif's run, as bin/run.cjs calls it). stdout (fd 1) is a file:
 * after each command the worker reads what it added, one JSON document. The CLI is the build of
 * `cliRoot` (this checkout, or another's: `--section auto --beside DIR`); the dev server is always
 * this checkout's, so that both CLIs are judged on the same draws.
 */
async function worker(cliRoot) {
  const pjson = JSON.parse(readFileSync(join(cliRoot, 'package.json'), 'utf8'))
  const cli = require(join(cliRoot, 'dist', 'amctl.cjs'))
  const {startDevServer} = require(join(root, 'dist', 'devserver.cjs'))
  const oclifOptions = {root: cliRoot, pjson, userPlugins: false}
  process.env.OCLIF_DISABLE_ENGINE_WARNING = '1'
  process.env.AMCTL_KEYCHAIN = 'off'
  process.env.AMCTL_CONFIG_DIR = join(process.env.HOME, 'config')
  let readFd
  let offset = 0

  /** Runs one amctl command in this process: its exit code and the JSON document it printed. */
  async function amctl(argv) {
    let code = 0
    try {
      await cli.run(argv, oclifOptions)
    } catch (error) {
      code = await cli.reportFailure(error, argv, cli.systemWorld())
    }
    code = code || process.exitCode || 0
    process.exitCode = 0
    const buffer = Buffer.alloc(1 << 20)
    let text = ''
    for (;;) {
      const n = readSync(readFd, buffer, 0, buffer.length, offset)
      if (n === 0) break
      offset += n
      text += buffer.toString('utf8', 0, n)
    }
    if (code !== 0 && code !== 10) throw new Error(`amctl ${argv.join(' ')} exited ${code}`)
    return {code, doc: JSON.parse(text)}
  }

  process.on('message', async ({chunk, out}) => {
    try {
      readFd ??= openSync(out, 'r')
      process.send({result: await (chunk.kind === 'stats' ? runStatsChunk : (TASKS[chunk.task] ?? runChunk))(chunk, amctl, startDevServer)})
    } catch (error) {
      process.send({error: error.stack ?? String(error)})
    }
  })
  process.on('disconnect', () => process.exit(0))
}

/** A small mixing of integers (murmur3's finalizer) for the outcome plans' seeds. */
function mix(...parts) {
  let h = 0x811c9dc5
  for (const part of parts) {
    h = Math.imul(h ^ part, 0x01000193) >>> 0
    h ^= h >>> 16
    h = Math.imul(h, 0x85ebca6b) >>> 0
    h ^= h >>> 13
    h = Math.imul(h, 0xc2b2ae35) >>> 0
    h ^= h >>> 16
  }
  return h >>> 0
}

async function runChunk({m, sd, from, to, previous, detect, seed}, amctl, startDevServer) {
  const cpu0 = process.cpuUsage()
  const cpuMs = () => {
    const {user, system} = process.cpuUsage(cpu0)
    return (user + system) / 1000
  }
  let clock = Date.parse('2026-06-01T09:00:00.000Z')
  const session = await devSession(startDevServer, () => clock)
  try {
    const {call, token} = session
    const evalSet = EVAL_SETS[m]
    const plan = (mean, count, ...key) =>
      call('POST', '/_dev/orgs/acme/outcomes', {
        evalSetId: evalSet,
        status: 'succeeded',
        mean,
        sd,
        seed: mix(seed, m, sd * 1000, ...key),
        count,
      })
    const launch = () => call('POST', `/api/v1/orgs/acme/eval-sets/${evalSet}/run`, {}, token)

    const cells = {}
    const tally = (key) => {
      cells[key] ??= {steps: 0, failedSteps: 0, groups: 0, regressed: 0}
      return cells[key]
    }
    const historySpread = {n: 0, sumVar: 0, sumMean: 0, outliers: 0}
    for (let trial = from; trial < to; trial++) {
      // 1. the history: 20 launches at times of their own, well after the previous trial
      clock += 60_000
      await plan(MEAN, HISTORY_RUNS * m, trial, 0)
      for (let i = 0; i < HISTORY_RUNS; i++) {
        clock += 1000
        const {runIds} = await launch()
        if (runIds.length !== m) throw new Error(`${evalSet} launched ${runIds.length} runs, not ${m}`)
      }
      // 2. every scenario and gate at one instant T
      clock += 60_000
      const scenarios = [{drop: 0}, ...(trial - from < detect ? drops(sd) : [])]
      for (const [s, {drop}] of scenarios.entries()) {
        for (const [g, gate] of GATES.entries()) {
          if (gate.name === 'previous' && drop === 0 && trial - from >= previous) continue
          await plan(round(MEAN - drop), REPEAT * m, trial, 1 + s * GATES.length + g)
          const repeated = await amctl(['evals', 'run', evalSet, '--wait', '--repeat', String(REPEAT), ...gate.flags, '--json'])
          const firstLaunch = repeated.doc.launches[0].runIds
          const single = await amctl(['runs', 'watch', ...firstLaunch, ...gate.flags, '--json'])
          judge(tally(`${gate.name}/${REPEAT}/${drop}`), repeated, repeated.doc.groups, drop)
          judge(tally(`${gate.name}/1/${drop}`), single, single.doc.items, drop)
          if (gate.name === 'history' && drop === 0) {
            for (const item of single.doc.items) {
              const b = item.baseline
              historySpread.n += 1
              historySpread.sumVar += b.sd ** 2
              historySpread.sumMean += b.mean
              historySpread.outliers += b.outliers.length
            }
          }
        }
      }
    }
    return {m, sd, cells, historySpread, cpuMs: cpuMs()}
  } finally {
    await session.close()
  }
}

/** Counts a step (failed: exit 10) and its groups (regressed); anything but a judged verdict is the bench's fault. */
function judge(cell, {code}, groups, drop) {
  cell.steps += 1
  if (code === 10) cell.failedSteps += 1
  for (const group of groups) {
    if (!['passed', 'regressed', 'improved'].includes(group.verdict)) {
      throw new Error(`a group was judged ${group.verdict}: ${JSON.stringify(group).slice(0, 500)}`)
    }
    cell.groups += 1
    if (group.verdict === 'regressed') cell.regressed += 1
  }
  if (drop === 0 && code === 10 && !groups.some((g) => g.verdict === 'regressed')) throw new Error('exit 10 without a regressed group')
}

// ———————————————————————— evals stats: its verdicts on seeded histories ————————————————————————
//
// How often `amctl evals stats` calls a group `shifted` or `flaky` (issue 29 §5), through the built
// CLI against the dev server as above, in the same workers. One trial retargets es_acme_search at
// three agents of its own and launches it 60 times, every run's outcome and score planned in
// order (POST /_dev/orgs/acme/outcomes, count 1; scores rounded to 2 decimals as the seeded
// history's are):
//   steady   N(0.70, sd), 2 % of the runs failed;
//   shifted  the same, then 3 sd lower from a run drawn uniformly from the 11th to the 51st;
//   flaky    N(0.70, sd), 15 % failed.
// One `evals stats es_acme_search --window 0 --json` per chunk of trials reads every group. Counted
// per kind and noise: how often each verdict is given, and how often a shift found starts within 2
// runs of the true change. Targets: a 3 sd change found in ≥ 90 % of the shifted groups, a steady
// group called shifted in ≤ 5 %.
//
//   node bench/gate.mjs --stats-only [--stats N] [--workers N] [--seed S] [--quick] [--out DIR]
//
// --stats  trials per noise (default 400; --quick 10; 0 leaves this section out of a full run);
// --stats-only  this section alone. Writes gate-stats.md and gate-stats.json beside gate.md.

const STATS_RUNS = 60
const STATS_KINDS = ['steady', 'shifted', 'flaky']
const STATS_FAILED = {steady: 0.02, shifted: 0.02, flaky: 0.15}
const STATS_SHIFT_SD = 3
const STATS_CHUNK = 25
const STATS_TARGETS = {found: 0.9, steadyShifted: 0.05}

/** The section: trials in the workers, then the table; answers whether its targets were met. */
async function statsBench(args) {
  const options = sectionArgs(args)
  const {quick, workers, seed} = options
  const trials = options.number('--stats', quick ? 10 : 400)
  if (!Number.isInteger(trials) || trials < 0) throw new Error('--stats must be a whole number')
  if (trials === 0) return true
  const chunks = NOISE.flatMap((sd) =>
    Array.from({length: Math.ceil(trials / STATS_CHUNK)}, (_, i) => ({
      kind: 'stats',
      sd,
      from: i * STATS_CHUNK,
      to: Math.min(trials, (i + 1) * STATS_CHUNK),
      seed,
    })),
  )
  const started = performance.now()
  const load = loadavg()[0]
  let done = 0
  const results = await inWorkers(chunks, workers, () => `evals stats: ${++done} of ${chunks.length} chunks`)
  const seconds = (performance.now() - started) / 1000
  const rows = NOISE.flatMap((sd) =>
    STATS_KINDS.map((kind) => {
      const counts = {groups: 0, shifted: 0, flaky: 0, stable: 0, 'too-few': 0, near: 0}
      for (const r of results.filter((x) => x.sd === sd)) for (const [k, n] of Object.entries(r.cells[kind])) counts[k] += n
      return {sd, kind, ...counts}
    }),
  )
  const missed = []
  for (const row of rows) {
    if (row.kind === 'shifted' && row.shifted / row.groups < STATS_TARGETS.found)
      missed.push(`sd ${row.sd}: a 3 sd change found in ${pct(row.shifted / row.groups)} < 90 %`)
    if (row.kind === 'steady' && row.shifted / row.groups > STATS_TARGETS.steadyShifted)
      missed.push(`sd ${row.sd}: a steady group called shifted in ${pct(row.shifted / row.groups)} > 5 %`)
  }
  const share = (row, key) => cell(rate(row[key], row.groups))
  const lines = [
    `\`evals stats\` verdicts on seeded histories of ${STATS_RUNS} runs per group (--confidence 0.95):`,
    '',
    '| group | sd | groups | shifted | flaky | stable | too-few | shift starts within 2 runs of the change |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...rows.map(
      (row) =>
        `| ${row.kind === 'shifted' ? `shifted by ${STATS_SHIFT_SD} sd` : row.kind === 'flaky' ? 'flaky (15 % failed)' : 'steady (2 % failed)'} | ${row.sd} | ${row.groups} | ${share(row, 'shifted')} | ${share(row, 'flaky')} | ${share(row, 'stable')} | ${share(row, 'too-few')} | ${row.kind === 'shifted' ? cell(rate(row.near, row.shifted)) : ''} |`,
    ),
    '',
    missed.length === 0
      ? 'Targets (a 3 sd change found in ≥ 90 % of the groups, a steady group called shifted in ≤ 5 %): met.'
      : `Targets missed: ${missed.join('; ')}.`,
    '',
    `${trials} trials per noise (three groups each), ${workers} workers, seed ${seed}; ${Math.round(seconds)} s on ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.versions.node}, load average ${load.toFixed(1)} at the start`,
    '',
  ]
  const md = `${lines.join('\n')}\n`
  return publish(options, 'gate-stats', md, {trials, seed, seconds, rows, missed}, missed, 'trials')
}

/** A trial's own stream of uniform numbers in [0, 1): the i-th is a hash of the trial's key and i. */
function uniforms(key) {
  let i = 0
  return () => mix(key, i++) / 2 ** 32
}

/** A worker's chunk of trials: each trial's 60 launches of three planned groups, then one `evals stats`. */
async function runStatsChunk({sd, from, to, seed}, amctl, startDevServer) {
  let clock = Date.parse('2026-06-01T09:00:00.000Z')
  const session = await devSession(startDevServer, () => clock)
  try {
    const {call, token} = session
    const evalSet = EVAL_SETS[3]
    const truth = []
    for (let trial = from; trial < to; trial++) {
      const next = uniforms(mix(seed, sd * 1000, trial, 29))
      const names = Object.fromEntries(STATS_KINDS.map((kind) => [kind, `${kind}-${trial}`]))
      await call(
        'PATCH',
        `/api/v1/orgs/acme/eval-sets/${evalSet}`,
        {targets: STATS_KINDS.map((kind) => ({agent: names[kind], model: 'bench'}))},
        token,
      )
      // the first run of the new level: the 11th to the 51st (at least 10 runs of each level)
      const at = 10 + Math.floor(next() * 41)
      const ids = Object.fromEntries(STATS_KINDS.map((kind) => [kind, []]))
      for (let i = 0; i < STATS_RUNS; i++) {
        for (const kind of STATS_KINDS) {
          const failed = next() < STATS_FAILED[kind]
          const level = MEAN - (kind === 'shifted' && i >= at ? STATS_SHIFT_SD * sd : 0)
          const z = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())
          const score = round(Math.min(1, Math.max(0, level + sd * z)), 2)
          const outcome = failed ? {status: 'failed'} : {status: 'succeeded', score}
          await call('POST', '/_dev/orgs/acme/outcomes', {evalSetId: evalSet, agent: names[kind], ...outcome, count: 1})
        }
        clock += 60_000
        const {runIds} = await call('POST', `/api/v1/orgs/acme/eval-sets/${evalSet}/run`, {}, token)
        for (const [j, kind] of STATS_KINDS.entries()) ids[kind].push(runIds[j])
      }
      truth.push({names, at, ids})
    }
    const {doc} = await amctl(['evals', 'stats', evalSet, '--window', '0', '--json'])
    const cells = Object.fromEntries(STATS_KINDS.map((kind) => [kind, {groups: 0, shifted: 0, flaky: 0, stable: 0, 'too-few': 0, near: 0}]))
    for (const {names, at, ids} of truth) {
      for (const kind of STATS_KINDS) {
        const group = doc.groups.find((g) => g.agent === names[kind])
        if (group === undefined) throw new Error(`evals stats has no group ${names[kind]}`)
        if (group.runs !== STATS_RUNS) throw new Error(`${names[kind]} has ${group.runs} runs, not ${STATS_RUNS}`)
        const counts = cells[kind]
        counts.groups += 1
        counts[group.verdict] += 1
        if (kind === 'shifted' && group.shift !== null && Math.abs(ids.shifted.indexOf(group.shift.runId) - at) <= 2) counts.near += 1
      }
    }
    return {sd, cells}
  } finally {
    await session.close()
  }
}

/**
 * A dev server in this process (--run-seconds 0, its clock `now`), and the CLI in this process
 * logged in to it as ada@example.com in acme: `call` sends a JSON request to it, `close` ends it.
 */
async function devSession(startDevServer, now) {
  const server = await startDevServer({port: 0, runSeconds: 0, now})
  const agent = new Agent({keepAlive: true})
  const call = caller(server.url, agent)
  const {token} = await call('POST', '/_dev/tokens', {email: 'ada@example.com'})
  Object.assign(process.env, {AMCTL_BASE_URL: server.url, AMCTL_TOKEN: token, AMCTL_ORG: 'acme'})
  return {
    call,
    token,
    /** the next runs of `evalSet` (those `outcome` matches) end as `outcome` says: an outcome plan */
    plan: (evalSet, outcome) => call('POST', '/_dev/orgs/acme/outcomes', {evalSetId: evalSet, status: 'succeeded', ...outcome}),
    launch: (evalSet) => call('POST', `/api/v1/orgs/acme/eval-sets/${evalSet}/run`, {}, token),
    close: async () => {
      agent.destroy()
      await server.close()
    },
  }
}

/** A JSON request to the dev server (its hooks and the API), answered as parsed JSON; anything but 2xx throws. */
function caller(url, agent) {
  return (method, path, body, token) =>
    new Promise((resolve, reject) => {
      const headers = {'content-type': 'application/json', ...(token ? {authorization: `Bearer ${token}`} : {})}
      const req = httpRequest(url + path, {method, headers, agent}, (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c) => {
          text += c
        })
        res.on('end', () =>
          res.statusCode < 300 ? resolve(JSON.parse(text)) : reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`)),
        )
      })
      req.on('error', reject)
      req.end(body === undefined ? undefined : JSON.stringify(body))
    })
}

// ——————————————————— the baseline file (issue 29 §5): drift, updates, a file's own rate ———————————————————
//
//   node bench/gate.mjs --section file [--only drift,updates,files] [--seeds N] [--updates N] [--update-seeds N] [--files N] [--workers N] [--seed S] [--quick]
//
// Three measurements, each through the built CLI against a dev server of the worker's:
//   1. drift (--seeds, default 20, per noise 0.02 and 0.03): 50 launches of es_acme_checkout at
//      N(0.84, sd) for both of its agent × model groups, saved as a file (`evals baseline save`,
//      keep 50); then codex drops to 0.84 − 4 sd on every launch (a planned score, the issue's
//      example) for 12 launches, each judged by a pull request's `evals run --wait
//      --baseline-file` (no update), by `runs watch --baseline history` (the organization's
//      history, where each dropped run joins the next launch's baseline) and by the default
//      branch's `runs watch --baseline-file --update-baseline` (a copy of the file), which goes on
//      until codex passes there: the launches a regression merged into the default branch fails
//      before the file has taken it in;
//   2. updates (--updates steps, default 200, × --update-seeds, default 3): a file of 50 runs at
//      N(0.70, 0.03), then unchanged launches each judged with --update-baseline: false alarms per
//      step, and how far the file's mean and sd end from the truth; beside it a copy that takes in
//      only the runs of steps that passed against it (what --update-baseline must not do);
//   3. a file's own false-alarm rate (--files, default 1000, per keep 20, 50 and 100): files of two
//      groups drawn from N(0.70, 0.03), each judged once by `runs watch --baseline-file --json`:
//      the CLI's margin and mean give that file's exact chance of failing an unchanged step
//      (normal noise: Φ((mean − margin − 0.70) / 0.03) per group) and of catching a drop of 4 sd,
//      beside the prediction bound --baseline history would use on the same runs; then the same
//      rates computed (exactFileRate), whose 99th percentile 1,000 draws cannot give (issue 37
//      item 16), with the factor the CLI applied (--keeps: some of the sizes).
// --only drift,files: about 9 min on 2 shared cores (load average 25); --quick about a minute.

const FILE_SET = 'es_acme_checkout'
const FILE_AGENTS = ['claude-code', 'codex']
const FILE_KEEPS = [20, 50, 100]
const FILE_NOISE = 0.03
const FILE_TARGETS = {p90: 1.5, updateFalseAlarms: 0.055, meanWithin: 0.5, sdWithin: 0.15}

async function fileMain(args) {
  const options = sectionArgs(args)
  const {number, quick, workers, seed} = options
  const seeds = number('--seeds', quick ? 2 : 20)
  const updates = number('--updates', quick ? 30 : 200)
  const updateSeeds = number('--update-seeds', quick ? 1 : 3)
  const files = number('--files', quick ? 100 : 1000)
  const only = options.text('--only', 'drift,updates,files').split(',')
  const chunks = []
  for (const sd of [0.02, 0.03]) for (let s = 0; s < seeds; s++) chunks.push({task: 'drift', sd, seed: mix(seed, s, sd * 1000)})
  for (let s = 0; s < updateSeeds; s++) chunks.push({task: 'updates', steps: updates, seed: mix(seed, 7, s)})
  const CHUNK = 250
  const keeps = options.text('--keeps', FILE_KEEPS.join(',')).split(',').map(Number)
  if (!keeps.every((k) => FILE_KEEPS.includes(k))) throw new Error(`--keeps must be some of ${FILE_KEEPS.join(',')}`)
  for (const keep of keeps) {
    for (let from = 0; from < files; from += CHUNK) chunks.push({task: 'files', keep, from, to: Math.min(files, from + CHUNK), seed})
  }
  // the longest first
  chunks.sort((a, b) => (b.task === 'updates') - (a.task === 'updates'))
  for (let i = chunks.length - 1; i >= 0; i--) if (!only.includes(chunks[i].task)) chunks.splice(i, 1)
  const total = chunks.length
  const started = performance.now()
  const load = loadavg()[0]
  let done = 0
  const results = await inWorkers(chunks, workers, () => {
    done++
    return `${done} of ${total} chunks (${Math.round((performance.now() - started) / 1000)} s)`
  })
  const seconds = (performance.now() - started) / 1000
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.versions.node}`
  const parts = {
    drift: `${seeds} seeds of 12 launches per noise (drift)`,
    updates: `${updateSeeds} × ${updates} steps (updates)`,
    files: `${files} files per keep`,
  }
  const about = `${only.map((task) => parts[task]).join('; ')}; ${workers} workers; seed ${seed}; ${Math.round(seconds)} s on ${machine}, load average ${load.toFixed(1)} at the start`
  const {md, missed} = renderFile(results, about)
  if (!publish(options, 'gate-file', md, {about, seconds, results}, missed)) process.exitCode = 1
}

/** The mean and sd of scores as amctl writes them in a file: Welford's, rounded to 6 decimals (src/gate/stats.ts). */
function welford(scores) {
  let n = 0
  let mean = 0
  let m2 = 0
  for (const x of scores) {
    n++
    const d = x - mean
    mean += d / n
    m2 += d * (x - mean)
  }
  const r6 = (v) => Math.round(v * 1e6) / 1e6
  return {mean: r6(mean), sd: r6(n < 2 ? 0 : Math.sqrt(m2 / (n - 1)))}
}

/** A baseline file of `groups` (agent → scores, oldest first), in amctl's own form. */
function baselineFileOf(groups, keep, at) {
  const out = {version: 1, org: 'acme', evalSetId: FILE_SET, savedAt: new Date(at).toISOString(), keep, groups: []}
  for (const [agent, scores] of Object.entries(groups)) {
    const runs = scores.map((score, i) => ({
      id: `f_${agent}_${i}`,
      score,
      createdAt: new Date(at - (scores.length - i) * 60_000).toISOString(),
    }))
    out.groups.push({agent, model: agent === 'codex' ? 'gpt-5' : 'claude-sonnet-4-5', ...welford(scores), runs, setAside: []})
  }
  return `${JSON.stringify(out, null, 2)}\n`
}

/**
 * A dev server on a clock the task moves (`clock.now`), the history of 50 launches of FILE_SET
 * scoring N(mean, sd) (an outcome plan of `count` runs, the history's and what follows), saved as
 * a baseline file at `path`: what `fn` measures on; then everything is removed.
 */
async function withSavedHistory(startDevServer, amctl, {mean, sd, seed, count}, fn) {
  const clock = {now: Date.parse('2026-06-01T09:00:00.000Z')}
  const session = await devSession(startDevServer, () => clock.now)
  const dir = mkdtempSync(join(tmpdir(), 'amctl-bench-file-'))
  try {
    await session.plan(FILE_SET, {mean, sd, seed, count})
    for (let i = 0; i < 50; i++) {
      clock.now += 60_000
      await session.launch(FILE_SET)
    }
    const path = join(dir, 'baseline.json')
    await amctl(['evals', 'baseline', 'save', FILE_SET, '--file', path, '--baseline-window', '0', '--json'])
    return await fn({session, clock, dir, path})
  } finally {
    rmSync(dir, {recursive: true, force: true})
    await session.close()
  }
}

async function runDrift({sd, seed}, amctl, startDevServer) {
  const mean = 0.84
  return withSavedHistory(startDevServer, amctl, {mean, sd, seed, count: 100}, async ({session, clock, dir, path: pr}) => {
    const dropped = round(mean - 4 * sd, 4)
    const main = join(dir, 'main.json')
    writeFileSync(main, readFileSync(pr))
    const before = readFileSync(pr, 'utf8')
    const flagged = {file: 0, history: 0, main: 0}
    let accepted = null
    const codex = (items) => items.find((item) => item.agent === 'codex').verdict === 'regressed'
    for (let launch = 1; launch <= 12 || (accepted === null && launch <= 200); launch++) {
      clock.now += 60_000
      await session.plan(FILE_SET, {agent: 'codex', score: dropped, count: 1})
      await session.plan(FILE_SET, {agent: 'claude-code', mean, sd, seed: mix(seed, launch), count: 1})
      const {runIds} = await session.launch(FILE_SET)
      const onMain = await amctl([
        'runs',
        'watch',
        ...runIds,
        '--baseline-file',
        main,
        '--update-baseline',
        '--baseline-max-age',
        '0',
        '--json',
      ])
      if (accepted === null) {
        if (codex(onMain.doc.items)) flagged.main++
        else accepted = launch
      }
      if (launch > 12) continue
      const onPr = await amctl(['runs', 'watch', ...runIds, '--baseline-file', pr, '--baseline-max-age', '0', '--json'])
      if (codex(onPr.doc.items)) flagged.file++
      const history = await amctl(['runs', 'watch', ...runIds, '--baseline', 'history', '--json'])
      if (codex(history.doc.items)) flagged.history++
    }
    return {task: 'drift', sd, flagged, accepted, unchanged: readFileSync(pr, 'utf8') === before}
  })
}

async function runUpdates({steps, seed}, amctl, startDevServer) {
  const count = 100 + 2 * steps
  return withSavedHistory(startDevServer, amctl, {mean: 0.7, sd: FILE_NOISE, seed, count}, async ({clock, dir, path}) => {
    // (a second file takes only the runs of steps that passed against it: the selection the docs warn against)
    const passing = join(dir, 'passing.json')
    writeFileSync(passing, readFileSync(path))
    let failed = 0
    let failedPassing = 0
    const file = ['--baseline-max-age', '0', '--json']
    for (let step = 0; step < steps; step++) {
      clock.now += 60_000
      const r = await amctl(['evals', 'run', FILE_SET, '--wait', '--baseline-file', path, '--update-baseline', ...file])
      if (r.code === 10) failed++
      const p = await amctl(['runs', 'watch', ...r.doc.runIds, '--baseline-file', passing, ...file])
      if (p.code === 10) failedPassing++
      else await amctl(['runs', 'watch', ...r.doc.runIds, '--baseline-file', passing, '--update-baseline', ...file])
    }
    const ends = (f) =>
      JSON.parse(readFileSync(f, 'utf8')).groups.map((g) => ({agent: g.agent, mean: g.mean, sd: g.sd, runs: g.runs.length}))
    return {task: 'updates', steps, failed, failedPassing, groups: ends(path), passingGroups: ends(passing)}
  })
}

async function runFiles({keep, from, to, seed}, amctl, startDevServer) {
  const {jStat} = require('jstat')
  const clock = Date.parse('2026-06-01T09:00:00.000Z')
  const session = await devSession(startDevServer, () => clock)
  const dir = mkdtempSync(join(tmpdir(), 'amctl-bench-files-'))
  try {
    await session.plan(FILE_SET, {score: 0.7, count: 2})
    const {runIds} = await session.launch(FILE_SET)
    const path = join(dir, 'file.json')
    const perFile = []
    const levels = new Set()
    const factors = []
    const sigma = FILE_NOISE
    for (let f = from; f < to; f++) {
      const z = normalDraws(mix(seed, keep, f))
      const draw = (mean, sd) => mean + sd * z()
      const groups = Object.fromEntries(
        FILE_AGENTS.map((agent) => [agent, Array.from({length: keep}, () => round(Math.min(1, Math.max(0, draw(0.7, sigma))), 4))]),
      )
      writeFileSync(path, baselineFileOf(groups, keep, clock))
      const {doc} = await amctl(['runs', 'watch', ...runIds, '--baseline-file', path, '--baseline-max-age', '0', '--json'])
      let passFile = 1
      let passPrediction = 1
      let detect = 0
      let detectPrediction = 0
      for (const item of doc.items) {
        const {mean, sd, runs: n} = item.baseline
        // the level each group was judged at, and its margin's factor (margin / max(sd, floor)): the exact computation's
        levels.add(item.confidence)
        factors.push(item.margin / Math.max(sd, 0.01))
        // the chance an unchanged run (N(0.70, σ)) scores below mean − margin, for this file
        passFile *= 1 - jStat.normal.cdf((mean - item.margin - 0.7) / sigma, 0, 1)
        const prediction = jStat.studentt.inv(1 - 0.05 / doc.items.length, n - 1) * Math.max(sd, 0.01) * Math.sqrt(1 + 1 / n)
        passPrediction *= 1 - jStat.normal.cdf((mean - prediction - 0.7) / sigma, 0, 1)
        detect += jStat.normal.cdf((mean - item.margin - (0.7 - 4 * sigma)) / sigma, 0, 1) / doc.items.length
        detectPrediction += jStat.normal.cdf((mean - prediction - (0.7 - 4 * sigma)) / sigma, 0, 1) / doc.items.length
      }
      perFile.push({file: 1 - passFile, prediction: 1 - passPrediction, detect, detectPrediction})
    }
    const factor = factors.reduce((a, b) => a + b, 0) / factors.length
    return {task: 'files', keep, perFile, levels: [...levels], factor, factorSpread: Math.max(...factors) - Math.min(...factors)}
  } finally {
    rmSync(dir, {recursive: true, force: true})
    await session.close()
  }
}

const TASKS = {drift: runDrift, updates: runUpdates, files: runFiles}

/**
 * A file's own false-alarm rate computed, not drawn (issue 37 item 16): for a file of n runs a
 * group drawn from N(μ, σ), whose margin is K × sd, an unchanged run passes with chance
 * G = Φ(V), V = K R + Z/√n (R = sd/σ, √(χ²(n − 1)/(n − 1)); Z the file mean's error in units of
 * σ/√n, independent of R); the step of `groups` groups fails with F = 1 − Π G. P(V ≤ v) =
 * E_R[Φ(√n (v − K R))] is tabulated on a fine grid (the mean over R taken at `nodes` equally
 * likely values, the midpoints of χ²'s quantiles), and P(F > q) for two groups is the integral of
 * P(G₂ < (1 − q)/G₁) over G₁'s law; its quantiles by bisection. (The sd floor of 0.01 is left out:
 * at σ = 0.03 a file of 20 runs has sd below it with chance about 1e-9.)
 */
function exactFileRate(n, K, groups = 2, nodes = 2000, points = 3000) {
  const {jStat} = require('jstat')
  const df = n - 1
  const r = Array.from({length: nodes}, (_, i) => Math.sqrt(jStat.chisquare.inv((i + 0.5) / nodes, df) / df))
  const lo = K * r[0] - 9 / Math.sqrt(n)
  const hi = K * r[nodes - 1] + 9 / Math.sqrt(n)
  const step = (hi - lo) / (points - 1)
  const v = Array.from({length: points}, (_, j) => lo + j * step)
  // P(V ≤ v_j)
  const cdf = v.map((x) => r.reduce((a, ri) => a + jStat.normal.cdf(Math.sqrt(n) * (x - K * ri), 0, 1), 0) / nodes)
  const cdfAt = (x) => {
    if (x <= lo) return 0
    if (x >= hi) return 1
    const t = (x - lo) / step
    const j = Math.min(points - 2, Math.floor(t))
    return cdf[j] + (t - j) * (cdf[j + 1] - cdf[j])
  }
  // G₁'s law as cells of V: the chance of each cell, and G at its midpoint
  const cells = v.slice(0, -1).map((x, j) => ({p: cdf[j + 1] - cdf[j], g: jStat.normal.cdf(x + step / 2, 0, 1)}))
  const passMean = cells.reduce((a, c) => a + c.p * c.g, 0)
  if (groups !== 2) throw new Error('exactFileRate: two groups')
  // P(F > q) = P(G₁ G₂ < 1 − q)
  const above = (q) =>
    cells.reduce((a, c) => {
      const need = (1 - q) / c.g
      return a + c.p * (need >= 1 ? 1 : cdfAt(jStat.normal.inv(need, 0, 1)))
    }, 0)
  const quantile = (p) => {
    let low = 0
    let high = 1
    for (let i = 0; i < 50; i++) {
      const mid = (low + high) / 2
      if (above(mid) > 1 - p) low = mid
      else high = mid
    }
    return (low + high) / 2
  }
  return {mean: 1 - passMean ** 2, median: quantile(0.5), p90: quantile(0.9), p99: quantile(0.99)}
}

function quantileOf(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
}

function renderFile(results, about) {
  const missed = []
  const lines = []
  /** a table's title, header and alignment row */
  const table = (title, header, align) => lines.push(...(lines.length === 0 ? [] : ['']), `#### ${title}`, '', header, align)
  table(
    'A persistent drop of 4 sd, 12 launches',
    '| noise sd | seeds | flagged by `--baseline history` | flagged by `--baseline-file` (pull request) | file unchanged | launches the default branch fails (`--update-baseline`) before it passes |',
    '|--:|--:|--:|--:|--:|--:|',
  )
  for (const sd of [0.02, 0.03]) {
    const mine = results.filter((r) => r.task === 'drift' && r.sd === sd)
    if (mine.length === 0) continue
    const mean = (f) => (mine.reduce((a, r) => a + f(r), 0) / mine.length).toFixed(1)
    const range = (f) => `${Math.min(...mine.map(f))}–${Math.max(...mine.map(f))}`
    const accepted = mine.map((r) => r.accepted ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b)
    const fileAll = mine.every((r) => r.flagged.file === 12)
    if (!fileAll) missed.push(`drift sd ${sd}: the file flagged fewer than 12 of 12 launches in some seed`)
    if (!mine.every((r) => r.unchanged)) missed.push(`drift sd ${sd}: the pull request's file changed`)
    lines.push(
      `| ${sd} | ${mine.length} | ${mean((r) => r.flagged.history)} of 12 (${range((r) => r.flagged.history)}) | ${mean((r) => r.flagged.file)} of 12 (${range((r) => r.flagged.file)}) | ${mine.filter((r) => r.unchanged).length} of ${mine.length} | median ${quantileOf(accepted, 0.5) - 1} (${accepted[0] - 1}–${accepted.at(-1) - 1}) |`,
    )
  }
  const updates = results.filter((r) => r.task === 'updates')
  if (updates.length > 0) {
    table(
      'Unchanged launches with `--update-baseline`',
      "| steps | false alarms / step | the file at the end: mean (truth 0.70), sd (truth 0.03) | adding only passing steps' runs: false alarms / step | that file at the end |",
      '|--:|--:|---|--:|---|',
    )
    let steps = 0
    let failed = 0
    let failedPassing = 0
    const endOf = (groups) => groups.map((g) => `${g.agent} ${g.mean.toFixed(3)}, ${g.sd.toFixed(4)}`).join('; ')
    for (const r of updates) {
      steps += r.steps
      failed += r.failed
      failedPassing += r.failedPassing
      const ends = `${endOf(r.groups)} | ${cell(rate(r.failedPassing, r.steps))} | ${endOf(r.passingGroups)}`
      lines.push(`| ${r.steps} | ${cell(rate(r.failed, r.steps))} | ${ends} |`)
    }
    const all = rate(failed, steps)
    if (all.rate > FILE_TARGETS.updateFalseAlarms) missed.push(`updates: false alarms ${cell(all)} > 5.5 %`)
    // the files' mean and sd at the end, over every group of every seed (the root mean square of
    // the sds): one group's sd of 50 runs is itself off by 10 % (its standard error), so the
    // target is judged on what the updates do to the file, not on one sample
    const ends = updates.flatMap((r) => r.groups)
    const meanEnd = ends.reduce((a, g) => a + g.mean, 0) / ends.length
    const sdEnd = Math.sqrt(ends.reduce((a, g) => a + g.sd ** 2, 0) / ends.length)
    if (Math.abs(meanEnd - 0.7) > FILE_TARGETS.meanWithin * FILE_NOISE)
      missed.push(`updates: the files' mean ${meanEnd.toFixed(4)} is more than 0.5 sd from 0.70`)
    if (Math.abs(sdEnd / FILE_NOISE - 1) > FILE_TARGETS.sdWithin)
      missed.push(`updates: the files' sd ${sdEnd.toFixed(4)} is more than 15 % from 0.03`)
    lines.push(
      `| ${steps} (all) | ${cell(all)} | over every group: mean ${meanEnd.toFixed(3)}, sd ${sdEnd.toFixed(4)} (root mean square) | ${cell(rate(failedPassing, steps))} | |`,
    )
  }
  const files = results.filter((r) => r.task === 'files')
  if (files.length > 0) {
    table(
      "A file's own false-alarm rate (2 groups, one run each, noise 0.03, nominal 5 % a step)",
      '| keep | files | margin | mean | median | 90th percentile | 99th percentile | detects a drop of 4 sd (mean) |',
      '|--:|--:|---|--:|--:|--:|--:|--:|',
    )
    for (const keep of FILE_KEEPS) {
      const per = files.filter((r) => r.keep === keep).flatMap((r) => r.perFile)
      if (per.length === 0) continue
      for (const [name, key] of [
        ['tolerance bound (the file)', 'file'],
        ['prediction bound (history)', 'prediction'],
      ]) {
        const sorted = per.map((p) => p[key]).sort((a, b) => a - b)
        const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length
        const p90 = quantileOf(sorted, 0.9)
        if (key === 'file' && keep === 50 && p90 > FILE_TARGETS.p90 * 0.05)
          missed.push(`files: keep 50, 90th percentile ${pct(p90)} > 7.5 %`)
        const det = pct(per.reduce((a, p) => a + (key === 'file' ? p.detect : p.detectPrediction), 0) / per.length)
        lines.push(
          `| ${keep} | ${per.length} | ${name} | ${pct(mean)} | ${pct(quantileOf(sorted, 0.5))} | ${pct(p90)} | ${pct(quantileOf(sorted, 0.99))} | ${det} |`,
        )
      }
    }
    // the same rates computed (exactFileRate), with the factor the CLI applied
    lines.push(
      '',
      'The same rates computed rather than drawn (exactFileRate: the law of a file of n runs of normal noise, the factor K of its margin as the CLI applied it):',
      '',
      '| keep | margin | K | mean | median | 90th percentile | 99th percentile |',
      '|--:|---|--:|--:|--:|--:|--:|',
    )
    const {jStat} = require('jstat')
    for (const keep of FILE_KEEPS) {
      const mine = files.filter((r) => r.keep === keep)
      if (mine.length === 0) continue
      const levels = [...new Set(mine.flatMap((r) => r.levels))]
      const weight = mine.reduce((a, r) => a + r.perFile.length, 0)
      const tolerance = mine.reduce((a, r) => a + r.factor * r.perFile.length, 0) / weight
      const spread = Math.max(...mine.map((r) => r.factorSpread))
      if (spread > 1e-3) missed.push(`files: keep ${keep}, the CLI's margin factor varies by ${spread} between files`)
      const prediction = jStat.studentt.inv(1 - 0.05 / FILE_AGENTS.length, keep - 1) * Math.sqrt(1 + 1 / keep)
      for (const [name, K] of [
        [`tolerance bound (the file; level ${levels.map((l) => pct(l)).join(', ')})`, tolerance],
        ['prediction bound (history)', prediction],
      ]) {
        const e = exactFileRate(keep, K)
        lines.push(`| ${keep} | ${name} | ${K.toFixed(4)} | ${pct(e.mean)} | ${pct(e.median)} | ${pct(e.p90)} | ${pct(e.p99)} |`)
      }
    }
  }
  lines.push('', missed.length === 0 ? 'Targets met.' : `Targets missed: ${missed.join('; ')}.`, '', about, '')
  return {md: `${lines.join('\n')}\n`, missed}
}

// ——————————————————— --repeat auto (issue 30 §3): launches only where the evidence is unclear ———————————————————
//
//   node bench/gate.mjs --section auto [--steps N] [--groups 2|1|1,2] [--beside DIR] [--workers N] [--seed S] [--quick]
//
// Noise 0.03, two agent × model groups a launch (es_acme_checkout; --groups 1: the eval set
// retargeted at claude-code alone), a history of 20 runs each (--baseline history), at least 200
// steps per row (--steps, default 200): no change, a drop of 0.05 and a drop of 0.12 of every
// group's mean. Each step is judged by `--repeat auto --max-repeat 5` with --max-drop 0.05 and
// 0.10, and (two groups) by a fixed `--repeat 3` and `--repeat 5`, on the same seeds (each
// strategy's launches draw the same scores in the same order). Per row: false alarms (a step of
// no change with a regressed group), detection (steps with a regressed group), steps passed
// (every group passed: with auto, cleared), steps with an inconclusive group, and the mean
// launches a step made.
//
// --beside DIR: the same steps judged by another build's CLI too (DIR: a checkout with dist/ built,
// e.g. `git archive 5d40e65 | tar -x -C DIR && (cd DIR && npm ci)`, 1f0a2af's parent: the Bonferroni
// split over the looks), against this checkout's dev server, so both see the same draws; the table
// puts the two side by side (auto only). Below the first table: the levels the groups were judged
// at (--json `confidence`) and what their failure test spent (`outcomes.size`). About 6 min per CLI
// for --groups 1,2 on 2 shared cores; --quick (20 steps) under a minute.

const AUTO_SET = 'es_acme_checkout'
const AUTO_DROPS = [0, 0.05, 0.12]
const AUTO_STRATEGIES = [
  {name: 'auto, --max-drop 0.05', flags: ['--repeat', 'auto', '--max-repeat', '5', '--max-drop', '0.05'], maxDrop: 0.05},
  {name: 'auto, --max-drop 0.10', flags: ['--repeat', 'auto', '--max-repeat', '5', '--max-drop', '0.1'], maxDrop: 0.1},
  {name: '--repeat 3', flags: ['--repeat', '3'], groups: [2]},
  {name: '--repeat 5', flags: ['--repeat', '5'], groups: [2]},
]
/** The groups of each eval set's launch: es_acme_checkout's two, or one of them. */
const AUTO_TARGETS_OF = {
  1: [{agent: 'claude-code', model: 'claude-sonnet-4-5'}],
  2: [
    {agent: 'claude-code', model: 'claude-sonnet-4-5'},
    {agent: 'codex', model: 'gpt-5'},
  ],
}
const AUTO_TARGETS = {falseAlarms: 0.055, detect012: 0.95, launches012: 1.3, passedAtD: 0.05, launchesQuiet: 2}

async function autoMain(args) {
  const options = sectionArgs(args)
  const {quick, workers, seed} = options
  const steps = options.number('--steps', quick ? 20 : 200)
  const groups = options.text('--groups', '2').split(',').map(Number)
  if (!groups.every((m) => m === 1 || m === 2)) throw new Error('--groups must be 1, 2 or 1,2')
  const beside = options.text('--beside', undefined)
  const CHUNK = 25
  const chunks = []
  for (const m of groups) {
    for (let from = 0; from < steps; from += CHUNK) chunks.push({task: 'auto', m, from, to: Math.min(steps, from + CHUNK), seed})
  }
  const started = performance.now()
  const load = loadavg()[0]
  const run = async (cliRoot, name) => {
    let done = 0
    return inWorkers(
      chunks,
      workers,
      (chunk) => {
        done += chunk.to - chunk.from
        return `${name}: ${done} of ${steps * groups.length} steps (${Math.round((performance.now() - started) / 1000)} s)`
      },
      cliRoot,
    )
  }
  const results = await run(root, 'this CLI')
  const mine = performance.now()
  const besideResults = beside === undefined ? undefined : await run(beside, beside)
  const seconds = (performance.now() - started) / 1000
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.versions.node}`
  const took =
    beside === undefined
      ? `${Math.round(seconds)} s`
      : `${Math.round((mine - started) / 1000)} s (this CLI) and ${Math.round(seconds - (mine - started) / 1000)} s (beside)`
  const about = `${steps} steps per row, each on a history of its own; ${workers} workers; seed ${seed}; ${took} on ${machine}, load average ${load.toFixed(1)} at the start`
  const {md, missed} = renderAuto(results, about, besideResults, beside)
  if (!publish(options, 'gate-auto', md, {about, seconds, results, beside, besideResults}, missed, 'steps')) process.exitCode = 1
}

async function runAuto({m = 2, from, to, seed}, amctl, startDevServer) {
  const clock = {now: Date.parse('2026-06-01T09:00:00.000Z')}
  const session = await devSession(startDevServer, () => clock.now)
  const cells = {}
  try {
    if (m !== 2) await session.call('PATCH', `/api/v1/orgs/acme/eval-sets/${AUTO_SET}`, {targets: AUTO_TARGETS_OF[m]}, session.token)
    for (let step = from; step < to; step++) {
      clock.now += 60_000
      await session.call('DELETE', '/_dev/orgs/acme/outcomes')
      await session.plan(AUTO_SET, {mean: MEAN, sd: 0.03, seed: mix(seed, step, 0), count: m * HISTORY_RUNS})
      for (let i = 0; i < HISTORY_RUNS; i++) {
        clock.now += 1000
        await session.launch(AUTO_SET)
      }
      clock.now += 60_000
      for (const drop of AUTO_DROPS) {
        for (const strategy of AUTO_STRATEGIES) {
          if (strategy.groups !== undefined && !strategy.groups.includes(m)) continue
          // the same draws for every strategy of a step and drop: the plan's seed is theirs
          await session.call('DELETE', '/_dev/orgs/acme/outcomes')
          await session.plan(AUTO_SET, {mean: round(MEAN - drop), sd: 0.03, seed: mix(seed, step, 1 + drop * 100), count: 5 * m})
          const {code, doc} = await amctl(['evals', 'run', AUTO_SET, '--wait', '--baseline', 'history', ...strategy.flags, '--json'])
          const verdicts = doc.groups.map((g) => g.verdict)
          if (verdicts.length !== m) throw new Error(`${verdicts.length} groups judged, not ${m}`)
          const key = `${m}/${strategy.name}/${drop}`
          cells[key] ??= {steps: 0, regressed: 0, passed: 0, inconclusive: 0, launches: 0, exit10: 0, levels: {}}
          const cell = cells[key]
          // the levels the groups were judged at, and what their failure test spent (a history of 20 runs none of which failed)
          for (const g of doc.groups) {
            const level = `${g.confidence} ${g.outcomes?.size ?? 'none'}`
            cell.levels[level] = (cell.levels[level] ?? 0) + 1
          }
          cell.steps++
          cell.launches += doc.launches.length
          if (code === 10) cell.exit10++
          if (verdicts.includes('regressed')) cell.regressed++
          else if (verdicts.includes('inconclusive')) cell.inconclusive++
          else if (verdicts.every((v) => v === 'passed' || v === 'improved')) cell.passed++
        }
      }
    }
    return {task: 'auto', m, steps: to - from, cells}
  } finally {
    await session.close()
  }
}

TASKS.auto = runAuto

function renderAuto(results, about, besideResults, beside) {
  const missed = []
  const lines = [
    '| groups | true drop | gate | steps | false alarms / step | detection (regressed) | passed | inconclusive | launches / step |',
    '|--:|--:|---|--:|--:|--:|--:|--:|--:|',
  ]
  const sums = (of, key) => (field) => of.reduce((n, r) => n + (r.cells[key]?.[field] ?? 0), 0)
  for (const m of [1, 2]) {
    for (const drop of AUTO_DROPS) {
      for (const strategy of AUTO_STRATEGIES) {
        const key = `${m}/${strategy.name}/${drop}`
        const sum = sums(results, key)
        const steps = sum('steps')
        if (steps === 0) continue
        const regressed = rate(sum('regressed'), steps)
        const passed = rate(sum('passed'), steps)
        const inconclusive = rate(sum('inconclusive'), steps)
        const launches = sum('launches') / steps
        const auto = strategy.maxDrop !== undefined
        const name = `${m} group${m === 1 ? '' : 's'}, ${strategy.name}`
        if (auto && drop === 0 && regressed.rate > AUTO_TARGETS.falseAlarms)
          missed.push(`${name}, no change: false alarms ${cell(regressed)} > 5.5 %`)
        if (auto && drop === 0.12 && regressed.rate < AUTO_TARGETS.detect012)
          missed.push(`${name}, drop 0.12: regressed in ${cell(regressed)} < 95 %`)
        // (two groups: either's regression ends the step; one group at D = 0.10 needs its one run to fall 0.10 below, about 3 in 4)
        if (auto && m === 2 && drop === 0.12 && launches > AUTO_TARGETS.launches012)
          missed.push(`${name}, drop 0.12: ${launches.toFixed(2)} launches > 1.3`)
        if (auto && drop >= strategy.maxDrop && passed.rate > AUTO_TARGETS.passedAtD)
          missed.push(`${name}, drop ${drop}: passed in ${cell(passed)} > 5 %`)
        if (auto && drop === 0 && strategy.maxDrop === 0.1 && launches > AUTO_TARGETS.launchesQuiet)
          missed.push(`${name}, no change: ${launches.toFixed(2)} launches > 2`)
        lines.push(
          `| ${m} | ${drop === 0 ? 'none' : drop} | ${strategy.name} | ${steps} | ${drop === 0 ? cell(regressed) : ''} | ${drop === 0 ? '' : cell(regressed)} | ${cell(passed)} | ${cell(inconclusive)} | ${launches.toFixed(2)} |`,
        )
      }
    }
  }
  // the per-look levels the CLI judged at (its --json `confidence`) and what the failure test spent (`outcomes.size`)
  const judgedAt = []
  for (const m of [1, 2]) {
    for (const strategy of AUTO_STRATEGIES) {
      const levels = {}
      for (const r of results)
        for (const drop of AUTO_DROPS)
          for (const [k, n] of Object.entries(r.cells[`${m}/${strategy.name}/${drop}`]?.levels ?? {})) levels[k] = (levels[k] ?? 0) + n
      const seen = Object.entries(levels).sort((a, b) => b[1] - a[1])
      if (seen.length === 0) continue
      const said = seen.map(([k, n]) => {
        const [confidence, size] = k.split(' ')
        return `${pct(Number(confidence), 3)}${size === 'none' ? '' : ` (failure test ${pct(Number(size), 3)})`} in ${n} groups`
      })
      judgedAt.push(`${m} group${m === 1 ? '' : 's'}, ${strategy.name}: ${said.join(', ')}`)
    }
  }
  lines.push(
    '',
    `Levels the groups were judged at (\`confidence\`; what the failure test spent, \`outcomes.size\`): ${judgedAt.join('; ')}.`,
  )
  if (besideResults !== undefined) {
    lines.push(
      '',
      `\`--repeat auto\` of this CLI beside ${beside}'s, on the same steps and draws:`,
      '',
      '| groups | D | true drop | steps | launches / step (this, beside) | inconclusive (this) | inconclusive (beside) | regressed (this) | regressed (beside) | passed (this) | passed (beside) |',
      '|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    )
    for (const m of [1, 2]) {
      for (const strategy of AUTO_STRATEGIES.filter((x) => x.maxDrop !== undefined).reverse()) {
        for (const drop of AUTO_DROPS) {
          const key = `${m}/${strategy.name}/${drop}`
          const a = sums(results, key)
          const b = sums(besideResults, key)
          const steps = a('steps')
          if (steps === 0 || b('steps') !== steps) continue
          const both = (field) => [cell(rate(a(field), steps)), cell(rate(b(field), steps))]
          const [ia, ib] = both('inconclusive')
          const [ra, rb] = both('regressed')
          const [pa, pb] = both('passed')
          lines.push(
            `| ${m} | ${strategy.maxDrop.toFixed(2)} | ${drop === 0 ? 'none' : drop} | ${steps} | ${(a('launches') / steps).toFixed(2)}, ${(b('launches') / steps).toFixed(2)} | ${ia} | ${ib} | ${ra} | ${rb} | ${pa} | ${pb} |`,
          )
        }
      }
    }
  }
  lines.push('', missed.length === 0 ? 'Targets met.' : `Targets missed: ${missed.join('; ')}.`, '', about, '')
  return {md: `${lines.join('\n')}\n`, missed}
}

// ——————————————————— failed and cancelled runs (issue 35 §6): the README's step on agents that fail runs ———————————————————
//
//   node bench/gate.mjs --section outcomes [--only unchanged,detect,taken] [--steps N] [--detect-steps N] [--taken-seeds N] [--workers N] [--seed S] [--quick]
//
// Through the built CLI against a dev server of the worker's, outcomes and scores drawn by the dev
// server's outcome plans from the bench's seeds (a plan's failRate and cancelRate):
//   1. unchanged (--steps, default 400): claude-code fails 2 % and is cancelled in 2 % of its
//      runs, scores N(0.84, 0.02); codex 15 % and 3 %, N(0.72, 0.04). Each step has a file of its
//      own: 30 launches saved with `evals baseline save --runs` (so the file records their failed
//      and cancelled runs), then the README's pull-request step, `evals run es_acme_checkout
//      --wait --wait-timeout 30m --min-score 0.5 --baseline-file FILE`, as it stands (default
//      --relaunches), with --relaunches 0 (no relaunch: a group none of whose runs succeeded is
//      inconclusive, exit 0), with --relaunches 0 --fail-inconclusive (as the step was before
//      failures were judged: every failed or cancelled run fails it) and with `--repeat auto
//      --max-drop 3sd`, each on the same draws; then codex broken (every run
//      fails): the plain step and auto again. Per row: steps failed (exit 10), by which group and
//      verdict, steps with an inconclusive group, launches a step. (--baseline-max-age 0: the
//      dev server's clock is the bench's, months from the CLI's; the reports are not written.)
//   2. detect (--detect-steps per row, default 200): a file whose codex group holds exactly 5
//      failed of 30 finished runs (claude-code: none of 30), a file per chunk of 25 steps; then
//      codex fails at a true rate p (claude-code never), judged by the plain step with at most 3
//      launches (--relaunches 2) and 5 (the default --relaunches 4), and by 5 launches at once
//      (--repeat 5 --relaunches 0, every run judged): how often codex is `failed`, at p = the
//      `detectableRate` the step reports (which it should catch 4 times in 5), 0.5 and 0.9.
//   3. taken (--taken-seeds per file size and noise, default 50): a file of N = 20, 30 or 50
//      runs (evals baseline save --baseline-runs N) of both groups at N(0.84, sd), sd 0.02 and
//      0.03, no failures; then codex drops by 4 sd (N(0.84 − 4 sd, sd)) and the default branch's
//      step (`--update-baseline`) runs launch after launch. Counted: the updates made before the
//      file has taken the new level in (the new level's mean is no longer below the file's mean
//      by more than its margin: a run scoring the new mean passes), and the launches failed before
//      the first one that passes.
// The tables and what they showed: docs/gate-measurements.md. Times on 2 shared cores (load average
// 11–25): the whole section about 17 min of wall time (unchanged 636 s, detect 842 s, taken 558 s
// of worker time); --quick (20, 25 and 4) under a minute. A missed target (codex broken: the plain
// step leaves a codex that fails every run inconclusive against a file in which it failed often)
// is a finding, said on stderr, and exits 1.

const OUT_SET = 'es_acme_checkout'
const OUT_AGENTS = [
  {agent: 'claude-code', mean: 0.84, sd: 0.02, failRate: 0.02, cancelRate: 0.02},
  {agent: 'codex', mean: 0.72, sd: 0.04, failRate: 0.15, cancelRate: 0.03},
]
const OUT_FILE_LAUNCHES = 30
/** The README's pull-request step ("Use in CI"), without its reports. */
const README_STEP = ['evals', 'run', OUT_SET, '--wait', '--wait-timeout', '30m', '--min-score', '0.5']
const OUT_STRATEGIES = [
  {name: 'plain', label: 'the README step (default --relaunches 4)', flags: []},
  {name: 'relaunches0', label: '`--relaunches 0` (no relaunch)', flags: ['--relaunches', '0']},
  {
    name: 'yesterday',
    label: '`--relaunches 0 --fail-inconclusive` (every failed or cancelled run fails the step)',
    flags: ['--relaunches', '0', '--fail-inconclusive'],
  },
  {name: 'auto', label: '`--repeat auto --max-drop 3sd`', flags: ['--repeat', 'auto', '--max-drop', '3sd']},
]
const OUT_SCENARIOS = [
  {name: 'unchanged', strategies: ['plain', 'relaunches0', 'yesterday', 'auto']},
  {name: 'broken', strategies: ['plain', 'auto']},
]
const OUT_TARGETS = {
  unchanged: {plain: {failed: 0.05, launches: 1.3}, auto: {failed: 0.05, launches: 2}},
  broken: {plain: {failedAtLeast: 1, launchesAtMost: 3}},
  detect: 0.8,
}
const DETECT_BASE = {failed: 5, finished: 30}
/** The steps compared: at most 3 launches (the default), 5 (relaunched while no run succeeded), and 5 launched at once (every run judged) */
const DETECT_STEPS = [
  {name: '3', label: 'at most 3 (`--relaunches 2`)', flags: ['--relaunches', '2']},
  {name: '5', label: 'at most 5 (the default `--relaunches 4`)', flags: ['--relaunches', '4']},
  {name: 'repeat5', label: '5 at once (`--repeat 5 --relaunches 0`)', flags: ['--repeat', '5', '--relaunches', '0']},
]
const DETECT_RATES = ['detectable', 0.5, 0.9]
const TAKEN_KEEPS = [20, 30, 50]
const TAKEN_NOISE = [0.02, 0.03]

async function outcomesMain(args) {
  const options = sectionArgs(args)
  const {workers, seed} = options
  // steps a row of each part: the full run's, or --quick's
  const [steps, detectSteps, takenSeeds] = [
    ['--steps', 400, 20],
    ['--detect-steps', 200, 25],
    ['--taken-seeds', 50, 4],
  ].map(([flag, full, quick]) => options.number(flag, options.quick ? quick : full))
  const only = options.text('--only', 'unchanged,detect,taken').split(',')
  const [chunks, CHUNK] = [[], 25]
  if (only.includes('unchanged'))
    for (let from = 0; from < steps; from += CHUNK) chunks.push({task: 'outcomes', from, to: Math.min(steps, from + CHUNK), seed})
  if (only.includes('detect'))
    for (let from = 0; from < detectSteps; from += CHUNK) chunks.push({task: 'detect', from, to: Math.min(detectSteps, from + CHUNK), seed})
  if (only.includes('taken'))
    for (const keep of TAKEN_KEEPS)
      for (const sd of TAKEN_NOISE)
        for (let from = 0; from < takenSeeds; from += CHUNK)
          chunks.push({task: 'taken', keep, sd, from, to: Math.min(takenSeeds, from + CHUNK), seed})
  const started = performance.now()
  const load = loadavg()[0]
  let done = 0
  const seconds = {}
  const results = await inWorkers(chunks, workers, () => {
    done++
    return `${done} of ${chunks.length} chunks (${Math.round((performance.now() - started) / 1000)} s)`
  })
  for (const r of results) seconds[r.task] = (seconds[r.task] ?? 0) + r.seconds
  const wall = (performance.now() - started) / 1000
  const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.versions.node}`
  const parts = Object.entries(seconds).map(([task, s]) => `${task} ${Math.round(s)} s`)
  const about = `seed ${seed}; ${workers} workers; ${Math.round(wall)} s of wall time (worker time by part: ${parts.join(', ')}) on ${machine}, load average ${load.toFixed(1)} at the start`
  const {md, missed} = renderOutcomes(results, about)
  if (!publish(options, 'gate-outcomes', md, {about, seconds: wall, results}, missed, 'steps')) process.exitCode = 1
}

/** The plans of a group's runs from now on (the next `count` runs of its agent). */
async function planAgents(session, agents, count) {
  for (const a of agents) {
    const {agent, status = 'succeeded', ...rest} = a
    await session.plan(OUT_SET, {agent, status, count, ...rest})
  }
}

/** Launches OUT_SET `n` times, a second apart: every run's ID, in order. */
async function launchMany(session, clock, n) {
  const ids = []
  for (let i = 0; i < n; i++) {
    clock.now += 1000
    const {runIds} = await session.launch(OUT_SET)
    ids.push(...runIds)
  }
  return ids
}

/** `evals baseline save --runs` of exactly these runs into `path` (more flags: `extra`): the file as written. */
async function saveRuns(amctl, dir, ids, path, extra = []) {
  const list = join(dir, 'runs.txt')
  writeFileSync(list, `${ids.join('\n')}\n`)
  await amctl(['evals', 'baseline', 'save', OUT_SET, '--file', path, '--runs', list, ...extra, '--json'])
  return JSON.parse(readFileSync(path, 'utf8'))
}

/** Each agent's verdict in a step's --json: its group's (--repeat), or the one its runs share; the worst when they differ. */
const VERDICT_ORDER = ['regressed', 'failed', 'cancelled', 'below-min-score', 'inconclusive', 'timeout', 'improved', 'passed']
function verdictsOf(doc) {
  const byAgent = {}
  const items = doc.gate?.groups ?? doc.groups ?? doc.gate?.runs ?? doc.runs
  for (const item of items) {
    byAgent[item.agent] ??= new Set()
    byAgent[item.agent].add(item.verdict)
  }
  return Object.fromEntries(
    Object.entries(byAgent).map(([agent, set]) => {
      const sorted = [...set].sort((a, b) => rank(a) - rank(b))
      return [agent, sorted[0]]
    }),
  )
}
const rank = (v) => (VERDICT_ORDER.includes(v) ? VERDICT_ORDER.indexOf(v) : -1)

/** A step's judged groups (with --json's `outcomes`), by agent. */
function groupsOf(doc) {
  const items = doc.gate?.groups ?? doc.groups ?? doc.gate?.runs ?? doc.runs
  const byAgent = {}
  for (const item of items) byAgent[item.agent] ??= item
  return byAgent
}

/**
 * `work({clock, session, dir})` against a dev server of its own (its clock the bench's) and a
 * temporary directory, both gone after: what work answers, with the seconds it took.
 */
async function inSession(startDevServer, name, work) {
  const t0 = performance.now()
  const clock = {now: Date.parse('2026-06-01T09:00:00.000Z')}
  const session = await devSession(startDevServer, () => clock.now)
  const dir = mkdtempSync(join(tmpdir(), `amctl-bench-${name}-`))
  try {
    return {...(await work({clock, session, dir})), seconds: (performance.now() - t0) / 1000}
  } finally {
    rmSync(dir, {recursive: true, force: true})
    await session.close()
  }
}

async function runOutcomes({from, to, seed}, amctl, startDevServer) {
  return inSession(startDevServer, 'outcomes', async ({clock, session, dir}) => {
    const cells = {}
    const files = {runs: 0, failed: 0, cancelled: 0, byAgent: {}}
    for (let step = from; step < to; step++) {
      clock.now += 60_000
      await session.call('DELETE', '/_dev/orgs/acme/outcomes')
      await planAgents(
        session,
        OUT_AGENTS.map((a, i) => ({...a, seed: mix(seed, step, i, 0)})),
        OUT_FILE_LAUNCHES,
      )
      const ids = await launchMany(session, clock, OUT_FILE_LAUNCHES)
      const path = join(dir, 'baseline.json')
      const file = await saveRuns(amctl, dir, ids, path)
      for (const g of file.groups) {
        files.byAgent[g.agent] ??= {runs: 0, failed: 0, cancelled: 0}
        const mine = files.byAgent[g.agent]
        mine.runs += OUT_FILE_LAUNCHES
        mine.failed += g.failed.length
        mine.cancelled += g.cancelled.length
      }
      clock.now += 60_000
      for (const [s, scenario] of OUT_SCENARIOS.entries()) {
        for (const name of scenario.strategies) {
          const strategy = OUT_STRATEGIES.find((x) => x.name === name)
          // the same draws for every strategy of a step and scenario: the plans' seeds are theirs
          await session.call('DELETE', '/_dev/orgs/acme/outcomes')
          const agents = OUT_AGENTS.map((a, i) =>
            scenario.name === 'broken' && a.agent === 'codex'
              ? {agent: a.agent, status: 'failed'}
              : {...a, seed: mix(seed, step, i, 1 + s)},
          )
          await planAgents(session, agents, 20)
          const {code, doc} = await amctl([...README_STEP, '--baseline-file', path, '--baseline-max-age', '0', ...strategy.flags, '--json'])
          const verdicts = verdictsOf(doc)
          const key = `${scenario.name}/${name}`
          cells[key] ??= {steps: 0, failed: 0, launches: 0, inconclusive: 0, reasons: {}, launchCounts: {}, byFile: {}}
          const cell = cells[key]
          const launches = doc.launches?.length ?? 1
          cell.steps++
          cell.launches += launches
          cell.launchCounts[launches] = (cell.launchCounts[launches] ?? 0) + 1
          // by the file's codex failures: what the failure test can see depends on them
          const mine = file.groups.find((g) => g.agent === 'codex')
          const base = `${mine.failed.length} of ${mine.failed.length + mine.runs.length}`
          cell.byFile[base] ??= {steps: 0, failed: 0, launches: 0}
          cell.byFile[base].steps++
          cell.byFile[base].launches += launches
          if (code === 10) cell.byFile[base].failed++
          if (code === 10) {
            cell.failed++
            const why = Object.entries(verdicts)
              .filter(([, v]) => v !== 'passed' && v !== 'improved' && v !== 'inconclusive')
              .map(([agent, v]) => `${agent} ${v}`)
              .join(' + ')
            cell.reasons[why] = (cell.reasons[why] ?? 0) + 1
          }
          if (Object.values(verdicts).includes('inconclusive')) cell.inconclusive++
        }
      }
    }
    return {task: 'outcomes', cells, files}
  })
}

async function runDetect({from, to, seed}, amctl, startDevServer) {
  return inSession(startDevServer, 'detect', async ({clock, session, dir}) => {
    const cells = {}
    const reported = {}
    // the file: codex exactly DETECT_BASE.failed failed of DETECT_BASE.finished (at seeded places), claude-code none
    const [claude, codex] = OUT_AGENTS
    const next = uniforms(mix(seed, from, 35))
    const places = new Set()
    while (places.size < DETECT_BASE.failed) places.add(Math.floor(next() * DETECT_BASE.finished))
    await session.plan(OUT_SET, {
      agent: claude.agent,
      mean: claude.mean,
      sd: claude.sd,
      seed: mix(seed, from, 36),
      count: DETECT_BASE.finished,
    })
    for (let i = 0; i < DETECT_BASE.finished; i++) {
      const run = places.has(i) ? {status: 'failed'} : {mean: codex.mean, sd: codex.sd, seed: mix(seed, from, 37, i)}
      await session.plan(OUT_SET, {agent: codex.agent, count: 1, ...run})
    }
    const ids = await launchMany(session, clock, DETECT_BASE.finished)
    const path = join(dir, 'baseline.json')
    const file = await saveRuns(amctl, dir, ids, path)
    const fileCodex = file.groups.find((g) => g.agent === codex.agent)
    if (fileCodex.failed.length !== DETECT_BASE.failed || fileCodex.runs.length !== DETECT_BASE.finished - DETECT_BASE.failed)
      throw new Error(`the file's codex group holds ${fileCodex.failed.length} failed and ${fileCodex.runs.length} runs`)
    clock.now += 60_000
    const step = async (flags, p, key) => {
      await session.call('DELETE', '/_dev/orgs/acme/outcomes')
      await planAgents(
        session,
        [
          {agent: claude.agent, mean: claude.mean, sd: claude.sd, seed: mix(seed, ...key, 1)},
          {agent: codex.agent, mean: codex.mean, sd: codex.sd, failRate: p, seed: mix(seed, ...key, 2)},
        ],
        20,
      )
      const argv = [...README_STEP, '--baseline-file', path, '--baseline-max-age', '0', ...flags, '--json']
      return amctl(argv)
    }
    // the rate each step reports it catches 4 times in 5: the same for every step of a file of 5 in 30
    for (const [d, {name, flags}] of DETECT_STEPS.entries()) {
      const {doc} = await step(flags, 0, [from, d, 0])
      reported[name] = groupsOf(doc)[codex.agent].outcomes.detectableRate
    }
    for (let s = from; s < to; s++) {
      for (const {name, flags} of DETECT_STEPS) {
        for (const [r, which] of DETECT_RATES.entries()) {
          const p = which === 'detectable' ? reported[name] : which
          if (p === null) continue
          // the same draws for each step compared at a rate
          const {code, doc} = await step(flags, p, [s, r + 1])
          const verdict = verdictsOf(doc)[codex.agent]
          const key = `${name}/${which}`
          cells[key] ??= {steps: 0, caught: 0, failedSteps: 0, launches: 0, p}
          const cell = cells[key]
          cell.steps++
          cell.launches += doc.launches?.length ?? 1
          if (verdict === 'failed') cell.caught++
          if (code === 10) cell.failedSteps++
        }
      }
    }
    return {task: 'detect', cells, reported}
  })
}

async function runTaken({keep, sd, from, to, seed}, amctl, startDevServer) {
  const t0 = performance.now()
  const seeds = []
  for (let s = from; s < to; s++) {
    const clock = {now: Date.parse('2026-06-01T09:00:00.000Z')}
    const session = await devSession(startDevServer, () => clock.now)
    const dir = mkdtempSync(join(tmpdir(), 'amctl-bench-taken-'))
    try {
      const key = [seed, keep, sd * 1000, s]
      const level = 0.84
      const dropped = round(level - 4 * sd)
      await planAgents(
        session,
        OUT_AGENTS.map((a, i) => ({agent: a.agent, mean: level, sd, seed: mix(...key, i, 0)})),
        keep,
      )
      const ids = await launchMany(session, clock, keep)
      const path = join(dir, 'main.json')
      await saveRuns(amctl, dir, ids, path, ['--baseline-runs', String(keep)])
      await session.call('DELETE', '/_dev/orgs/acme/outcomes')
      await planAgents(
        session,
        [
          {agent: 'claude-code', mean: level, sd, seed: mix(...key, 0, 1)},
          {agent: 'codex', mean: dropped, sd, seed: mix(...key, 1, 1)},
        ],
        1000,
      )
      // updates before the file took the new level in (a run at the new mean passes), launches failed before the first that passed
      let takenIn = null
      let firstPass = null
      let failedBefore = 0
      for (let launch = 1; (takenIn === null || firstPass === null) && launch <= 300; launch++) {
        clock.now += 60_000
        const {doc} = await amctl([...README_STEP, '--baseline-file', path, '--baseline-max-age', '0', '--update-baseline', '--json'])
        const codex = groupsOf(doc).codex
        if (takenIn === null && codex.baseline.mean - codex.margin <= dropped) takenIn = launch - 1
        if (firstPass === null) {
          if (codex.verdict === 'regressed') failedBefore++
          else firstPass = launch - 1
        }
      }
      seeds.push({takenIn, firstPass, failedBefore})
    } finally {
      rmSync(dir, {recursive: true, force: true})
      await session.close()
    }
  }
  return {task: 'taken', keep, sd, seeds, seconds: (performance.now() - t0) / 1000}
}

Object.assign(TASKS, {outcomes: runOutcomes, detect: runDetect, taken: runTaken})

function renderOutcomes(results, about) {
  const missed = []
  // a table's heading: a blank line (none before the first), its title, its header row and alignment
  const lines = []
  const heading = (title, header, align) => [...(lines.length === 0 ? [] : ['']), `#### ${title}`, '', header, align]
  // a task's results, and its table's heading when it has any
  const part = (task, ...table) => {
    const mine = results.filter((r) => r.task === task)
    if (mine.length > 0) lines.push(...heading(...table))
    return mine
  }
  const sumCells = (task, key) => {
    const total = {steps: 0, failed: 0, launches: 0, inconclusive: 0, reasons: {}, launchCounts: {}, byFile: {}, caught: 0, failedSteps: 0}
    for (const r of results.filter((x) => x.task === task)) {
      const c = r.cells[key]
      if (c === undefined) continue
      for (const f of ['steps', 'failed', 'launches', 'inconclusive', 'caught', 'failedSteps']) total[f] += c[f] ?? 0
      for (const [k, n] of Object.entries(c.reasons ?? {})) total.reasons[k] = (total.reasons[k] ?? 0) + n
      for (const [k, n] of Object.entries(c.launchCounts ?? {})) total.launchCounts[k] = (total.launchCounts[k] ?? 0) + n
      for (const [k, f] of Object.entries(c.byFile ?? {})) {
        total.byFile[k] ??= {steps: 0, failed: 0, launches: 0}
        for (const field of ['steps', 'failed', 'launches']) total.byFile[k][field] += f[field]
      }
      total.p = c.p
    }
    return total
  }
  const outcomes = part(
    'outcomes',
    'Unchanged agents, and codex broken, against a file of 30 launches',
    '| agents | step | steps | steps failed | why they failed (steps) | inconclusive | launches / step | launches (steps) |',
    '|---|---|--:|--:|---|--:|--:|---|',
  )
  if (outcomes.length > 0) {
    for (const scenario of OUT_SCENARIOS) {
      for (const name of scenario.strategies) {
        const c = sumCells('outcomes', `${scenario.name}/${name}`)
        if (c.steps === 0) continue
        const failed = rate(c.failed, c.steps)
        const launches = c.launches / c.steps
        const why = Object.entries(c.reasons)
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `${k || '(none)'}: ${n}`)
          .join('; ')
        const counts = Object.entries(c.launchCounts)
          .map(([k, n]) => `${k}: ${n}`)
          .join(', ')
        const label = OUT_STRATEGIES.find((x) => x.name === name).label
        lines.push(
          `| ${scenario.name === 'broken' ? 'codex broken (every run fails)' : 'unchanged'} | ${label} | ${c.steps} | ${cell(failed)} | ${why} | ${cell(rate(c.inconclusive, c.steps))} | ${launches.toFixed(2)} | ${counts} |`,
        )
        const target = OUT_TARGETS[scenario.name]?.[name]
        if (target?.failed !== undefined && failed.rate > target.failed)
          missed.push(`${scenario.name}, ${label}: ${cell(failed)} of steps failed > ${pct(target.failed)}`)
        if (target?.launches !== undefined && launches > target.launches)
          missed.push(`${scenario.name}, ${label}: ${launches.toFixed(2)} launches a step > ${target.launches}`)
        if (target?.failedAtLeast !== undefined && failed.rate < target.failedAtLeast)
          missed.push(`${scenario.name}, ${label}: ${cell(failed)} of steps failed < 100 %`)
        if (target?.launchesAtMost !== undefined && Math.max(...Object.keys(c.launchCounts).map(Number)) > target.launchesAtMost)
          missed.push(`${scenario.name}, ${label}: a step made more than ${target.launchesAtMost} launches`)
      }
    }
    // codex broken: what the failure test can see depends on the file's own codex failures
    for (const name of ['plain', 'auto']) {
      const c = sumCells('outcomes', `broken/${name}`)
      if (c.steps === 0) continue
      const rows = Object.entries(c.byFile)
        .sort((a, b) => Number(a[0].split(' ')[0]) - Number(b[0].split(' ')[0]))
        .map(([k, f]) => `${k}: ${f.failed} of ${f.steps} failed (${(f.launches / f.steps).toFixed(2)} launches)`)
      lines.push(
        '',
        `Codex broken, ${OUT_STRATEGIES.find((x) => x.name === name).label}, by the file's codex runs failed of finished: ${rows.join('; ')}.`,
      )
    }
    const byAgent = {}
    for (const r of outcomes)
      for (const [agent, f] of Object.entries(r.files.byAgent)) {
        byAgent[agent] ??= {runs: 0, failed: 0, cancelled: 0}
        const mine = byAgent[agent]
        for (const k of ['runs', 'failed', 'cancelled']) mine[k] += f[k]
      }
    lines.push(
      '',
      `The files' runs (${OUT_FILE_LAUNCHES} launches each): ${Object.entries(byAgent)
        .map(([agent, f]) => `${agent} ${pct(f.failed / f.runs)} failed, ${pct(f.cancelled / f.runs)} cancelled of ${f.runs}`)
        .join('; ')}.`,
    )
  }
  const detect = part(
    'detect',
    `Failures caught: codex's baseline ${DETECT_BASE.failed} failed of ${DETECT_BASE.finished}, a true failure rate p`,
    '| launches | reported `detectableRate` | true failure rate | steps | codex `failed` (caught) | steps failed | launches / step |',
    '|---|--:|--:|--:|--:|--:|--:|',
  )
  if (detect.length > 0) {
    const reported = detect[0].reported
    for (const r of detect)
      for (const {name} of DETECT_STEPS)
        if (r.reported[name] !== reported[name])
          throw new Error(`the reported detectable failure rate differs between files: ${r.reported[name]} ${reported[name]}`)
    for (const {name, label} of DETECT_STEPS) {
      if (reported[name] === null) lines.push(`| ${label} | none | | | | | |`)
      for (const which of DETECT_RATES) {
        const c = sumCells('detect', `${name}/${which}`)
        if (c.steps === 0) continue
        const caught = rate(c.caught, c.steps)
        const p = which === 'detectable' ? 'the reported rate' : pct(which)
        lines.push(
          `| ${label} | ${pct(reported[name])} | ${p} | ${c.steps} | ${cell(caught)} | ${cell(rate(c.failedSteps, c.steps))} | ${(c.launches / c.steps).toFixed(2)} |`,
        )
        if (which === 'detectable' && (caught.high < OUT_TARGETS.detect || caught.low > OUT_TARGETS.detect))
          missed.push(`detect, ${label}: the reported rate ${pct(reported[name])} is caught in ${cell(caught)}, not 80 %`)
      }
    }
  }
  const taken = part(
    'taken',
    'A 4 sd drop on the default branch (`--update-baseline`): launches until the file takes it in',
    '| runs in the file | noise sd | seeds | updates before a run at the new mean passes: median (10th–90th percentile; range) | launches failed before the first that passes: median (10th–90th; range) |',
    '|--:|--:|--:|---|---|',
  )
  if (taken.length > 0) {
    const spread = (values) => {
      const sorted = values.map((v) => v ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b)
      return `${quantileOf(sorted, 0.5)} (${quantileOf(sorted, 0.1)}–${quantileOf(sorted, 0.9)}; ${sorted[0]}–${sorted.at(-1)})`
    }
    for (const keep of TAKEN_KEEPS) {
      for (const sd of [...TAKEN_NOISE, 'both']) {
        const seeds = taken.filter((r) => r.keep === keep && (sd === 'both' || r.sd === sd)).flatMap((r) => r.seeds)
        if (seeds.length === 0) continue
        lines.push(
          `| ${keep} | ${sd === 'both' ? 'both' : sd} | ${seeds.length} | ${spread(seeds.map((x) => x.takenIn))} | ${spread(seeds.map((x) => x.firstPass))} |`,
        )
      }
    }
  }
  lines.push('', missed.length === 0 ? 'Targets met.' : `Targets missed: ${missed.join('; ')}.`, '', about, '')
  return {md: `${lines.join('\n')}\n`, missed}
}

if (process.argv[2] === '--worker') await worker(process.argv[3] ?? root)
else await main()
