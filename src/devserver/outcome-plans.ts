import type {RunPlan} from './state.js'
import {invalid} from './errors.js'
import {requireInteger, requireNumber, requireOneOf, requireString} from './validate.js'
import type {JsonObject} from '../contract/types.js'

/**
 * Planned outcomes (`POST /_dev/orgs/:org/outcomes`): what the next launched or forked runs of an
 * organization end as, instead of the outcome their ID would give (./runs.ts outcomeOf), so a test
 * can launch, wait, and see a regression fail or an improvement pass. A plan matches runs by
 * eval set, agent and model (each optional), takes `count` runs (absent: every match until
 * cleared), and the first plan that matches a run is used. Kept in memory, like fault rules.
 */

const OUTCOMES = ['succeeded', 'failed', 'cancelled'] as const
const MAX_COUNT = 1_000_000

export interface OutcomePlan {
  evalSetId?: string
  agent?: string
  model?: string
  status: RunPlan['outcome']
  score: number | null
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
    const known = ['evalSetId', 'agent', 'model', 'status', 'score', 'count']
    const other = Object.keys(body).find((member) => !known.includes(member))
    if (other !== undefined) throw invalid(`${other} is not a member of an outcome plan (${known.join(', ')})`)
    const plan: OutcomePlan = {status: requireOneOf(body, 'status', OUTCOMES), score: null, hits: 0}
    for (const member of ['evalSetId', 'agent', 'model'] as const)
      if (body[member] !== undefined) plan[member] = requireString(body, member)
    if (body.score !== undefined && body.score !== null) plan.score = requireNumber(body, 'score', 0, 1)
    if (body.count !== undefined) plan.count = requireInteger(body, 'count', 1, MAX_COUNT)
    const list = this.plans.get(orgId) ?? []
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
    return {outcome: plan.status, score: plan.score}
  }
}
