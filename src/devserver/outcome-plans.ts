import {roundScore} from './history.js'
import type {RunPlan} from './state.js'
import {invalid} from './errors.js'
import {mulberry32} from './random.js'
import {requireInteger, requireNumber, requireOneOf, requireString} from './validate.js'
import type {JsonObject} from '../contract/types.js'

/**
 * Planned outcomes (`POST /_dev/orgs/:org/outcomes`): what the next launched or forked runs of an
 * organization end as, instead of the outcome their ID would give (./runs.ts outcomeOf), so a test
 * can launch, wait, and see a regression fail or an improvement pass. A plan matches runs by
 * eval set, agent and model (each optional), takes `count` runs (absent: every match until
 * cleared), and the first plan that matches a run is used. Kept in memory, like fault rules.
 *
 * Instead of a fixed `score`, a plan may give `mean` and `sd`: each run it takes then scores a
 * draw from that normal distribution, clipped to 0–1 and rounded to the seeded history's two
 * decimals (so the gate finds the same step in both: ./history.ts roundScore), deterministic for
 * the plan's `seed` (the n-th run a plan takes always draws the same score), so tests and
 * bench/gate.mjs can make noise and true drops. A fixed `score` is kept as given: a plan that
 * wants scores of another precision gives them one by one (`count: 1`). A plan of `succeeded`
 * runs may also give `failRate` and `cancelRate`: each run it takes then fails, or is cancelled,
 * with that chance, drawn from the same seeded stream (after the score's draws, so a plan's n-th
 * score is the same with or without them), so that an agent that fails 15 % of its runs is one
 * plan (bench/gate.mjs --section outcomes). An organization holds at most MAX_PLANS plans (a 400
 * beyond).
 */

const OUTCOMES = ['succeeded', 'failed', 'cancelled'] as const
const MAX_COUNT = 1_000_000
/** Plans an organization may hold at once (issue 26 item 19: unbounded plans were a way to fill the memory). */
export const MAX_PLANS = 1000

/** A normal draw (Box–Muller) from two uniforms. */
function normal(next: () => number): number {
  const u = 1 - next()
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next())
}

export interface OutcomePlan {
  evalSetId?: string
  agent?: string
  model?: string
  status: RunPlan['outcome']
  score: number | null
  /** scores drawn from N(mean, sd), clipped to 0–1, instead of `score` */
  mean?: number
  sd?: number
  seed?: number
  /** the chance that a run it takes fails, or is cancelled, instead of `status` (succeeded) */
  failRate?: number
  cancelRate?: number
  /** runs it still takes; undefined = every match until cleared */
  count?: number
  /** runs it took */
  hits: number
}

/** What a run is matched on. */
export interface PlannedRun {
  evalSetId: string | null
  agent: string | null
  model: string | null
}

export class OutcomePlans {
  private readonly plans = new Map<string, OutcomePlan[]>()

  /** Adds a plan for the organization (by public ID) from a hook's body. */
  add(orgId: string, body: JsonObject): OutcomePlan {
    const known = ['evalSetId', 'agent', 'model', 'status', 'score', 'mean', 'sd', 'seed', 'failRate', 'cancelRate', 'count']
    const other = Object.keys(body).find((member) => !known.includes(member))
    if (other !== undefined) throw invalid(`${other} is not a member of an outcome plan (${known.join(', ')})`)
    const plan: OutcomePlan = {status: requireOneOf(body, 'status', OUTCOMES), score: null, hits: 0}
    for (const member of ['evalSetId', 'agent', 'model'] as const)
      if (body[member] !== undefined) plan[member] = requireString(body, member)
    if (body.score !== undefined && body.score !== null) plan.score = requireNumber(body, 'score', 0, 1)
    if (body.count !== undefined) plan.count = requireInteger(body, 'count', 1, MAX_COUNT)
    const rates = body.failRate !== undefined || body.cancelRate !== undefined
    if (rates) {
      if (plan.status !== 'succeeded') throw invalid('failRate and cancelRate act only in a plan of succeeded runs (status succeeded)')
      if (body.failRate !== undefined) plan.failRate = requireNumber(body, 'failRate', 0, 1)
      if (body.cancelRate !== undefined) plan.cancelRate = requireNumber(body, 'cancelRate', 0, 1)
      if ((plan.failRate ?? 0) + (plan.cancelRate ?? 0) > 1) throw invalid('failRate and cancelRate must add up to at most 1')
    }
    if (body.mean !== undefined || body.sd !== undefined) {
      if (body.score !== undefined) throw invalid('give either score or mean and sd, not both')
      if (body.mean === undefined || body.sd === undefined) throw invalid('mean and sd come together')
      plan.mean = requireNumber(body, 'mean', 0, 1)
      plan.sd = requireNumber(body, 'sd', 0, 1)
    } else if (body.seed !== undefined && !rates) {
      throw invalid('seed acts only with mean and sd, failRate or cancelRate')
    }
    if (plan.mean !== undefined || rates) plan.seed = body.seed === undefined ? 1 : requireInteger(body, 'seed', 0, 2 ** 32 - 1)
    const list = this.plans.get(orgId) ?? []
    if (list.length >= MAX_PLANS) throw invalid(`an organization holds at most ${MAX_PLANS} outcome plans; DELETE them first`)
    list.push(plan)
    this.plans.set(orgId, list)
    return {...plan}
  }

  list(orgId: string): OutcomePlan[] {
    return (this.plans.get(orgId) ?? []).map((plan) => ({...plan}))
  }

  clear(orgId: string): void {
    this.plans.delete(orgId)
  }

  /** The planned outcome of a run launched now, if a plan matches it (the plan's count is taken). */
  take(orgId: string, run: PlannedRun): Pick<RunPlan, 'outcome' | 'score'> | undefined {
    const list = this.plans.get(orgId) ?? []
    const index = list.findIndex(
      (plan) =>
        (plan.evalSetId === undefined || plan.evalSetId === run.evalSetId) &&
        (plan.agent === undefined || plan.agent === run.agent) &&
        (plan.model === undefined || plan.model === run.model),
    )
    if (index < 0) return undefined
    const plan = list[index]
    plan.hits += 1
    if (plan.count !== undefined) {
      plan.count -= 1
      if (plan.count === 0) list.splice(index, 1)
    }
    // the hits-th run's own stream: the same seed gives the same scores and outcomes in order
    const next = mulberry32(((plan.seed ?? 1) * 0x9e3779b1 + plan.hits * 0x85ebca6b) >>> 0)
    let score = plan.score
    if (plan.mean !== undefined && plan.sd !== undefined && plan.status !== 'cancelled')
      score = roundScore(plan.mean + plan.sd * normal(next))
    if (plan.failRate !== undefined || plan.cancelRate !== undefined) {
      // drawn after the score's uniforms, so that the n-th score is the same with or without rates
      const u = next()
      if (u < (plan.failRate ?? 0)) return {outcome: 'failed', score: null}
      if (u < (plan.failRate ?? 0) + (plan.cancelRate ?? 0)) return {outcome: 'cancelled', score: null}
    }
    return {outcome: plan.status, score}
  }
}
