import {AmctlError, ExitCode} from '../core/errors.js'
import type {Clock} from '../core/clock.js'
import {STOP_SIGNALS, type StopSignal, stopSignalOf} from '../core/signals.js'
import type {PollResult} from './poll.js'
import type {BaselineLookup} from './baseline.js'
import type {WatchRules} from './rules.js'
import {type RunChange, type Verdict, WatchState} from './state.js'

/** How a wait is run (contract 5): the flags, checked. */
export interface WatchOptions extends WatchRules {
  /** seconds between polls (at least 1) */
  intervalS: number
  /** seconds before the wait gives up; 0 = no limit */
  timeoutS: number
  /** the clock time the limit counts from: the `--baseline RUN_ID` lookup made first (./wait.ts); else the wait's start */
  limitFrom?: number
}

export interface WatchHooks {
  /**
   * poll `number` (1, 2 …): looks for the pending runs (contract 5's planner, ./poll.ts);
   * `signal` aborts at Ctrl-C or the time limit: the requests under way are cancelled
   */
  poll(pending: ReadonlySet<string>, number: number, signal: AbortSignal): Promise<PollResult>
  /**
   * `--baseline history|previous`: each group's baseline, by group ID (./baseline.ts), looked up
   * once, after the first poll found every run and before any verdict; `signal` as for poll
   */
  baselines?(state: WatchState, signal: AbortSignal): Promise<BaselineLookup>
  /** the list polled, for the not-found error: "the runs of acme" */
  listName: string
  clock: Clock
  /**
   * Ctrl-C or SIGTERM: ends the wait at once, even in the middle of a poll; aborted with the
   * StopSignal as its reason (none: Ctrl-C)
   */
  signal?: AbortSignal
  /** after every poll, with the status changes it found */
  onPoll?(state: WatchState, changes: RunChange[]): void
  /** about once a second between polls (a live view redraws its elapsed times) */
  onTick?(state: WatchState): void
}

/** How a wait ends; `error`: a launch of the step failed (./launches.ts), and the wait ends with what was judged before it. */
export type WatchEnd = Verdict | 'timeout' | 'interrupted' | 'error'

export interface WatchOutcome {
  end: WatchEnd
  /** the time limit (end `timeout`) cut this short: the search for the baselines, or a poll */
  cut?: 'baselines' | 'poll'
  /** end `interrupted`: the signal that ended the wait (the first, when two came) */
  signal?: StopSignal
  /** end `error`: what failed (a launch after its retries), whose exit code the step ends with */
  error?: AmctlError
  state: WatchState
  /** clock ms */
  startedAt: number
  endedAt: number
  polls: number
  /** the time limit it had (seconds; 0 = none) */
  timeoutS: number
}

/** An end the command ends with (`undecided` is not one: --repeat auto launches again). */
export type FinalOutcome = WatchOutcome & {end: Exclude<WatchEnd, 'undecided'>}

/** Exit code of each end (contract 1.5): 0, 10 not passed, 11 timed out; interrupted: its signal's (Ctrl-C 130, SIGTERM 143); an error its own. */
const EXIT_BY_END: Readonly<Record<Exclude<FinalOutcome['end'], 'interrupted' | 'error'>, number>> = {
  passed: ExitCode.ok,
  'not-passed': ExitCode.notPassed,
  timeout: ExitCode.waitTimeout,
}

/** The signal that interrupted `outcome` (Ctrl-C when it names none). */
export const interruptedBy = (outcome: WatchOutcome): StopSignal => stopSignalOf(outcome.signal)

/** The exit code a wait that ended as `outcome` ends the command with. */
export function exitCodeOf(outcome: FinalOutcome): number {
  if (outcome.end === 'error') return outcome.error?.exitCode ?? ExitCode.failure
  return outcome.end === 'interrupted' ? STOP_SIGNALS[interruptedBy(outcome)].exitCode : EXIT_BY_END[outcome.end]
}

/** A redraw of elapsed times about this often between polls. */
export const TICK_MS = 1000

/** The last poll, made when the time limit comes, is given at most this long (a time limit of its own). */
export const LAST_POLL_MS = 5000

export const ABORTED = Symbol('aborted')

/** `work`, or ABORTED as soon as `signal` aborts (the work is then abandoned, its failure ignored). */
export function orAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (signal === undefined) return work
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      work.catch(() => {})
      resolve(ABORTED)
    }
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, {once: true})
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/** A signal that aborts when any of `signals` does (Ctrl-C, a time limit); a never-aborting one without any. */
function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal {
  const given = signals.filter((s): s is AbortSignal => s !== undefined)
  return given.length === 1 ? given[0] : AbortSignal.any(given)
}

/** Watched runs the whole list does not hold: exit 5 naming them. */
export function notFound(missing: string[], listName: string): AmctlError {
  const which = missing.length === 1 ? `run "${missing[0]}" is` : `runs ${missing.map((id) => `"${id}"`).join(', ')} are`
  return new AmctlError(`${which} not among ${listName}`, {code: 'not_found', exitCode: ExitCode.notFound})
}

/**
 * Waits for runs (contract 5): polls at once, then every `intervalS` seconds, until the verdict
 * (./state.ts), the time limit, or Ctrl-C. With --baseline the baselines are looked up once,
 * after the first poll (every run is known then: a missing one has ended the wait) and before
 * the first verdict. The time limit bounds the whole wait: a poll or the search for the
 * baselines under way when it comes is cut off (its requests cancelled; `cut` says which, and
 * runs whose baseline was never found stay unjudged); when it comes between polls, one last
 * poll is made, given LAST_POLL_MS. A watched run missing from the whole list ends the wait with
 * exit 5; an error of a poll (after the client's retries) ends it with its own exit code. Pure
 * apart from `hooks`: tests give it a fake clock and a fake poll.
 */
export async function watchRuns(ids: readonly string[], options: WatchOptions, hooks: WatchHooks): Promise<WatchOutcome> {
  const {clock, signal} = hooks
  const state = new WatchState([...new Set(ids)], options)
  const startedAt = clock.now()
  const deadline = options.timeoutS > 0 ? (options.limitFrom ?? startedAt) + options.timeoutS * 1000 : Number.POSITIVE_INFINITY
  const timeUp = Number.isFinite(deadline) ? clock.timeout(Math.max(0, deadline - startedAt)) : undefined
  let polls = 0
  const end = (how: WatchEnd, cut?: WatchOutcome['cut']): WatchOutcome => ({
    end: how,
    ...(cut === undefined ? {} : {cut}),
    ...(how === 'interrupted' ? {signal: stopSignalOf(signal?.reason)} : {}),
    state,
    startedAt,
    endedAt: clock.now(),
    polls,
    timeoutS: options.timeoutS,
  })
  /** What the time limit cut, or Ctrl-C (SIGTERM). */
  const stopped = (cut: WatchOutcome['cut']): WatchOutcome => (signal?.aborted ? end('interrupted') : end('timeout', cut))

  /** Sleeps until `at` in steps of TICK_MS; true when Ctrl-C (SIGTERM) came first. */
  const waitUntil = async (at: number): Promise<boolean> => {
    for (;;) {
      const left = at - clock.now()
      if (left <= 0) return false
      await clock.sleep(Math.min(TICK_MS, left), signal)
      if (signal?.aborted) return true
      hooks.onTick?.(state)
    }
  }

  for (;;) {
    // Ctrl-C, and the time limit (the last poll, at the limit, has one of its own)
    const limit = clock.now() >= deadline ? clock.timeout(LAST_POLL_MS) : timeUp
    const stop = anySignal(signal, limit)
    const result = await orAbort(hooks.poll(state.pending(), polls + 1, stop), stop)
    if (result === ABORTED) return stopped('poll')
    polls++
    if (result.missing.length > 0) throw notFound(result.missing, hooks.listName)
    const changes = state.apply(result.found, clock.now())
    if (state.needsBaselines()) {
      const lookup: BaselineLookup | typeof ABORTED =
        state.rules.baseline?.kind !== 'run' && hooks.baselines ? await orAbort(hooks.baselines(state, stop), stop) : {found: new Map()}
      if (lookup === ABORTED) {
        hooks.onPoll?.(state, changes)
        return stopped('baselines')
      }
      state.setBaselines(lookup.found, lookup.historyFound, lookup.missing)
    }
    hooks.onPoll?.(state, changes)
    const verdict = state.verdict()
    if (verdict !== undefined) return end(verdict)
    const now = clock.now()
    if (now >= deadline) return end('timeout')
    if (await waitUntil(Math.min(now + options.intervalS * 1000, deadline))) return end('interrupted')
  }
}
