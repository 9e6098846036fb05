#!/usr/bin/env node
// The levels of `--repeat auto` weighed in process (issue 35 §5): the one constant a side of
// src/gate/sequential.ts (Pocock-type, calibrated on the looks' multivariate t) beside the
// Bonferroni split over the looks, each judging the same draws.
//
//   node bench/sequential.mjs [--steps N] [--files N] [--check N] [--seed S] [--out DIR]
//
// - launches: a history of 20 runs per group, noise sd 0.03, at most 5 launches, C 0.95; one group
//   and two, --max-drop 0.10 and 0.05, a true drop of 0, of D and of 0.12; --steps steps a cell
//   (default 20,000), each on baselines of its own. Per cell and rule: the launches a step made, the
//   steps with a regressed group (false alarms with no drop), steps passed (every group cleared or
//   improved) and steps inconclusive, as bench/gate.mjs counts them, and the groups passed (what the
//   clearing bound holds at a drop of D, group by group), with 95 % Wilson intervals.
// - check: the rule bench/auto-rule.mjs simulates is the judge's: --check steps (default 400)
//   judged by it and by WatchState (src/gate/state.ts) on the same draws, step by step.
// - file: a baseline file's margin is the tolerance bound, whose level is a chance of a false alarm
//   that nine files in ten (FILE.tolerance) hold for their own draw. Files of 20 and 50 runs, one
//   group and two, --files files a row (default 4,000): the share of files whose own chance of a
//   false alarm at some of 5 looks (the worst --max-drop, below every margin) is at most (1 − C)/m,
//   with the level handed to the tolerance factor Bonferroni's, the constant for the file's n, or
//   the constant for a known sd (n infinite: given the file, the looks are a plain random walk).
//   The first row of each is one look at 1 − (1 − C)/m, the fixed-K file's own guarantee (nine in
//   ten by construction). Each file's chance is computed (gaussianCrossing on the looks given the
//   file), not drawn.
//
// The TypeScript of src/ is bundled with esbuild into OUT (default .bench/) first. Writes
// OUT/sequential.md and OUT/sequential.json; about 15 s on 2 cores.

import {writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {autoStep, drawStep} from './auto-rule.mjs'
import {bundleSource} from './harness.mjs'
import {normalDraws} from './random.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback)
const steps = option('--steps', 20_000)
const fileCount = option('--files', 4000)
const checkSteps = option('--check', 400)
const seed = option('--seed', 1)
const outDir = args.includes('--out') ? args[args.indexOf('--out') + 1] : join(root, '.bench')

const C = 0.95
const LOOKS = 5
const RUNS = 20
const SD = 0.03

const bundle = await bundleSource(root, outDir, 'sequential', [
  "export * from './src/gate/stats.ts'",
  "export * from './src/gate/sequential.ts'",
  "export {WatchState} from './src/gate/state.ts'",
])
const src = await import(pathToFileURL(bundle).href)
const {FILE, HISTORY, WatchState, gaussianCrossing, lookConfidence, predictionMargin, sequentialLevels, toleranceMargin} = src

// jstat's t quantile as the gate loads it, remembered: the simulations ask for few distinct ones
const tQuantile = await src.loadQuantile()
const known = new Map()
const quantile = (p, df) => {
  const key = `${p} ${df}`
  const q = known.get(key) ?? tQuantile(p, df)
  known.set(key, q)
  return q
}
const margin = (baseline, k, level) => predictionMargin(quantile, baseline, k, level, HISTORY.sdFloor)
const RULES = {
  bonferroni: (confidence, m, looks) => lookConfidence(confidence, m, looks),
  pocock: (confidence, m, looks, n) => lookConfidence(confidence, m, looks, n),
}

/** The 95 % Wilson interval of k in n, as percentages with one decimal. */
function rate(k, n) {
  const z = 1.959964
  const p = k / n
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n)
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))
  const pc = (x) => (100 * x).toFixed(1)
  return {rate: p, text: `${pc(p)} % (${pc(Math.max(0, centre - half))}–${pc(Math.min(1, centre + half))})`}
}

const started = performance.now()
const md = []
const document = {seed, steps, files: fileCount}

// ——— the constants ———
md.push(
  '## The levels (C 0.95, 5 looks)',
  '',
  '| n | groups | regressed at | Bonferroni | cleared at | Bonferroni | first call |',
  '|--:|--:|--:|--:|--:|--:|--:|',
)
document.levels = []
for (const n of [20, 50]) {
  for (const m of [1, 2]) {
    const t0 = performance.now()
    const levels = sequentialLevels(C, m, LOOKS, n)
    const ms = performance.now() - t0
    const bonferroni = lookConfidence(C, m, LOOKS)
    document.levels.push({n, m, ...levels, bonferroni, ms})
    const pc = (x) => `${(100 * x).toFixed(3)} %`
    md.push(
      `| ${n} | ${m} | ${pc(levels.regress)} | ${pc(bonferroni.regress)} | ${pc(levels.clear)} | ${pc(bonferroni.clear)} | ${ms.toFixed(0)} ms |`,
    )
  }
}

// ——— launches ———
md.push('', `## Launches (history of ${RUNS}, sd ${SD}, at most ${LOOKS} launches, ${steps} steps a cell)`, '')
md.push(
  '| groups | D | true drop | levels | launches / step | regressed | passed | inconclusive | groups passed |',
  '|--:|--:|--:|---|--:|--:|--:|--:|--:|',
)
document.launches = []
for (const groups of [1, 2]) {
  for (const maxDrop of [0.1, 0.05]) {
    for (const drop of [0, maxDrop, 0.12]) {
      const z = normalDraws(seed * 1_000_003 + groups * 1009 + Math.round(maxDrop * 100) * 101 + Math.round(drop * 100))
      const tally = () => ({launches: 0, regressed: 0, passed: 0, inconclusive: 0, groupsPassed: 0})
      const cells = {bonferroni: tally(), pocock: tally()}
      for (let s = 0; s < steps; s++) {
        const step = drawStep(z, {groups, runs: RUNS, looks: LOOKS, sd: SD, drop})
        for (const [name, levels] of Object.entries(RULES)) {
          const result = autoStep(step, {maxDrop, looks: LOOKS, confidence: C, levels, margin})
          cells[name].launches += result.launches
          cells[name][result.outcome]++
          cells[name].groupsPassed += result.verdicts.filter((v) => v === 'passed' || v === 'improved').length
        }
      }
      for (const [name, cell] of Object.entries(cells)) {
        const row = {groups, maxDrop, drop, levels: name, launches: cell.launches / steps}
        for (const outcome of ['regressed', 'passed', 'inconclusive']) row[outcome] = rate(cell[outcome], steps)
        row.groupsPassed = rate(cell.groupsPassed, groups * steps)
        document.launches.push(row)
        md.push(
          `| ${groups} | ${maxDrop} | ${drop} | ${name} | ${row.launches.toFixed(2)} | ${row.regressed.text} | ${row.passed.text} | ${row.inconclusive.text} | ${row.groupsPassed.text} |`,
        )
      }
    }
  }
}

// ——— check: the simulated rule is WatchState's ———
const watchStep = (step, {maxDrop}) => {
  const choice = {kind: 'history', windowS: 0, runs: RUNS, confidence: C}
  const decided = new Map()
  for (let look = 1; look <= LOOKS; look++) {
    const runs = step.launches.flatMap((scores, g) =>
      scores.slice(0, look).map((score, i) => ({
        id: `g${g}r${i}`,
        status: 'succeeded',
        score,
        evalSetId: 'es',
        agent: `a${g}`,
        model: 'm',
        batchId: null,
        forkedFrom: null,
        createdAt: '2026-01-01T00:00:00Z',
      })),
    )
    const state = new WatchState(
      runs.map((r) => r.id),
      {
        failFast: false,
        grouped: true,
        asGroups: true,
        baseline: choice,
        quantile,
        maxDrop,
        launches: {made: look, max: LOOKS, first: 1, auto: true, decided},
      },
    )
    state.apply(new Map(runs.map((r) => [r.id, r])), 0)
    // outcomes unknown (null): no failure test, as in the simulated rule (a baseline that records
    // 0 failed of 20 has one, which takes part of each group's share and moves the score levels)
    const history = (b) => ({
      kind: 'history',
      runs: b.n,
      mean: b.mean,
      sd: b.sd,
      window: null,
      runIds: [],
      scores: b.scores,
      times: [],
      outliers: [],
      outcomes: null,
    })
    state.setBaselines(new Map(state.groups().map((g) => [g.id, history(step.baselines[Number(g.id.split(' ')[1].slice(1))])])))
    const judged = state.judged()
    if (state.verdict() !== 'undecided' || look === LOOKS) {
      return {
        launches: look,
        verdicts: judged.map(({judgement}) => (judgement.verdict === 'inconclusive' ? 'undecided' : judgement.verdict)),
      }
    }
    for (const {group, judgement} of judged) if (!judgement.more) decided.set(group.id, judgement)
  }
  throw new Error('a step went past its last launch')
}
const agree = {bonferroni: 0, pocock: 0}
const z = normalDraws(seed * 7919 + 17)
for (let s = 0; s < checkSteps; s++) {
  const maxDrop = s % 2 === 0 ? 0.05 : 0.1
  const step = drawStep(z, {groups: 2, runs: RUNS, looks: LOOKS, sd: SD, drop: [0, 0.05, 0.1][s % 3]})
  const watched = watchStep(step, {maxDrop})
  for (const [name, levels] of Object.entries(RULES)) {
    const simulated = autoStep(step, {maxDrop, looks: LOOKS, confidence: C, levels, margin})
    if (simulated.launches === watched.launches && simulated.verdicts.join() === watched.verdicts.join()) agree[name]++
  }
}
document.check = {steps: checkSteps, agree}
md.push('', `## The simulated rule against WatchState (${checkSteps} steps, two groups, D 0.05 and 0.10)`, '')
md.push(
  `WatchState decided as the simulation with Bonferroni's levels in ${agree.bonferroni} of ${checkSteps} steps, with the constants in ${agree.pocock}.`,
)

// ——— file: the tolerance bound's own guarantee over the looks ———
const tolerance = await src.loadToleranceFactor()
md.push('', `## A baseline file's own false alarms over ${LOOKS} looks (${fileCount} files a row, FILE.tolerance ${FILE.tolerance})`, '')
md.push(
  '| n | groups | level handed to the tolerance factor | per look | files whose own chance is ≤ (1 − C)/m | mean chance |',
  '|--:|--:|---|--:|--:|--:|',
)
document.file = []
const ks = Array.from({length: LOOKS}, (_, j) => j + 1)
for (const n of [20, 50]) {
  for (const m of [1, 2]) {
    const alpha = (1 - C) / m
    const choices = {
      Bonferroni: lookConfidence(C, m, LOOKS).regress,
      [`constant for n = ${n}`]: sequentialLevels(C, m, LOOKS, n).regress,
      'constant for a known sd': sequentialLevels(C, m, LOOKS, Number.POSITIVE_INFINITY).regress,
    }
    const zf = normalDraws(seed * 104_729 + n * 31 + m)
    const files = Array.from({length: fileCount}, () => {
      const scores = Array.from({length: n}, () => SD * zf())
      const mean = scores.reduce((a, b) => a + b, 0) / n
      return {mean, sd: Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1))}
    })
    // the first row, one look at 1 − (1 − C)/m, is the fixed-K file's own guarantee: FILE.tolerance of the files by construction
    for (const [name, level, looks] of [
      ['one look (fixed K)', 1 - alpha, [1]],
      ...Object.entries(choices).map(([name, level]) => [name, level, ks]),
    ]) {
      let held = 0
      let sum = 0
      for (const file of files) {
        // a false alarm at look k: the mean of k new runs (true mean 0) below the file's mean by more than the margin
        const bounds = looks.map(
          (k) => (Math.sqrt(k) * (toleranceMargin(tolerance, {n, sd: file.sd}, k, level, HISTORY.sdFloor) - file.mean)) / SD,
        )
        const chance = gaussianCrossing(bounds, looks)
        if (chance <= alpha) held++
        sum += chance
      }
      const row = {n, m, level: name, looks: looks.length, perLook: level, held: rate(held, fileCount), mean: sum / fileCount}
      document.file.push(row)
      md.push(`| ${n} | ${m} | ${name} | ${(100 * level).toFixed(3)} % | ${row.held.text} | ${(100 * row.mean).toFixed(2)} % |`)
    }
  }
}

document.seconds = (performance.now() - started) / 1000
md.push('', `${document.seconds.toFixed(0)} s, seed ${seed}.`, '')
const text = md.join('\n')
process.stdout.write(text)
writeFileSync(join(outDir, 'sequential.md'), text)
writeFileSync(join(outDir, 'sequential.json'), `${JSON.stringify(document, null, 2)}\n`)
