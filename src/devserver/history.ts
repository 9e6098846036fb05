import type {RunPlan} from './state.js'

/**
 * How the dev server's runs end when nothing planned their outcome: like real evals, each eval
 * set × agent × model (a *triple*) has its own true mean score and noise, and its own share of
 * failed and cancelled runs. The k-th run of a triple in an organization (k counts from 0, over
 * every run of that triple the organization has: seeded, launched, forked or added by the bulk
 * hook) draws its outcome and score from a hash of the seed, the triple and k, so
 *
 * - the seeded history and the runs launched later are one series per triple, drawn from the
 *   same distribution;
 * - the same server state gives the same outcome to the same launch on every machine, whatever
 *   else happened on the server (tokens minted, other eval sets launched): only the number of
 *   earlier runs of the same triple moves it.
 *
 * Hand-written: a string hash and an integer mixer (FNV-1a, then MurmurHash3's finalizer) and a
 * Box–Muller transform, a few lines. A seeded random-number library draws from one stream, which
 * is exactly what must not be shared between triples, and a cryptographic hash per run made
 * adding 100,000 runs take seconds.
 */

/** The seed of every draw: another seed gives another history (with the same profiles). */
export const HISTORY_SEED = 'amctl-dev-history-146'

/** What a run is drawn by: its eval set, agent and model (null when the run has none). */
export interface Triple {
  evalSetId: string | null
  agent: string | null
  model: string | null
}

/** The true distribution of a triple's runs. */
export interface TripleProfile {
  /** steady: small noise; noisy: large noise; flaky: 10–20 % of its runs fail; shifted: steady, with a change of level (`earlier`) */
  kind: 'steady' | 'noisy' | 'flaky' | 'shifted'
  /** the true mean score of a succeeded run (after the change of level, with `earlier`) */
  mean: number
  /** a change of level: the first `runs` runs of the series drew around `mean` here instead (as a regression that landed makes it) */
  earlier?: {runs: number; mean: number}
  /**
   * which of the seed's series the triple draws, 0 when absent: another stream is another series
   * from the same profile (the seeded ones are picked so that the first launches after the seeded
   * history look like the profile: ./seed.ts TRIPLE_PROFILES)
   */
  stream?: number
  /** the standard deviation of a succeeded run's score around the mean */
  sd: number
  /** the share of runs that fail (no score) */
  failed: number
  /** the share of runs that are cancelled (no score) */
  cancelled: number
}

/** The outcome and score a run reaches. */
export type Outcome = Pick<RunPlan, 'outcome' | 'score'>

/** One key per triple (for tables, indexes and the hash); a null stays apart from the text "null". */
export function tripleKey(triple: {evalSetId?: string | null; agent?: string | null; model?: string | null}): string {
  return `${part(triple.evalSetId)}|${part(triple.agent)}|${part(triple.model)}`
}

/** A name with its length in front (so no name can run into the next), or `-` for none. */
function part(name: string | null | undefined): string {
  return name === null || name === undefined ? '-' : `${name.length}:${name}`
}

/** MurmurHash3's 32-bit finalizer: every bit of the input moves about half of the output's. */
function mix(x: number): number {
  let h = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

// the hash of each (seed, purpose, triple) seen, so a draw costs a few multiplications
const hashes = new Map<string, number>()
const MAX_HASHES = 10_000

/** FNV-1a over the text's UTF-16 units, finalized (cached). */
function hashOf(text: string): number {
  let h = hashes.get(text)
  if (h !== undefined) return h
  h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  h = mix(h)
  if (hashes.size >= MAX_HASHES) hashes.clear()
  hashes.set(text, h)
  return h
}

/** The i-th uniform number in [0, 1) of draw k under `base` (a hash). */
function uniform(base: number, k: number, i: number): number {
  return mix((mix((base ^ k) >>> 0) + Math.imul(i + 1, 0x9e3779b9)) >>> 0) / 2 ** 32
}

/**
 * The profile of a triple the seeded world does not name (an eval set made or retargeted later,
 * a launch without targets): fixed by the triple, half of them steady, three in ten noisy, two in
 * ten flaky, with a mean from 0.55 to 0.85.
 */
export function derivedProfile(triple: Triple, seed = HISTORY_SEED): TripleProfile {
  const base = hashOf(`${seed}\u0000profile\u0000${tripleKey(triple)}`)
  const [kindPick, meanPick, sdPick, failPick] = [0, 1, 2, 3].map((i) => uniform(base, 0, i))
  const mean = round(0.55 + 0.3 * meanPick, 2)
  if (kindPick < 0.5) return {kind: 'steady', mean, sd: round(0.02 + 0.01 * sdPick, 3), failed: 0.02, cancelled: 0.02}
  if (kindPick < 0.8) return {kind: 'noisy', mean, sd: round(0.06 + 0.02 * sdPick, 3), failed: 0.03, cancelled: 0.02}
  return {kind: 'flaky', mean, sd: round(0.03 + 0.02 * sdPick, 3), failed: round(0.1 + 0.1 * failPick, 2), cancelled: 0.03}
}

/**
 * The outcome of the k-th run of `triple` under `profile`: failed or cancelled (no score) by the
 * profile's shares, otherwise succeeded with a score drawn from Normal(mean, sd), clipped to
 * 0–1 and rounded to two decimals (roundScore); the mean is `earlier.mean` for the first `earlier.runs` runs.
 */
export function drawOutcome(profile: TripleProfile, triple: Triple, k: number, seed = HISTORY_SEED): Outcome {
  // stream 0 hashes as it always did, so a triple's series moves only when its stream is set
  const stream = profile.stream === undefined || profile.stream === 0 ? '' : `\u0000${profile.stream}`
  const base = hashOf(`${seed}\u0000run${stream}\u0000${tripleKey(triple)}`)
  const pick = uniform(base, k, 0)
  if (pick < profile.failed) return {outcome: 'failed', score: null}
  if (pick < profile.failed + profile.cancelled) return {outcome: 'cancelled', score: null}
  const mean = profile.earlier !== undefined && k < profile.earlier.runs ? profile.earlier.mean : profile.mean
  // Box–Muller: 1 − u is in (0, 1], so the logarithm is finite
  const z = Math.sqrt(-2 * Math.log(1 - uniform(base, k, 1))) * Math.cos(2 * Math.PI * uniform(base, k, 2))
  return {outcome: 'succeeded', score: roundScore(mean + profile.sd * z)}
}

/** The decimals of a drawn score: the seeded history's, and a planned draw's (./outcome-plans.ts). */
export const SCORE_DECIMALS = 2

/**
 * A drawn score as runs get it: clipped to 0–1 and rounded to SCORE_DECIMALS. The gate reads the
 * step scores move in from their decimals (src/gate/stats.ts scoreStep), so seeded and planted
 * runs must have the same, or the floor of its margin differs between them.
 */
export function roundScore(value: number): number {
  return round(Math.min(1, Math.max(0, value)), SCORE_DECIMALS)
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}
