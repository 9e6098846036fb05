/**
 * The levels of `--repeat auto` (docs/ci.md "Launches only where the evidence is unclear"): one
 * constant per side for every look (Pocock-type), calibrated on the exact joint law of the looks'
 * statistics, where a Bonferroni split over the looks assumes the worst of it.
 *
 * **The looks.** At look j a group is judged on its first k_j new scores against the baseline's n
 * (mean x̄, sd s, ν = n − 1 degrees of freedom) through T_j = (ȳ_j − x̄) / (s √(1/k_j + 1/n)). The
 * numerators share x̄ and the earlier scores, the denominators share s: (T_1 … T_L) is multivariate
 * t with ν degrees of freedom and correlation √((1/k_j + 1/n) / (1/k_i + 1/n)) between looks i < j
 * (cov(ȳ_i − x̄, ȳ_j − x̄) = σ²(1/k_j + 1/n)). That is the correlation of a Brownian motion at the
 * information times I_j = 1 / (1/k_j + 1/n): with Z_j the numerator over σ √(1/k_j + 1/n),
 * S_j = Z_j √I_j has independent normal increments of variance I_j − I_{j−1}, and T_j = Z_j / r with
 * r = s/σ, √(χ²_ν / ν), independent of the Z's.
 *
 * **The crossing probability** P(max_j T_j > b) = E_r[G(b r)], where G(a) = P(S_j > a √I_j for
 * some j) comes from the classic recursive numerical integration of group-sequential designs
 * (Armitage, McPherson and Rowe 1969; Jennison and Turnbull 2000, chapter 19): the sub-density of
 * S_j on the paths still below the boundary, look after look, each the last one's convolved with the
 * normal kernel of the increment (gaussianCrossing). log G is smooth in a, so it is computed once per
 * (n, looks) at Chebyshev nodes and interpolated; the mean over r is a trapezoidal rule in log r,
 * which converges geometrically on such a smooth, fast-decaying integrand. The levels it gives hold
 * α to a few parts in a million at the default levels (one part in 10,000 at α = 0.0001), checked
 * in test/gate/sequential.test.ts against scipy's multivariate t, Pocock's published constants and a
 * Monte Carlo of the scores.
 *
 * **The levels.** With α = (1 − C)/m for regressed and 1 − C for cleared, b solves P(max_j T_j > b) = α
 * (bisection: P falls as b rises), and the level handed to the margins is c′ = P(T_1 ≤ b), the
 * one-sided level whose t(c′, ν) quantile is b: `predictionMargin(quantile, …, c′)` is then b × sd ×
 * √(1/k + 1/n), the boundary itself, with no other change to the margins. The lower and the upper
 * crossing have the same law (the T's are symmetric), so one constant per α serves both sides:
 *
 * - regressed: an unchanged group (true drop 0) is below the baseline by more than the margin at some
 *   look with probability α = (1 − C)/m exactly, so at most that under the rule (the drop must also
 *   exceed --max-drop, the sd has a floor, and a group cleared or improved earlier is never judged
 *   again: each only removes paths), and the step's m groups stay at most 1 − C (the union bound);
 * - cleared: a group whose true drop is D has (−delta − D) / (s √(1/k + 1/n)) distributed as T_j, and
 *   is cleared at look j when that is below −b: at some look with probability at most 1 − C.
 *
 * For L = 1 the levels are the fixed-K ones exactly (1 − (1 − C)/m and C). For L > 1 they lie
 * strictly between those and Bonferroni's 1 − (1 − C)/(m L): the looks are positively correlated, so
 * the L crossings overlap and the split over them pays for a union that is smaller than their sum.
 *
 * **Launches that add more than one score.** The rule judges k = the group's scores so far; the levels
 * are calibrated for k_j = j (one scored run of the group per launch). A launch that adds R runs of a
 * group (k_j = R j) raises every correlation √(k_i (n + k_j) / (k_j (n + k_i))), so by Slepian's
 * inequality the crossing probability only falls: the levels stay valid, a little conservative
 * (n 20, 5 looks, C 0.95, R = 3: 4.7 % instead of 5 %). A launch whose run of the group failed repeats the
 * last k: the looks are then a subset of the design's, which only lowers the probability too.
 * Growths that are not of these kinds (k 1 then 10) would need crossingProbability with their k's.
 *
 * **The baseline file.** Its margin is the tolerance bound (./stats.ts toleranceMargin), whose level
 * is a per-look chance of a false alarm that the file's own draw holds with confidence FILE.tolerance:
 * the bound already answers for the file's mean and sd being estimates. Given the file the looks
 * share nothing more; they are a plain random walk, correlation √(k_i / k_j), the n → ∞ limit of the
 * formula above. So a file's levels are these levels for n = ∞ (a known sd: normal, not t). Measured
 * (bench/sequential.mjs, files of 20 and 50 runs, 1 and 2 groups, 5 looks, 4,000 files each), the
 * share of files whose own chance of a false alarm at some look is at most (1 − C)/m is then 89.5–
 * 90.7 %, as the one-look file's own guarantee (89.7–90.5 %); the constant for the file's n would
 * make it 88.4–90.0 % (looser than the file's guarantee), Bonferroni's 93.2–97.0 % (tighter).
 *
 * Written out here rather than taken from jstat (which the gate loads with import(), asynchronously,
 * only in the commands that judge, while WatchState.judge asks for these levels synchronously): no
 * kept library computes multivariate t or group-sequential crossing probabilities, and the integrals
 * need nothing but the normal and the chi densities, two exponentials. Their one-look case is
 * Student's t distribution function, which test/gate/sequential.test.ts checks against jstat's.
 */

/** Both levels of one look (each a one-sided confidence handed to the margin code). */
export interface LookLevels {
  /** the confidence of the regressed (and improved) margin at every look */
  regress: number
  /** the confidence of the cleared bound at every look */
  clear: number
}

/** Grid points per standard deviation of the narrowest normal kernel a grid is integrated against. */
const STEPS_PER_SD = 6
/** The kernel is cut this many of its sds from its centre (its weight beyond: 8e-11). */
const KERNEL_SDS = 6.5
/** A grid reaches this many sds of S_j below 0: the paths beyond (1e-9 of them) are dropped, as they never cross later. */
const TAIL_SDS = 6
/** A boundary beyond this many sds is never crossed (the chance: 3e-14 a look). */
const TOP = 7.5
/** Chebyshev nodes of log G on [0, TOP]. */
const CHEBYSHEV_NODES = 24
/** The trapezoidal rule in log r: this many steps per sd of log r, and log-weights down to this far below the peak. */
const LOG_R_STEPS_PER_SD = 2
const LOG_R_DEPTH = 36

/**
 * End-corrected trapezoidal weights at a grid's cut end (Gregory's formula to the fifth
 * difference): the rule stays accurate to h⁶ where the sub-density is cut by the boundary, which
 * the plain trapezoidal rule (h²) or Simpson's (h⁴) are not. The grid's other end lies where the
 * density is nil, and the interior is the trapezoidal rule, geometrically accurate on Gaussians.
 */
const END_WEIGHTS = [19087 / 60480, 84199 / 60480, 18869 / 30240, 37621 / 30240, 55031 / 60480, 61343 / 60480]

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI)

/** The information of each look: I_j = 1 / (1/k_j + 1/n), for strictly increasing score counts k_j. */
export function lookInformation(n: number, ks: readonly number[]): number[] {
  ks.forEach((k, j) => {
    if (!(k > (j === 0 ? 0 : ks[j - 1]))) throw new RangeError(`the looks' score counts must increase: ${ks.join(', ')}`)
  })
  return ks.map((k) => 1 / (1 / k + 1 / n))
}

/**
 * P(Z_j > a_j at some look j), Z_j = S_j / √I_j, S a Brownian motion at the information times
 * `info` (a Gaussian random walk with independent increments of variance I_j − I_{j−1}), for one
 * boundary `a` at every look or one a look: the recursive numerical integration. Look j's grid is
 * anchored at its boundary B_j = a_j √I_j, runs up KERNEL_SDS sds of its increment past the
 * highest point a path can come from (the paths that cross there, whose mass is added up, so that a
 * small probability keeps its relative accuracy) and down TAIL_SDS sds of S_j (the paths that go on,
 * the sub-density the next look convolves with the normal kernel of its increment). Each grid's
 * step is a power-of-two multiple of the finest one needed, so that the kernel between two grids
 * depends on one integer alone and is computed once per look.
 */
export function gaussianCrossing(a: number | readonly number[], info: readonly number[]): number {
  const looks = info.length
  if (typeof a !== 'number' && a.length !== looks) throw new RangeError(`${a.length} boundaries for ${looks} looks`)
  const sds = info.map((v, j) => Math.sqrt(j === 0 ? v : v - info[j - 1]))
  // each grid resolves its own density (scale ≥ its increment's sd) and the next look's kernel
  const needed = sds.map((sd, j) => Math.min(sd, j + 1 < looks ? sds[j + 1] : sd) / STEPS_PER_SD)
  const base = Math.min(...needed)
  const strides = needed.map((h) => 2 ** Math.floor(Math.log2(h / base) + 1e-9))
  let crossed = 0
  // the weighted sub-density of the paths still below every boundary, at the last look's points
  let going = new Float64Array(0)
  let goingTop = 0
  let goingStride = 1
  for (let j = 0; j < looks; j++) {
    const stride = strides[j]
    const h = stride * base
    const spread = Math.sqrt(info[j])
    const top = (typeof a === 'number' ? a : a[j]) * spread
    // the paths come from below the last boundary (the first look: from all of S_1's normal law)
    const highest = j === 0 ? Math.max(top, (TAIL_SDS - KERNEL_SDS) * spread) : Math.max(top, goingTop)
    const above = Math.ceil((highest + KERNEL_SDS * sds[j] - top) / h)
    const below = Math.max(0, Math.ceil((top + TAIL_SDS * spread) / h))
    // x_i = top − i h for i = −above … below, stored at i + above
    const density = new Float64Array(above + below + 1)
    if (j === 0) {
      for (let i = -above; i <= below; i++) {
        const z = (top - i * h) / spread
        density[i + above] = (INV_SQRT_2PI / spread) * Math.exp(-0.5 * z * z)
      }
    } else {
      // x_i − u_l = offset − (i·stride − l·goingStride)·base: the kernel by that integer
      const sd = sds[j]
      const offset = top - goingTop
      const low = Math.ceil((offset - KERNEL_SDS * sd) / base)
      const high = Math.floor((offset + KERNEL_SDS * sd) / base)
      const kernel = new Float64Array(high - low + 1)
      for (let d = low; d <= high; d++) {
        const z = (offset - d * base) / sd
        kernel[d - low] = (INV_SQRT_2PI / sd) * Math.exp(-0.5 * z * z)
      }
      const last = going.length - 1
      for (let i = -above; i <= below; i++) {
        const at = i * stride
        const from = Math.max(0, Math.ceil((at - high) / goingStride))
        const to = Math.min(last, Math.floor((at - low) / goingStride))
        let sum = 0
        for (let l = from; l <= to; l++) sum += kernel[at - l * goingStride - low] * going[l]
        density[i + above] = sum
      }
    }
    // the mass above the boundary crosses here; the rest goes on
    for (let i = 0; i <= above; i++) crossed += density[above - i] * h * endWeight(i)
    going = new Float64Array(below + 1)
    for (let i = 0; i <= below; i++) going[i] = density[above + i] * h * endWeight(i)
    goingTop = top
    goingStride = stride
  }
  return Math.min(1, crossed)
}

/** The weight (in steps) of the i-th point from a grid's cut end. */
const endWeight = (i: number): number => (i < END_WEIGHTS.length ? END_WEIGHTS[i] : 1)

/** log G (gaussianCrossing) on [0, TOP] as Chebyshev coefficients, by the key `n k_1 … k_L`. */
const crossingTables = new Map<string, Float64Array>()

function crossingTable(n: number, ks: readonly number[]): Float64Array {
  const key = `${n} ${ks.join(' ')}`
  let coefficients = crossingTables.get(key)
  if (coefficients === undefined) {
    const info = lookInformation(n, ks)
    const count = CHEBYSHEV_NODES
    const values = new Float64Array(count)
    for (let k = 0; k < count; k++) values[k] = Math.log(gaussianCrossing((TOP / 2) * (1 + Math.cos((Math.PI * (k + 0.5)) / count)), info))
    coefficients = new Float64Array(count)
    for (let i = 0; i < count; i++) {
      let sum = 0
      for (let k = 0; k < count; k++) sum += values[k] * Math.cos((Math.PI * i * (k + 0.5)) / count)
      coefficients[i] = ((i === 0 ? 1 : 2) / count) * sum
    }
    crossingTables.set(key, coefficients)
  }
  return coefficients
}

/** The crossing probability from its table at a ≥ 0 (Clenshaw's evaluation; beyond TOP nothing crosses). */
function tableCrossing(table: Float64Array, a: number): number {
  if (a >= TOP) return 0
  const x = (2 * a) / TOP - 1
  let next = 0
  let after = 0
  for (let i = table.length - 1; i >= 1; i--) {
    const current = 2 * x * next - after + table[i]
    after = next
    next = current
  }
  return Math.exp(x * next - after + table[0])
}

/** The nodes and weights of the mean over r = s/σ ~ √(χ²_ν/ν), whose density is ∝ r^(ν−1) e^(−ν r²/2), by ν. */
const chiRules = new Map<number, {r: Float64Array; weight: Float64Array}>()

function chiRule(df: number): {r: Float64Array; weight: Float64Array} {
  let rule = chiRules.get(df)
  if (rule === undefined && df === Number.POSITIVE_INFINITY) {
    // an sd known exactly: r = 1
    rule = {r: Float64Array.of(1), weight: Float64Array.of(1)}
    chiRules.set(df, rule)
  }
  if (rule === undefined) {
    // in w = log r the density is ∝ exp(ν w − ν e^(2w)/2): peak at w = 0, sd about 1/√(2ν)
    const logWeight = (w: number) => df * w - (df * Math.exp(2 * w)) / 2 + df / 2
    const step = 1 / Math.sqrt(2 * df) / LOG_R_STEPS_PER_SD
    let low = 0
    while (logWeight(low) > -LOG_R_DEPTH) low -= step
    let high = 0
    while (logWeight(high) > -LOG_R_DEPTH) high += step
    const count = Math.round((high - low) / step) + 1
    const r = new Float64Array(count)
    const weight = new Float64Array(count)
    let sum = 0
    for (let i = 0; i < count; i++) {
      const w = low + i * step
      r[i] = Math.exp(w)
      weight[i] = Math.exp(logWeight(w))
      sum += weight[i]
    }
    for (let i = 0; i < count; i++) weight[i] /= sum
    rule = {r, weight}
    chiRules.set(df, rule)
  }
  return rule
}

/**
 * P(max_j T_j > b): the chance that the statistic of looks with `ks` scores against a baseline of `n`
 * (multivariate t, n − 1 degrees of freedom, correlation √((1/k_j + 1/n)/(1/k_i + 1/n))) crosses b at
 * some look. With ks = [k] it is Student's t upper tail.
 */
export function crossingProbability(b: number, n: number, ks: readonly number[]): number {
  const table = crossingTable(n, ks)
  const {r, weight} = chiRule(n - 1)
  let crossed = 0
  for (let i = 0; i < r.length; i++) crossed += weight[i] * tableCrossing(table, b * r[i])
  return Math.min(1, crossed)
}

/**
 * The b ≥ 0 with crossingProbability(b, n, ks) = alpha: the Pocock constant. alpha is at most ½
 * (P(max_j T_j > 0) ≥ P(T_1 > 0) = ½, so b is never negative).
 */
export function pocockConstant(alpha: number, n: number, ks: readonly number[]): number {
  if (!(alpha > 0 && alpha <= 0.5)) throw new RangeError(`alpha must lie in (0, 0.5], got ${alpha}`)
  let low = 0
  let high = 4
  while (crossingProbability(high, n, ks) > alpha) high *= 2
  for (let i = 0; i < 200 && high - low > 1e-12 * Math.max(1, high); i++) {
    const mid = (low + high) / 2
    if (crossingProbability(mid, n, ks) > alpha) low = mid
    else high = mid
  }
  return (low + high) / 2
}

/**
 * The one-sided level of every look of `looks` (one scored run a group per launch) against a
 * baseline of `n` runs (Infinity: a known sd) at which an unchanged group crosses the boundary at
 * some look with probability `alpha` (the Pocock constant's own level, c′ of the top of this file).
 * One look: 1 − alpha exactly. Cached by its arguments.
 */
export function lookLevel(alpha: number, looks: number, n: number): number {
  const key = `${n} ${looks} ${alpha}`
  let level = levelKnown.get(key)
  if (level === undefined) {
    if (!(Number.isInteger(n) || n === Number.POSITIVE_INFINITY) || n < 2)
      throw new RangeError(`a baseline of ${n} runs has no sd to judge by`)
    if (!Number.isInteger(looks) || looks < 1) throw new RangeError(`looks must be a whole number from 1, got ${looks}`)
    const ks = Array.from({length: looks}, (_, j) => j + 1)
    level = looks === 1 ? 1 - alpha : 1 - crossingProbability(pocockConstant(alpha, n, ks), n, [1])
    levelKnown.set(key, level)
  }
  return level
}

const levelKnown = new Map<string, number>()

/**
 * The levels of a step of `m` groups at `confidence` over `looks` against `n` runs: regressed at
 * lookLevel((1 − C)/m), cleared at lookLevel(1 − C).
 */
export function sequentialLevels(confidence: number, m: number, looks: number, n: number): LookLevels {
  const key = `${n} ${looks} ${Math.max(1, m)} ${confidence}`
  let levels = levelsKnown.get(key)
  if (levels === undefined) {
    levels = {regress: lookLevel((1 - confidence) / Math.max(1, m), looks, n), clear: lookLevel(1 - confidence, looks, n)}
    levelsKnown.set(key, levels)
  }
  return levels
}

const levelsKnown = new Map<string, LookLevels>()
