import type {EvalSet, Run} from '../contract/types.js'
import type {Outcome} from './history.js'
import type {OutcomePlans} from './outcome-plans.js'
import {seededOutcome} from './seed.js'
import type {RunPlan, State} from './state.js'
import type {NewRun, Store} from './store.js'

/**
 * The run lifecycle (contract section 4, "Run lifecycle"): a launched or forked run is `queued`
 * for the first fifth of `--run-seconds`, then `running`, then at the end reaches its outcome.
 * The outcome and score are drawn for the run's eval set × agent × model and how many runs of it
 * the organization had before (./history.ts), so the same launches give the same results on every
 * machine, unless a planned outcome (./outcome-plans.ts) matches the run. Nothing ticks: a run's plan (its times and outcome, fixed when it is
 * created and kept in the state) is applied whenever the run is read, so no timer keeps the
 * process alive and a restart with `--data` sees the same runs at the same moments.
 */

/** Share of a run's time spent `queued` before it is `running`. */
const QUEUED_SHARE = 0.2

/** A launch makes one run per target of the eval set, at most this many. */
const MAX_RUNS_PER_LAUNCH = 3

/**
 * The agent and model of each run a launch of `evalSet` makes: one per target (at most three), or
 * one without either. (Its targets are the document's `Target`s: an update and a `--data` file are
 * checked against it.)
 */
export function launchTargets(evalSet: EvalSet): Array<{agent: string | null; model: string | null}> {
  const targets = (evalSet.targets ?? []).slice(0, MAX_RUNS_PER_LAUNCH)
  if (targets.length === 0) return [{agent: null, model: null}]
  return targets.map(({agent, model}) => ({agent, model}))
}

export class RunLifecycle {
  /**
   * @param seconds how long a launched run takes from `queued` to its outcome (0: at once)
   * @param now the server's clock, epoch ms (DevServerOptions.now)
   * @param planned the outcomes planned through `/_dev/orgs/:org/outcomes`
   */
  constructor(
    readonly seconds: number,
    readonly now: () => number,
    readonly planned?: OutcomePlans,
  ) {}

  /** Adds runs that move on their own from `queued` to their outcome. */
  launch(store: Store, orgId: string, fields: readonly NewRun[]): Run[] {
    const sequences = store.sequences(orgId, fields)
    const runs = store.addRuns(orgId, fields, this.now())
    runs.forEach((run, i) => {
      store.state.runPlans[run.id] = this.plan(run, this.planned?.take(orgId, run) ?? outcomeOf(run, sequences[i]))
    })
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

  private plan(run: Run, outcome: Outcome): RunPlan {
    const start = Date.parse(run.createdAt)
    const total = this.seconds * 1000
    return {
      runningAt: new Date(start + Math.round(total * QUEUED_SHARE)).toISOString(),
      finishedAt: new Date(start + total).toISOString(),
      ...outcome,
    }
  }
}

/**
 * The outcome of a run no plan decides: the k-th run (from 0) of its eval set × agent × model in
 * the organization draws from that triple's distribution (./history.ts, ./seed.ts TRIPLE_PROFILES),
 * as the seeded history did. It depends on nothing else: not the run's ID, not other triples.
 */
export function outcomeOf(run: Pick<Run, 'evalSetId' | 'agent' | 'model'>, k: number): Outcome {
  return seededOutcome({evalSetId: run.evalSetId ?? null, agent: run.agent ?? null, model: run.model ?? null}, k)
}
