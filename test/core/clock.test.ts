import {describe, expect, it} from 'vitest'
import {systemClock} from '../../src/core/clock.js'
import {fakeClock} from '../helpers/fake-clock.js'

// The clock of every wait: a command's comes with its world (src/base/world.ts), and a test hands in a fake one.

describe('clock', () => {
  it('the system clock resolves a sleep whose signal is aborted at once, without rejecting', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(systemClock.sleep(3_600_000, controller.signal)).resolves.toBeUndefined()
    const later = new AbortController()
    const sleeping = systemClock.sleep(3_600_000, later.signal)
    later.abort()
    await expect(sleeping).resolves.toBeUndefined()
  })

  it('a fake clock moves time by each sleep and records it', async () => {
    const fake = fakeClock(1000)
    await fake.sleep(250)
    await fake.sleep(60_000)
    expect(fake.now()).toBe(61_250)
    expect(fake.sleeps).toEqual([250, 60_000])
  })
})
