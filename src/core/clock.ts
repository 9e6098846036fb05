import {setTimeout as delay} from 'node:timers/promises'

/**
 * Time, as amctl waits for it: retry back-off, device-flow polling, waiting for runs. Code asks
 * `clock()`; tests install a clock whose sleeps take no real time (test/helpers/fake-clock.ts)
 * with `setClock`, like the streams with `setIO`.
 */
export interface Clock {
  /** monotonic milliseconds */
  now(): number
  /** resolves after `ms`, or at once when `signal` aborts (the caller looks at the signal) */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  // process.hrtime rather than performance.now(): the global `performance` loads perf_hooks (ten
  // internal modules, ~1.5 ms of every API command's start) on first use
  now: () => Number(process.hrtime.bigint()) / 1e6,
  sleep: (ms, signal) =>
    delay(ms, undefined, {signal}).then(
      () => undefined,
      () => undefined,
    ),
}

let current: Clock = systemClock

export function clock(): Clock {
  return current
}

/** For tests: replace the clock (undefined restores the real one). */
export function setClock(next: Clock | undefined): void {
  current = next ?? systemClock
}
