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

  it('a time limit: the system clock aborts its timeout signal after its time, a fake clock when a sleep reaches it', async () => {
    // fractional milliseconds (the system clock's own), and more than one timer can wait, are fine
    expect(() => systemClock.timeout(3_600_000.0000000005)).not.toThrow()
    expect(systemClock.timeout(2 ** 31 + 5).aborted).toBe(false)
    const real = systemClock.timeout(20.5)
    expect(real.aborted).toBe(false)
    await new Promise((resolve) => real.addEventListener('abort', resolve, {once: true}))
    expect(real.reason).toMatchObject({name: 'TimeoutError'})
    const fake = fakeClock(0)
    const limit = fake.timeout(1500)
    await fake.sleep(1000)
    expect(limit.aborted).toBe(false)
    await fake.sleep(1000)
    expect(limit.aborted).toBe(true)
    expect(fake.timeout(0).aborted).toBe(true)
  })

  it('a fake clock moves time by each sleep and records it', async () => {
    const fake = fakeClock(1000)
    await fake.sleep(250)
    await fake.sleep(60_000)
    expect(fake.now()).toBe(61_250)
    expect(fake.sleeps).toEqual([250, 60_000])
  })
})
