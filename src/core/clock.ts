/**
 * Time, as amctl waits for it: retry back-off, device-flow polling, waiting for runs. Commands
 * and the HTTP client ask `clock()`; tests install a clock whose sleeps return at once (and whose
 * `now` moves on by what was slept) with `setClock`, like the streams with `setIO`.
 */
export interface Clock {
  now(): number
  sleep(ms: number): Promise<void>
}

const system: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

let current: Clock = system

export function clock(): Clock {
  return current
}

/** For tests: replace the clock (undefined restores the real one). */
export function setClock(next: Clock | undefined): void {
  current = next ?? system
}

/** A clock for tests: sleeping returns at once and moves `now` on; `slept` records each wait. */
export function instantClock(start = Date.now()): Clock & {slept: number[]} {
  let at = start
  const slept: number[] = []
  return {
    slept,
    now: () => at,
    sleep: async (ms) => {
      slept.push(ms)
      at += ms
    },
  }
}
