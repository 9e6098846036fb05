import {setTimeout as delay} from 'node:timers/promises'

/**
 * Time, as amctl waits for it: retry back-off, device-flow polling, waiting for runs, the pace of
 * a progress line. Code that waits is handed a clock (a command's comes from its world,
 * src/base/world.ts); tests hand in one whose sleeps take no real time (test/helpers/fake-clock.ts).
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
