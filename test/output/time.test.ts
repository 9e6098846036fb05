import {describe, expect, it} from 'vitest'
import {relativeTime, shortDuration} from '../../src/output/time.js'

// A fixed "now": the formatting is a function of the two instants, never of the clock.
const NOW = Date.parse('2026-11-23T12:00:00Z')
const at = (seconds: number) => new Date(NOW + seconds * 1000).toISOString()

describe('relativeTime', () => {
  it.each([
    [0, 'just now'],
    [-9, 'just now'],
    [9, 'just now'],
    [-10, '10 seconds ago'],
    [-59, '59 seconds ago'],
    [-60, '1 minute ago'],
    [-3 * 60 - 20, '3 minutes ago'],
    [-3600, '1 hour ago'],
    [-5 * 3600, '5 hours ago'],
    [-86_400, '1 day ago'],
    [-3 * 86_400, '3 days ago'],
    [-7 * 86_400, '1 week ago'],
    [-30 * 86_400, '1 month ago'],
    [-400 * 86_400, '1 year ago'],
    [90, 'in 1 minute'],
    [2 * 3600, 'in 2 hours'],
  ])('%i s from now → %s', (seconds, expected) => {
    expect(relativeTime(at(seconds), NOW)).toBe(expected)
  })

  it('cuts to the whole unit (59 minutes are minutes, not an hour)', () => {
    expect(relativeTime(at(-59 * 60 - 59), NOW)).toBe('59 minutes ago')
  })

  it('gives back a value that is not a date as it is', () => {
    expect(relativeTime('yesterday-ish', NOW)).toBe('yesterday-ish')
    expect(relativeTime('', NOW)).toBe('')
  })
})

describe('shortDuration', () => {
  it.each([
    [0, '0s'],
    [45.9, '45s'],
    [60, '1m 00s'],
    [185, '3m 05s'],
    [3599, '59m 59s'],
    [3600, '1h 00m'],
    [3720, '1h 02m'],
    [-5, '0s'],
  ])('%d s → %s', (seconds, expected) => {
    expect(shortDuration(seconds)).toBe(expected)
  })
})
