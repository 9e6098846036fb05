// The rule of `--repeat auto` (WatchState.judge, src/gate/state.ts) for groups judged against a
// baseline of many runs, in plain JavaScript, for the simulations that weigh its levels in
// process: bench/sequential.mjs (the figures) and test/gate/sequential.test.ts. The margin code
// and the levels come in as functions (src/gate/stats.ts predictionMargin or toleranceMargin,
// lookConfidence), so that one set of draws is judged by two choices of levels; bench/sequential.mjs
// checks that it decides every step as WatchState does on the same draws.

const round6 = (x) => Math.round(x * 1e6) / 1e6

/** A baseline of `scores`: their mean and sample sd (every run kept: no outlier is drawn). */
function summary(scores) {
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length
  const sd = Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (scores.length - 1))
  return {n: scores.length, mean, sd, scores}
}

/**
 * The draws of one step: `groups` baselines of `runs` scores N(mean, sd), and for each group the
 * scores of `looks` launches, N(mean − drop, sd); `z` gives N(0, 1) draws (bench/random.mjs).
 */
export function drawStep(z, {groups, runs, looks, sd, drop, mean = 0.7}) {
  const baselines = []
  const launches = []
  for (let g = 0; g < groups; g++) {
    baselines.push(summary(Array.from({length: runs}, () => mean + sd * z())))
    launches.push(Array.from({length: looks}, () => mean - drop + sd * z()))
  }
  return {baselines, launches}
}

/**
 * One look at one group, as the judge decides it: its k scores so far against `baseline` ({n,
 * mean, sd}), with `margin(baseline, k, level)` and the look's `levels` ({regress, clear}).
 */
export function judgeLook(scores, baseline, maxDrop, levels, margin) {
  const k = scores.length
  const score = round6(scores.reduce((a, b) => a + b, 0) / k)
  const delta = round6(score - baseline.mean)
  const noise = round6(margin(baseline, k, levels.regress))
  if (-delta > Math.max(maxDrop, noise)) return 'regressed'
  if (delta > noise) return 'improved'
  const upper = round6(-delta + margin(baseline, k, levels.clear))
  return upper < maxDrop ? 'passed' : 'undecided'
}

/**
 * A step of `--repeat auto` on drawn `step`: after each launch every undecided group is judged on
 * its scores so far at `levels(confidence, m, looks, n)` (m: the groups), a decided group stays
 * decided, and the next launch is made only while some group is undecided and none regressed.
 * `outcome`, as bench/gate.mjs counts steps: regressed (some group), else inconclusive (some group
 * still undecided after the last launch), else passed.
 */
export function autoStep(step, {maxDrop, looks, confidence, levels, margin}) {
  const m = step.baselines.length
  const verdicts = Array(m).fill('undecided')
  let launches = 0
  while (launches < looks && verdicts.includes('undecided') && !verdicts.includes('regressed')) {
    launches++
    for (let g = 0; g < m; g++) {
      if (verdicts[g] !== 'undecided') continue
      const baseline = step.baselines[g]
      verdicts[g] = judgeLook(step.launches[g].slice(0, launches), baseline, maxDrop, levels(confidence, m, looks, baseline.n), margin)
    }
  }
  const outcome = verdicts.includes('regressed') ? 'regressed' : verdicts.includes('undecided') ? 'inconclusive' : 'passed'
  return {launches, verdicts, outcome}
}
