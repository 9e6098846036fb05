import {createHash} from 'node:crypto'
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
 * Hand-written: a few lines of hashing and a Box–Muller transform; a seeded random-number library
 * would draw from a stream, which is exactly what must not be shared between triples.
 */

/** The seed of every draw: another seed gives another history (with the same profiles). */
export const HISTORY_SEED = 'amctl-dev-history-670'

/** What a run is drawn by: its eval set, agent and model (null when the run has none). */
export interface Triple {
  evalSetId: string | null
  agent: string | null
  model: string | null
}

/** The true distribution of a triple's runs. */
export interface TripleProfile {
  /** steady: small noise; noisy: large noise; flaky: 10–20 % of its runs fail */
  kind: 'steady' | 'noisy' | 'flaky'
  /** the true mean score of a succeeded run */
  mean: number
  /** the standard deviation of a succeeded run's score around the mean */
  sd: number
  /** the share of runs that fail (no score) */
  failed: number
  /** the share of runs that are cancelled (no score) */
  cancelled: number
}

/** The outcome and score a run reaches. */
export type Outcome = Pick<RunPlan, 'outcome' | 'score'>

/** One key per triple (for tables and indexes); nulls stay apart from the text "null". */
export function tripleKey(triple: Triple): string {
  return JSON.stringify([triple.evalSetId ?? null, triple.agent ?? null, triple.model ?? null])
}

/** Uniform numbers in [0, 1) from a hash of `parts` (48 bits each, six per digest). */
function uniforms(...parts: Array<string | number>): number[] {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest()
  return Array.from({length: 5}, (_, i) => digest.readUIntBE(i * 6, 6) / 2 ** 48)
}

/**
 * The profile of a triple the seeded world does not name (an eval set made or retargeted later,
 * a launch without targets): fixed by the triple, half of them steady, three in ten noisy, two in
 * ten flaky, with a mean from 0.55 to 0.85.
 */
export function derivedProfile(triple: Triple, seed = HISTORY_SEED): TripleProfile {
  const [kindPick, meanPick, sdPick, failPick] = uniforms(seed, 'profile', tripleKey(triple))
  const mean = round(0.55 + 0.3 * meanPick, 2)
  if (kindPick < 0.5) return {kind: 'steady', mean, sd: round(0.02 + 0.01 * sdPick, 3), failed: 0.02, cancelled: 0.02}
  if (kindPick < 0.8) return {kind: 'noisy', mean, sd: round(0.06 + 0.02 * sdPick, 3), failed: 0.03, cancelled: 0.02}
  return {kind: 'flaky', mean, sd: round(0.03 + 0.02 * sdPick, 3), failed: round(0.1 + 0.1 * failPick, 2), cancelled: 0.03}
}

/**
 * The outcome of the k-th run of `triple` under `profile`: failed or cancelled (no score) by the
 * profile's shares, otherwise succeeded with a score drawn from Normal(mean, sd), clipped to
 * 0–1 and rounded to two decimals.
 */
export function drawOutcome(profile: TripleProfile, triple: Triple, k: number, seed = HISTORY_SEED): Outcome {
  const [pick, u1, u2] = uniforms(seed, 'run', tripleKey(triple), k)
  if (pick < profile.failed) return {outcome: 'failed', score: null}
  if (pick < profile.failed + profile.cancelled) return {outcome: 'cancelled', score: null}
  // Box–Muller: 1 − u1 is in (0, 1], so the logarithm is finite
  const z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2)
  return {outcome: 'succeeded', score: round(Math.min(1, Math.max(0, profile.mean + profile.sd * z)), 2)}
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}
