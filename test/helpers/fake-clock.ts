import type {Clock} from '../../src/core/clock.js'

/**
 * A clock for waits under test: `sleep` moves `now` forward by the time asked at once (after
 * letting other work run), so a 60-minute wait takes no real time. `sleeps` records each sleep;
 * `onSleep` runs (and is awaited) before one (e.g. to press Ctrl-C at the third).
 */
export interface FakeClock extends Clock {
  sleeps: number[]
  onSleep?: (count: number) => unknown
}

export function fakeClock(start = 1_000_000): FakeClock {
  let now = start
  const clock: FakeClock = {
    sleeps: [],
    now: () => now,
    async sleep(ms) {
      clock.sleeps.push(ms)
      await clock.onSleep?.(clock.sleeps.length)
      now += ms
      await new Promise((resolve) => setImmediate(resolve))
    },
  }
  return clock
}
