import {describe, expect, it} from 'vitest'
import {
  detectableRate,
  failureTest,
  findDetectableRate,
  findFailureTest,
  type Looks,
  predictiveTail,
  RATE_POWER,
} from '../../src/gate/outcomes.js'
import type {Rate as Outcomes} from '../../src/gate/rules.js'

// The failure test: the beta-binomial predictive of a baseline's failures, its threshold at an
// exact size, and the failure rate it catches. The tails are checked against scipy's betabinom;
// the size and the detection against a brute-force enumeration of every sequence of outcomes.

describe('predictiveTail: P(X ≥ x) of the beta-binomial predictive, p ~ Beta(f + 1, n − f + 1)', () => {
  it.each([
    // [x, m, failed, finished, scipy.stats.betabinom.sf(x - 1, m, f + 1, n - f + 1)]
    [1, 1, 0, 50, 0.01923076923076905],
    [1, 1, 5, 30, 0.18750000000000067],
    [3, 3, 5, 30, 0.009358288770054068],
    [2, 5, 5, 30, 0.24398395721925148],
    [4, 5, 5, 30, 0.009358288770053735],
    [1, 2, 0, 50, 0.03773584905660399],
    [2, 2, 0, 30, 0.0018939393939393367],
    [3, 10, 1, 28, 0.044862676441623894],
    [7, 20, 3, 40, 0.010387659245154834],
  ])('%i failures of %i against %i failed in %i: %f', (x, m, failed, finished, expected) => {
    expect(predictiveTail(x, m, {failed, finished})).toBeCloseTo(expected, 12)
  })

  it('one failure of an agent that never failed in 50 runs is 1/52; none is certain; more than m is impossible', () => {
    expect(predictiveTail(1, 1, {failed: 0, finished: 50})).toBeCloseTo(1 / 52, 15)
    expect(predictiveTail(0, 3, {failed: 2, finished: 10})).toBe(1)
    expect(predictiveTail(4, 3, {failed: 2, finished: 10})).toBe(0)
  })
})

/** Every sequence of `length` outcomes (true: failed), as bit patterns. */
function* sequences(length: number): Generator<boolean[]> {
  for (let bits = 0; bits < 2 ** length; bits++) yield Array.from({length}, (_, i) => ((bits >> i) & 1) === 1)
}

/** The predictive probability of one sequence, from the Beta posterior's moments by direct products. */
function predictive(sequence: boolean[], base: Outcomes): number {
  let a = base.failed + 1
  let b = base.finished - base.failed + 1
  let p = 1
  for (const failed of sequence) {
    p *= (failed ? a : b) / (a + b)
    if (failed) a++
    else b++
  }
  return p
}

/** Whether `sequence` crosses `threshold` at one of the counts in `looks`, going on past a look only while `goesOn`. */
function crosses(
  sequence: boolean[],
  base: Outcomes,
  threshold: number,
  looks: number[],
  goesOn: (x: number, c: number) => boolean,
): boolean {
  let x = 0
  for (let c = 1; c <= sequence.length; c++) {
    if (sequence[c - 1]) x++
    if (!looks.includes(c)) continue
    if (x > 0 && predictiveTail(x, c, base) <= threshold) return true
    if (!goesOn(x, c)) return false
  }
  return false
}

/** --repeat auto's looks: a group may be looked at again after a success, at any count up to `max`. */
const free = (max: number): Looks => ({first: 1, perLaunch: 1, max, free: true})

/** Every schedule of finished counts a step of `looks` can make: the first launch's 1..first, each later one's 1..perLaunch, up to max. */
function* schedules(looks: Looks, prefix: number[] = []): Generator<number[]> {
  const done = prefix.reduce((a, b) => a + b, 0)
  const most = prefix.length === 0 ? looks.first : looks.perLaunch
  for (let m = 1; m <= Math.min(most, looks.max - done); m++) {
    const schedule = [...prefix, m]
    yield schedule
    yield* schedules(looks, schedule)
  }
}

/** The exact size of a threshold by brute force: every sequence of outcomes, under every schedule of looks the step can make; the largest. */
function bruteSize(base: Outcomes, looks: Looks, threshold: number): number {
  if (looks.free) {
    const every = Array.from({length: looks.max}, (_, i) => i + 1)
    let size = 0
    for (const sequence of sequences(looks.max))
      if (crosses(sequence, base, threshold, every, () => true)) size += predictive(sequence, base)
    return size
  }
  let worst = 0
  for (const schedule of schedules(looks)) {
    const at: number[] = []
    for (const m of schedule) at.push((at.at(-1) ?? 0) + m)
    const length = at[at.length - 1]
    let size = 0
    for (const sequence of sequences(length))
      if (crosses(sequence, base, threshold, at, (x, c) => x === c)) size += predictive(sequence, base)
    worst = Math.max(worst, size)
  }
  return worst
}

describe('failureTest: the largest threshold whose exact size fits the budget', () => {
  it.each([
    [{failed: 5, finished: 30}, free(3), 0.0125],
    [{failed: 0, finished: 30}, free(3), 0.0125],
    [{failed: 1, finished: 50}, free(6), 0.025],
    [{failed: 8, finished: 30}, free(8), 0.0125],
    [{failed: 12, finished: 20}, free(10), 0.005],
    // the plain step (one run a launch), --repeat 3 with its relaunches, two runs of a group a launch
    [{failed: 5, finished: 30}, {first: 1, perLaunch: 1, max: 5, free: false}, 0.0125],
    [{failed: 0, finished: 20}, {first: 3, perLaunch: 3, max: 9, free: false}, 0.0125],
    [{failed: 8, finished: 30}, {first: 1, perLaunch: 1, max: 5, free: false}, 0.0125],
    [{failed: 2, finished: 40}, {first: 4, perLaunch: 2, max: 8, free: false}, 0.025],
    [{failed: 12, finished: 20}, {first: 2, perLaunch: 2, max: 6, free: false}, 0.005],
  ])(
    'against %j, looks %j, budget %f: the size is every crossing sequence, summed, the largest over the ways the launches can finish, within the budget',
    (base, looks, budget) => {
      const test = failureTest(base, looks, budget)
      expect(test.size).toBeCloseTo(bruteSize(base, looks, test.threshold), 12)
      expect(test.size).toBeLessThanOrEqual(budget)
      // the next attainable threshold would spend more than the budget
      const counts = Array.from({length: looks.max}, (_, i) => i + 1)
      const tails = counts.flatMap((c) => Array.from({length: c}, (_, i) => predictiveTail(i + 1, c, base)))
      // (above it by more than rounding: a tail reached by two sums may differ in its last bits)
      const above = tails.filter((t) => t > test.threshold * (1 + 1e-9))
      if (above.length > 0) expect(bruteSize(base, looks, Math.min(...above))).toBeGreaterThan(budget)
    },
  )

  it('the agent that fails 5 of 30: three failures in a row are beyond its rate, two are not; one that never failed: two are', () => {
    const base = {failed: 5, finished: 30}
    expect(failureTest(base, free(3), 0.0125).threshold).toBeGreaterThanOrEqual(predictiveTail(3, 3, base))
    expect(failureTest(base, free(3), 0.0125).threshold).toBeLessThan(predictiveTail(2, 2, base))
    expect(failureTest({failed: 0, finished: 30}, free(3), 0.0125).threshold).toBeGreaterThanOrEqual(
      predictiveTail(2, 2, {failed: 0, finished: 30}),
    )
  })

  it('a step that relaunches only while every run failed spends its budget on those runs: more relaunches, no less power at the first look', () => {
    // --repeat 3 against a history of 20 that never failed: 2 failures of 3 are beyond its rate with 2 relaunches or 4,
    // which a count of every sequence up to 15 runs would forbid
    const base = {failed: 0, finished: 20}
    const twoOfThree = predictiveTail(2, 3, base)
    for (const relaunches of [2, 4]) {
      const looks = {first: 3, perLaunch: 3, max: 3 * (1 + relaunches), free: false}
      expect(failureTest(base, looks, 0.0125).threshold, `${relaunches} relaunches`).toBeGreaterThanOrEqual(twoOfThree)
    }
    expect(failureTest(base, free(15), 0.0125).threshold).toBeLessThan(twoOfThree)
    // the plain step against 6 failed of 30: every run failing is beyond its rate at the fourth launch, not the third
    const flaky = {failed: 6, finished: 30}
    const plain = (max: number) => failureTest(flaky, {first: 1, perLaunch: 1, max, free: false}, 0.0125).threshold
    expect(plain(3)).toBeLessThan(predictiveTail(3, 3, flaky))
    expect(plain(5)).toBeGreaterThanOrEqual(predictiveTail(4, 4, flaky))
  })

  it('a budget nothing fits spends nothing: threshold 0', () => {
    expect(failureTest({failed: 15, finished: 20}, free(1), 0.001)).toEqual({threshold: 0, size: 0})
    expect(failureTest({failed: 15, finished: 20}, {first: 1, perLaunch: 1, max: 1, free: false}, 0.001)).toEqual({threshold: 0, size: 0})
  })
})

describe('detectableRate: the failure rate a step catches 4 times in 5, relaunching only while every run failed', () => {
  it.each([
    [{failed: 5, finished: 30}, 1, 1, 3],
    [{failed: 5, finished: 30}, 1, 1, 5],
    [{failed: 0, finished: 30}, 1, 1, 3],
    [{failed: 2, finished: 40}, 3, 1, 5],
  ])('against %j, first look at %i runs, %i a launch, at most %i: caught with probability 0.8 there', (base, first, perLaunch, maxRuns) => {
    const test = failureTest(base, free(maxRuns), 0.0125)
    const rate = detectableRate(base, test, first, perLaunch, maxRuns) as number
    const looks: number[] = []
    for (let c = first; c <= maxRuns; c += perLaunch) looks.push(c)
    const caught = (r: number) => {
      let p = 0
      for (const sequence of sequences(maxRuns)) {
        if (!crosses(sequence, base, test.threshold, looks, (x, c) => x === c)) continue
        p += sequence.reduce((w, failed) => w * (failed ? r : 1 - r), 1)
      }
      return p
    }
    expect(caught(rate)).toBeCloseTo(RATE_POWER, 6)
    expect(caught(rate * 0.95)).toBeLessThan(RATE_POWER)
  })

  it("the issue's worked case, 5 failed in 30: three launches catch only a rate of about 93 %", () => {
    const base = {failed: 5, finished: 30}
    expect(detectableRate(base, failureTest(base, free(3), 0.0125), 1, 1, 3)).toBeCloseTo(0.8 ** (1 / 3), 6)
  })

  it('nothing is caught that often when the runs the step may make cannot cross: null', () => {
    const base = {failed: 10, finished: 20}
    expect(detectableRate(base, failureTest(base, free(1), 0.0125), 1, 1, 1)).toBeNull()
  })
})

describe('the caches: failureTest and detectableRate give what they compute (issue 37 item 11)', () => {
  // every argument moves across the grid, and each point is asked twice, interleaved with the
  // others: an entry found under another point's key, or a key that leaves an argument out, differs
  const bases: Outcomes[] = [
    {failed: 0, finished: 20},
    {failed: 0, finished: 50},
    {failed: 2, finished: 22},
    {failed: 2, finished: 40},
    {failed: 5, finished: 30},
  ]
  const budgets = [0.05, 0.025, 0.005]
  const grid = bases.flatMap((base) =>
    [3, 5, 8].flatMap((maxRuns) =>
      budgets.flatMap((budget) =>
        [1, 2].flatMap((perLaunch) =>
          [1, 3].flatMap((first) =>
            [false, true].map((auto) => ({base, maxRuns, budget, perLaunch, first, looks: {first, perLaunch, max: maxRuns, free: auto}})),
          ),
        ),
      ),
    ),
  )

  it('over a grid of baselines, runs allowed, budgets and launches, asked twice: the same as computed afresh', () => {
    for (const pass of [1, 2]) {
      for (const {base, maxRuns, budget, perLaunch, first, looks} of grid) {
        const fresh = findFailureTest(base, looks, budget)
        expect(failureTest(base, looks, budget), `pass ${pass}: ${JSON.stringify({base, looks, budget})}`).toEqual(fresh)
        expect(
          detectableRate(base, fresh, first, perLaunch, maxRuns),
          `pass ${pass}: ${JSON.stringify({base, maxRuns, budget, perLaunch, first})}`,
        ).toBe(findDetectableRate(base, fresh, first, perLaunch, maxRuns))
      }
    }
  })

  it('the grid is not flat: its points give different answers', () => {
    const thresholds = new Set(grid.map(({base, looks, budget}) => failureTest(base, looks, budget).threshold))
    const rates = new Set(
      grid.map(({base, maxRuns, budget, perLaunch, first, looks}) =>
        detectableRate(base, failureTest(base, looks, budget), first, perLaunch, maxRuns),
      ),
    )
    // and the ways a step looks matter: a step of relaunches and --repeat auto differ somewhere
    expect(
      grid.some(
        ({base, budget, looks}) =>
          failureTest(base, looks, budget).threshold !== failureTest(base, {...looks, free: !looks.free}, budget).threshold,
      ),
    ).toBe(true)
    expect(thresholds.size).toBeGreaterThan(10)
    expect(rates.size).toBeGreaterThan(4)
  })
})
