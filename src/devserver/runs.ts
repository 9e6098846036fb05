import {createHash} from 'node:crypto'
import type {Run} from '../contract/types.js'
import type {OutcomePlans} from './outcome-plans.js'
import type {RunPlan, State} from './state.js'
import type {NewRun, Store} from './store.js'

/**
 * The run lifecycle (contract section 4, "Run lifecycle"): a launched or forked run is `queued`
 * for the first fifth of `--run-seconds`, then `running`, then at the end reaches its outcome.
 * The outcome and score come from a hash of the run's ID, so the same launches give the same
 * results on every machine, unless a planned outcome (./outcome-plans.ts) matches the run. Nothing ticks: a run's plan (its times and outcome, fixed when it is
 * created and kept in the state) is applied whenever the run is read, so no timer keeps the
 * process alive and a restart with `--data` sees the same runs at the same moments.
 */

/** Share of a run's time spent `queued` before it is `running`. */
const QUEUED_SHARE = 0.2

export class RunLifecycle {
  /**
   * @param seconds how long a launched run takes from `queued` to its outcome (0: at once)
   * @param now the clock (tests pass their own)
   * @param planned the outcomes planned through `/_dev/orgs/:org/outcomes`
   */
  constructor(
    readonly seconds: number,
    readonly now: () => number = Date.now,
    readonly planned?: OutcomePlans,
  ) {}

  /** Adds runs that move on their own from `queued` to their outcome. */
  launch(store: Store, orgId: string, fields: readonly NewRun[]): Run[] {
    const runs = store.addRuns(orgId, fields, this.now())
    for (const run of runs) store.state.runPlans[run.id] = this.plan(run, this.planned?.take(orgId, run))
    return runs.map((run) => this.view(store.state, run))
  }

  /** The run as it stands now. */
  view(state: Pick<State, 'runPlans'>, run: Run): Run {
    const plan = Object.hasOwn(state.runPlans, run.id) ? state.runPlans[run.id] : undefined
    if (plan === undefined) return run
    const now = this.now()
    if (now >= Date.parse(plan.finishedAt)) return {...run, status: plan.outcome, score: plan.score}
    if (now >= Date.parse(plan.runningAt)) return {...run, status: 'running'}
    return run
  }

  /**
   * Sets a run's status and score by hand (`PATCH /_dev/runs/{runId}`): the run keeps what it
   * shows now for what is not given, and stops moving on its own.
   */
  pin(state: Pick<State, 'runPlans'>, run: Run, changes: {status?: string; score?: number | null}): Run {
    Object.assign(run, this.view(state, run), changes)
    delete state.runPlans[run.id]
    return run
  }

  private plan(run: Run, planned: Pick<RunPlan, 'outcome' | 'score'> | undefined): RunPlan {
    const start = Date.parse(run.createdAt)
    const total = this.seconds * 1000
    return {
      runningAt: new Date(start + Math.round(total * QUEUED_SHARE)).toISOString(),
      finishedAt: new Date(start + total).toISOString(),
      ...(planned ?? outcomeOf(run.id)),
    }
  }
}

/** 70% succeed (score 0.50–1.00), 20% fail (score 0.00–0.49), 10% are cancelled (no score). */
export function outcomeOf(runId: string): Pick<RunPlan, 'outcome' | 'score'> {
  const digest = createHash('sha256').update(runId).digest()
  const pick = digest.readUInt32BE(0) % 10
  const fraction = digest.readUInt32BE(4) % 50
  if (pick < 7) return {outcome: 'succeeded', score: (50 + fraction + (digest[8] % 2)) / 100}
  if (pick < 9) return {outcome: 'failed', score: fraction / 100}
  return {outcome: 'cancelled', score: null}
}
