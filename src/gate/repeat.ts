import type {LaunchOutcome, LaunchSeries} from '../api/evals.js'
import type {LaunchResult} from '../contract/types.js'
import type {ReportTargets} from './flags.js'
import type {Judgement} from './words.js'
import {type Concluded, concludeWait, type GateDeps, type WaitCall, waitLook} from './wait.js'
import type {WatchOptions} from './watch.js'

/**
 * `evals run --wait --repeat auto` (docs/ci.md "--repeat auto"): one launch at a time, up to
 * --max-repeat. After each launch's runs finish, every group not decided yet is judged on all its
 * runs so far (./state.ts, the sequential rule of ./stats.ts lookConfidence): regressed,
 * cleared (passed), improved, or undecided. A decided group stays decided; the next launch is
 * made only while some group is undecided and the step's outcome is still open (a failure ends
 * it: no launch can change that). After the last launch the undecided groups are inconclusive.
 * A launch that gets no answer ends it (exit 9): nothing is launched again, nothing waited for.
 */

export type AutoResult =
  | ({kind: 'done'; launches: LaunchResult[]} & Concluded)
  | {kind: 'unknown'; launch: Extract<LaunchOutcome, {outcome: 'unknown'}>; launches: LaunchResult[]}

export async function waitAuto(
  /** one launch; `series` says which (its answer must start runs no earlier launch did) */
  launch: (series: LaunchSeries) => Promise<LaunchOutcome>,
  options: WatchOptions,
  auto: {maxRepeat: number; failInconclusive: boolean},
  reports: ReportTargets,
  deps: GateDeps,
  call: (runIds: string[]) => WaitCall,
): Promise<AutoResult> {
  const launches: LaunchResult[] = []
  const decided = new Map<string, Judgement>()
  // the baselines are looked up by the first launch's wait, once
  const lookup: WaitCall['lookup'] = {}
  // --wait-timeout bounds the whole step, every launch's wait together (from the search for a
  // --baseline RUN_ID, when there was one)
  const started = options.limitFrom ?? deps.clock.now()
  const wallStart = deps.clock.wall()
  let lastFor: string[] = []
  for (let look = 1; ; look++) {
    const earlier = new Set(launches.flatMap((l) => l.runIds ?? []))
    const made = await launch({number: look, of: auto.maxRepeat, earlier})
    if (made.outcome === 'unknown') return {kind: 'unknown', launch: made, launches}
    launches.push(made.result)
    const runIds = launches.flatMap((l) => l.runIds ?? [])
    const sequential = {look, looks: auto.maxRepeat, decided}
    const known = new Set(launches.slice(0, -1).flatMap((l) => l.runIds ?? []))
    const waitCall = {...call(runIds), lookup, known, auto: {launches: look, maxRepeat: auto.maxRepeat, lastFor}}
    const stepOptions = {...options, limitFrom: started, grouped: true, sequential, failInconclusive: auto.failInconclusive}
    const looked = await waitLook(runIds, stepOptions, reports, deps, waitCall)
    if (looked.result !== undefined) return {kind: 'done', ...looked, launches}
    const {outcome} = looked
    lastFor = []
    for (const {group, judgement} of outcome.state.judged()) {
      if (judgement.more) lastFor.push(group.id)
      else if (!decided.has(group.id)) decided.set(group.id, judgement)
    }
    if (options.timeoutS > 0 && (deps.clock.now() - started) / 1000 >= options.timeoutS) {
      // no time left for another launch: the step ends as a timeout, its undecided groups said so
      const timedOut = {...outcome, end: 'timeout' as const}
      return {kind: 'done', ...(await concludeWait(timedOut, stepOptions, reports, deps, waitCall, wallStart)), launches}
    }
  }
}
