import {AmctlError, ExitCode} from '../core/errors.js'
import type {Clock} from '../core/clock.js'
import type {PollResult} from './poll.js'
import type {BaselineLookup} from './baseline.js'
import {type RunChange, type Verdict, type WatchRules, WatchState} from './state.js'

/** How a wait is run (contract 5): the flags, checked. */
export interface WatchOptions extends WatchRules {
  /** seconds between polls (at least 1) */
  intervalS: number
  /** seconds before the wait gives up; 0 = no limit */
  timeoutS: number
}

export interface WatchHooks {
  /** poll `number` (1, 2 …): looks for the pending runs (contract 5's planner, ./poll.ts) */
  poll(pending: ReadonlySet<string>, number: number): Promise<PollResult>
  /**
   * `--baseline history|previous`: each group's baseline, by group ID (./baseline.ts), looked up
   * once, after the first poll found every run and before any verdict
   */
  baselines?(state: WatchState): Promise<BaselineLookup>
  /** the list polled, for the not-found error: "the runs of acme" */
  listName: string
  clock: Clock
  /** Ctrl-C: ends the wait at once, even in the middle of a poll */
  signal?: AbortSignal
  /** after every poll, with the status changes it found */
  onPoll?(state: WatchState, changes: RunChange[]): void
  /** about once a second between polls (a live view redraws its elapsed times) */
  onTick?(state: WatchState): void
}

export type WatchEnd = Verdict | 'timeout' | 'interrupted'

export interface WatchOutcome {
  end: WatchEnd
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

/** Exit code of each end (contract 1.5): 0, 10 not passed, 11 timed out, 130 interrupted. */
export const EXIT_BY_END: Readonly<Record<FinalOutcome['end'], number>> = {
  passed: ExitCode.ok,
  'not-passed': ExitCode.notPassed,
  timeout: ExitCode.waitTimeout,
  interrupted: ExitCode.interrupted,
}

/** A redraw of elapsed times about this often between polls. */
export const TICK_MS = 1000

const ABORTED = Symbol('aborted')

/** `work`, or ABORTED as soon as `signal` aborts (the work is then abandoned, its failure ignored). */
function orAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
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

/** Watched runs the whole list does not hold: exit 5 naming them. */
export function notFound(missing: string[], listName: string): AmctlError {
  const which = missing.length === 1 ? `run "${missing[0]}" is` : `runs ${missing.map((id) => `"${id}"`).join(', ')} are`
  return new AmctlError(`${which} not among ${listName}`, {code: 'not_found', exitCode: ExitCode.notFound})
}

/**
 * Waits for runs (contract 5): polls at once, then every `intervalS` seconds, until the verdict
 * (./state.ts), the time limit (a last poll is made when it comes), or Ctrl-C. With
 * --baseline the baselines are looked up once, after the first poll (every run is known then:
 * a missing one has ended the wait) and before the first verdict. A watched
 * run missing from the whole list ends the wait with exit 5; an error of a poll (after the
 * client's retries) ends it with its own exit code. Pure apart from `hooks`: tests give it a
 * fake clock and a fake poll.
 */
export async function watchRuns(ids: readonly string[], options: WatchOptions, hooks: WatchHooks): Promise<WatchOutcome> {
  const {clock, signal} = hooks
  const state = new WatchState([...new Set(ids)], options)
  const startedAt = clock.now()
  const deadline = options.timeoutS > 0 ? startedAt + options.timeoutS * 1000 : Number.POSITIVE_INFINITY
  let polls = 0
  const end = (how: WatchEnd): WatchOutcome => ({end: how, state, startedAt, endedAt: clock.now(), polls, timeoutS: options.timeoutS})

  /** Sleeps until `at` in steps of TICK_MS; true when Ctrl-C came first. */
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
    const result = await orAbort(hooks.poll(state.pending(), polls + 1), signal)
    if (result === ABORTED) return end('interrupted')
    polls++
    if (result.missing.length > 0) throw notFound(result.missing, hooks.listName)
    const changes = state.apply(result.found, clock.now())
    if (state.needsBaselines()) {
      const lookup: BaselineLookup | typeof ABORTED =
        state.rules.baseline?.kind !== 'run' && hooks.baselines ? await orAbort(hooks.baselines(state), signal) : {found: new Map()}
      if (lookup === ABORTED) return end('interrupted')
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
