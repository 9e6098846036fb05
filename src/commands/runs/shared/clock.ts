import {setTimeout as delay} from 'node:timers/promises'

/**
 * Time as the wait for runs sees it: a monotonic `now` (ms) and a `sleep` that a Ctrl-C cuts
 * short. Tests install a fake one with `setClock`, so nothing in them really waits.
 */
export interface Clock {
  now(): number
  /** resolves after `ms`, or at once when `signal` aborts */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) => delay(ms, undefined, {signal}).then(
    () => undefined,
    () => undefined, // aborted: the caller looks at the signal
  ),
}

let current: Clock = systemClock

export function clock(): Clock {
  return current
}

/** For tests: a fake clock (undefined restores the real one). */
export function setClock(next: Clock | undefined): void {
  current = next ?? systemClock
}
