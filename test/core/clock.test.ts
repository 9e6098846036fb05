import {afterEach, describe, expect, it} from 'vitest'
import {clock, setClock, systemClock} from '../../src/core/clock.js'
import {fakeClock} from '../helpers/fake-clock.js'

// The one clock of every wait: tests install their own, code asks clock().
afterEach(() => setClock(undefined))

describe('clock', () => {
  it('is the system clock until a test installs another, and again after', () => {
    expect(clock()).toBe(systemClock)
    const fake = fakeClock(5)
    setClock(fake)
    expect(clock()).toBe(fake)
    setClock(undefined)
    expect(clock()).toBe(systemClock)
  })

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
