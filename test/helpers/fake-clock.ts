import type {Clock} from '../../src/core/clock.js'

/**
 * A clock for waits under test: `sleep` moves `now` forward by the time asked at once (after
 * letting other work run), so a 60-minute wait takes no real time. `sleeps` records each sleep;
 * `onSleep` runs (and is awaited) before one (e.g. to press Ctrl-C at the third). A `timeout`
 * signal aborts when a sleep moves `now` to its time (time moves only by sleeps: a fake server
 * that takes time sleeps on this clock).
 */
export interface FakeClock extends Clock {
  sleeps: number[]
  onSleep?: (count: number) => unknown
}

export function fakeClock(start = 1_000_000): FakeClock {
  let now = start
  const timers: Array<{at: number; controller: AbortController}> = []
  const fire = () => {
    for (const timer of timers.filter((t) => t.at <= now)) {
      timers.splice(timers.indexOf(timer), 1)
      timer.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
    }
  }
  const clock: FakeClock = {
    sleeps: [],
    now: () => now,
    async sleep(ms) {
      clock.sleeps.push(ms)
      await clock.onSleep?.(clock.sleeps.length)
      now += ms
      fire()
      await new Promise((resolve) => setImmediate(resolve))
    },
    timeout(ms) {
      const controller = new AbortController()
      timers.push({at: now + ms, controller})
      fire()
      return controller.signal
    },
  }
  return clock
}
