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
  /** a signal that aborts `ms` from now (a time limit that cuts off work under way: --wait-timeout) */
  timeout(ms: number): AbortSignal
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
  timeout: (ms) => {
    // by hand, not AbortSignal.timeout: that takes whole milliseconds below 2^31 only (this
    // clock's are fractional, and `--wait-timeout 720h` is more); unref'd timers, chained
    const controller = new AbortController()
    const arm = (left: number): void => {
      const step = Math.min(Math.max(0, Math.ceil(left)), MAX_TIMER_MS)
      const timer = setTimeout(() => {
        if (left - step > 0) arm(left - step)
        else controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
      }, step)
      timer.unref()
    }
    arm(ms)
    return controller.signal
  },
}

/** The longest delay one Node timer takes (2^31 − 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2_147_483_647
