import {setTimeout as delay} from 'node:timers/promises'

/**
 * Time, as amctl reads and waits for it: retry back-off, device-flow polling, waiting for runs,
 * the pace of a progress line (monotonic `now`), and the time of day of what it shows and writes
 * (`wall`: "3 minutes ago", --since 2h, the reports' timestamps). Code that needs either is
 * handed a clock (a command's comes from its world, src/base/world.ts, the one place that chooses
 * the system's); tests hand in one whose sleeps take no real time and whose time of day is fixed
 * (test/helpers/fake-clock.ts).
 */
export interface Clock {
  /** monotonic milliseconds */
  now(): number
  /** the time of day: milliseconds since the epoch, as Date.now() gives them */
  wall(): number
  /** resolves after `ms`, or at once when `signal` aborts (the caller looks at the signal) */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  // process.hrtime rather than performance.now(): the global `performance` loads perf_hooks (ten
  // internal modules, ~1.5 ms of every API command's start) on first use
  now: () => Number(process.hrtime.bigint()) / 1e6,
  wall: () => Date.now(),
  sleep: (ms, signal) =>
    delay(ms, undefined, {signal}).then(
      () => undefined,
      () => undefined,
    ),
}
