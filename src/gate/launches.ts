import {type LaunchOutcome, type LaunchSeries, launchEvalSet} from '../api/evals.js'
import type {LaunchResult} from '../contract/types.js'
import {AmctlError} from '../core/errors.js'
import {STOP_SIGNALS, stopSignalOf} from '../core/signals.js'
import {errorText} from '../output/present.js'
import {shellLine} from '../output/shell.js'
import type {ReportTargets} from './flags.js'
import type {Judged, Launches} from './rules.js'
import {WatchState} from './state.js'
import {type Concluded, concludeWait, type GateDeps, type WaitCall, waitLook} from './wait.js'
import type {FinalOutcome, WatchOptions} from './watch.js'

/**
 * The launches of `evals run --wait`, one loop for all of them (docs/ci.md "Failed and cancelled
 * runs", "--repeat auto"): the first look's launches (K of --repeat K, one with --repeat auto or
 * without --repeat), made one after another; then the wait for their runs, judged; then, while a
 * group is undecided and the step's outcome still open, one launch more and a look at all the
 * runs so far, up to `max` launches in all: with --repeat auto while a group is in doubt of a
 * drop, otherwise while a group none of whose runs succeeded is within its failure rate (a
 * relaunch). A group decided at a look stays decided.
 *
 * Nothing launched is ever lost: a launch that fails (an error after the client's retries, a bad
 * answer), one that got no answer, and Ctrl-C or SIGTERM at any point end the step with every run
 * launched so far named (the "still going" line, --json's `launches` and `runIds`) and the
 * reports written for what was judged. A launch interrupted in flight may have happened: the
 * line says so and how to see it. No launch is made after one whose outcome is unknown (1.6).
 */

/** How many launches a step makes: before the first look, and at most in all. */
export interface LaunchPolicy {
  /** launches before the first look: K of --repeat K, else 1 */
  first: number
  /** at most this many launches in all: K and the relaunches allowed, or --max-repeat */
  max: number
  /** --repeat auto: every look after a launch, judged by the sequential rule */
  auto: boolean
}

/** How the launches ended. */
export type LaunchEnd =
  /** a verdict, or the time limit: the wait concluded (an interruption ends the command within concludeWait) */
  | ({kind: 'done'; launches: LaunchResult[]} & Concluded)
  /** a launch got no answer (exit 9): nothing launched after it, the earlier ones' runs (if any) named and reported */
  | {kind: 'unknown'; launch: Extract<LaunchOutcome, {outcome: 'unknown'}>; which: string; launches: LaunchResult[]; concluded?: Concluded}
  /** a launch failed (an error after its retries, a bad answer): its exit code, what was judged before it reported */
  | ({kind: 'failed'; error: AmctlError; launches: LaunchResult[]} & Concluded)

/** Whether a wait judges groups (the runs of one eval set, agent and model): said once, here. */
export function judgesGroups(policy: LaunchPolicy): boolean {
  return policy.auto || policy.first > 1 || policy.max > policy.first
}

export async function launchAndWait(
  evalSetId: string,
  options: WatchOptions,
  /** `asGroups`: the output shows the groups (--repeat), else each run with its group's judgement */
  policy: LaunchPolicy & {asGroups: boolean},
  reports: ReportTargets,
  deps: GateDeps,
  call: (runIds: string[]) => WaitCall,
  /** `launched`: after the first look's launches, before their wait (the command says what it launched) */
  hooks: {launched?: (launches: LaunchResult[]) => void} = {},
): Promise<LaunchEnd> {
  const {client, org, clock, signals} = deps
  const launches: LaunchResult[] = []
  const decided = new Map<string, Judged>()
  // the baselines are looked up by the first look's wait, once
  const lookup: WaitCall['lookup'] = {}
  // --wait-timeout bounds the whole step, every wait together (from the search for a --baseline RUN_ID, when there was one)
  const started = options.limitFrom ?? clock.now()
  const wallStart = clock.wall()
  const grouped = judgesGroups(policy)
  // Ctrl-C and SIGTERM between the waits: a launch in flight is cancelled (the waits listen of their own)
  const interrupt = new AbortController()
  const stopListening = signals.on(['SIGINT', 'SIGTERM'], (signal) => interrupt.abort(signal))
  const runIds = () => launches.flatMap((l) => l.runIds ?? [])
  const rulesAt = (): WatchOptions => {
    const seq: Launches = {made: launches.length, max: policy.max, first: policy.first, auto: policy.auto, decided}
    return {...options, limitFrom: started, grouped, asGroups: grouped && policy.asGroups, launches: seq}
  }
  let lastFor: string[] = []
  let lastLook: FinalOutcome | undefined
  const waitCall = () => ({
    ...call(runIds()),
    lookup,
    known: new Set(lastLook === undefined ? [] : lastLook.state.entries().map((w) => w.id)),
    auto: policy.auto ? {launches: launches.length, maxRepeat: policy.max, lastFor} : undefined,
  })
  /**
   * The step ended between waits (a failed launch, a signal): what the last look judged (or, before
   * the first, the runs launched so far, unjudged), concluded; the runs launched after that look,
   * never watched, are named with the runs still going.
   */
  const endWith = (end: 'error' | 'interrupted', error?: AmctlError): Promise<Concluded> => {
    const state = lastLook?.state ?? new WatchState(runIds(), rulesAt())
    const watched = new Set(state.entries().map((w) => w.id))
    const now = clock.now()
    const outcome: FinalOutcome = {
      ...(lastLook ?? {startedAt: now, polls: 0, timeoutS: options.timeoutS}),
      state,
      end,
      endedAt: now,
      ...(end === 'interrupted' ? {signal: stopSignalOf(interrupt.signal.reason)} : {}),
      ...(error === undefined ? {} : {error}),
    }
    const unwatched = runIds().filter((id) => !watched.has(id))
    return concludeWait(outcome, state.rules as WatchOptions, reports, deps, {...waitCall(), unwatched}, wallStart)
  }
  try {
    for (let look = 1; ; look++) {
      const count = look === 1 ? policy.first : 1
      for (let i = 0; i < count; i++) {
        if (interrupt.signal.aborted) return {kind: 'done', launches, ...(await endWith('interrupted'))}
        const series: LaunchSeries = {earlier: new Set(runIds())}
        const which = launchName(launches.length + 1, policy)
        let made: LaunchOutcome
        try {
          made = await launchEvalSet(client, org, evalSetId, policy.max === 1 ? undefined : series, interrupt.signal)
        } catch (error) {
          if (interrupt.signal.aborted) {
            const {words} = STOP_SIGNALS[stopSignalOf(interrupt.signal.reason)]
            deps.out.notice(
              `interrupted (${words}) while ${policy.max === 1 ? 'the launch' : which} was sent: it may have happened; \`${shellLine(['amctl', 'runs', 'list', '--org', org, '--eval-set', evalSetId])}\` shows it`,
            )
            return {kind: 'done', launches, ...(await endWith('interrupted'))}
          }
          // the first launch failed: nothing was launched, nothing to name or report (the error alone, as any)
          if (!(error instanceof AmctlError) || launches.length === 0) throw error
          const failed = withLaunch(error, which)
          return {kind: 'failed', error: failed, launches, ...(await endWith('error', failed))}
        }
        if (made.outcome === 'unknown') {
          // (the first launch: nothing before it to name or report; contract 1.6 as ever)
          const concluded = launches.length === 0 ? undefined : await endWith('error', withLaunch(made.error, which))
          return {kind: 'unknown', launch: made, which, launches, concluded}
        }
        launches.push(made.result)
      }
      if (look === 1) hooks.launched?.(launches)
      const looked = await waitLook(runIds(), rulesAt(), reports, deps, waitCall())
      if (looked.result !== undefined) return {kind: 'done', launches, ...looked}
      const {outcome} = looked
      lastLook = {...outcome, end: 'not-passed'}
      lastFor = []
      for (const {group, judgement} of outcome.state.judged()) {
        if (judgement.more) lastFor.push(group.id)
        else if (!decided.has(group.id)) decided.set(group.id, judgement)
      }
      if (options.timeoutS > 0 && (clock.now() - started) / 1000 >= options.timeoutS) {
        // no time left for another launch: the step ends as a timeout, its undecided groups said so
        const timedOut = {...outcome, end: 'timeout' as const}
        return {kind: 'done', launches, ...(await concludeWait(timedOut, rulesAt(), reports, deps, waitCall(), wallStart))}
      }
    }
  } finally {
    stopListening()
  }
}

/** "launch 2 of 3", "launch 2 of at most 5" (--repeat auto), "launch 4 (relaunch 1 of at most 2)". */
function launchName(n: number, policy: LaunchPolicy): string {
  if (policy.auto) return `launch ${n} of at most ${policy.max}`
  if (n <= policy.first) return `launch ${n} of ${policy.first}`
  return `launch ${n} (relaunch ${n - policy.first} of at most ${policy.max - policy.first})`
}

/** A launch's failure as the step says it: which launch failed, and that none follows (the runs of the earlier ones are named with it). */
function withLaunch(error: AmctlError, which: string): AmctlError {
  const message = `${which} failed: ${errorText(error)}; no further launch was made`
  return new AmctlError(message, {
    code: error.code,
    exitCode: error.exitCode,
    status: error.status,
    requestId: error.requestId,
    hint: error.hint,
    cause: error,
  })
}
