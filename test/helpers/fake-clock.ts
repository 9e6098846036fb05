import type {Clock} from '../../src/core/clock.js'

/**
 * The time of day a fake clock starts at, unless a test gives another: fixed, so that what a
 * command shows relative to now ("3 minutes ago", --since 2h) is the same on every run.
 */
export const FAKE_WALL_START = Date.parse('2026-01-15T12:00:00.000Z')

/**
 * A clock for waits under test: `sleep` moves `now` and `wall` forward by the time asked at once
 * (after letting other work run), so a 60-minute wait takes no real time. `sleeps` records each
 * sleep; `onSleep` runs (and is awaited) before one (e.g. to press Ctrl-C at the third).
 * `advance(ms)` moves both on without a sleep (time that passed while a request was answered). A
 * `timeout` signal aborts when the clock reaches its time (time moves only by sleeps and
 * `advance`: a fake server that takes time sleeps on this clock).
 */
export interface FakeClock extends Clock {
  sleeps: number[]
  onSleep?: (count: number) => unknown
  advance(ms: number): void
}

export function fakeClock(start = 1_000_000, wallStart = FAKE_WALL_START): FakeClock {
  let elapsed = 0
  const timers: Array<{at: number; controller: AbortController}> = []
  const fire = () => {
    for (const timer of timers.filter((t) => t.at <= start + elapsed)) {
      timers.splice(timers.indexOf(timer), 1)
      timer.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
    }
  }
  const clock: FakeClock = {
    sleeps: [],
    now: () => start + elapsed,
    wall: () => wallStart + elapsed,
    advance(ms) {
      elapsed += ms
      fire()
    },
    async sleep(ms) {
      clock.sleeps.push(ms)
      await clock.onSleep?.(clock.sleeps.length)
      elapsed += ms
      fire()
      await new Promise((resolve) => setImmediate(resolve))
    },
    timeout(ms) {
      const controller = new AbortController()
      timers.push({at: start + elapsed + ms, controller})
      fire()
      return controller.signal
    },
  }
  return clock
}
