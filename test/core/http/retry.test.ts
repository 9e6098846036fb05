import {describe, expect, it} from 'vitest'
import {
  backoffMs,
  BACKOFF_CAP_MS,
  MAX_RETRIES,
  parseRetryAfter,
  RETRY_AFTER_CAP_MS,
  retryDelayMs,
  shouldRetry,
  type Failure,
} from '../../../src/core/http/retry.js'

const status = (s: number): Failure => ({kind: 'status', status: s})
const FAILURES: Record<string, Failure> = {
  '429': status(429),
  '502': status(502),
  '503': status(503),
  '504': status(504),
  '500': status(500),
  '400': status(400),
  '404': status(404),
  '409': status(409),
  timeout: {kind: 'timeout'},
  'network refused': {kind: 'network', refused: true},
  'network after send': {kind: 'network', refused: false},
}

// the contract's table (cli-contract.md 1.6)
const IDEMPOTENT_RETRIES = ['429', '502', '503', '504', 'timeout', 'network refused', 'network after send']
const POST_RETRIES = ['429', 'network refused']

describe('shouldRetry', () => {
  for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
    for (const [name, failure] of Object.entries(FAILURES)) {
      const expected = IDEMPOTENT_RETRIES.includes(name)
      it(`${method} × ${name} → ${expected ? 'retry' : 'no retry'}`, () => {
        expect(shouldRetry(method, failure)).toBe(expected)
      })
    }
  }
  for (const [name, failure] of Object.entries(FAILURES)) {
    const expected = POST_RETRIES.includes(name)
    it(`POST × ${name} → ${expected ? 'retry' : 'no retry'}`, () => {
      expect(shouldRetry('POST', failure)).toBe(expected)
    })
  }

  it('allows at most 3 retries (4 attempts)', () => {
    expect(MAX_RETRIES).toBe(3)
  })
})

describe('backoffMs (full jitter)', () => {
  it('stays within [0, min(8 s, 500 ms · 2^(n-1))) for every retry', () => {
    for (let retry = 1; retry <= 12; retry++) {
      const ceiling = Math.min(8000, 500 * 2 ** (retry - 1))
      expect(backoffMs(retry, () => 0)).toBe(0)
      const top = backoffMs(retry, () => 0.999_999)
      expect(top).toBeLessThan(ceiling)
      expect(top).toBeGreaterThanOrEqual(ceiling - 1)
      for (let i = 0; i < 50; i++) {
        const v = backoffMs(retry)
        expect(v).toBeGreaterThanOrEqual(0)
        expect(v).toBeLessThan(ceiling)
      }
    }
  })

  it('grows exponentially, then caps at 8 s', () => {
    const half = () => 0.5
    expect([1, 2, 3, 4, 5, 6, 20].map((r) => backoffMs(r, half))).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000])
    expect(BACKOFF_CAP_MS).toBe(8000)
    expect(backoffMs(30, () => 0.999_999)).toBeLessThan(8000)
  })

  it('is jittered: different random values give different waits', () => {
    expect(backoffMs(3, () => 0.1)).not.toBe(backoffMs(3, () => 0.9))
  })
})

describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0)

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0)
    expect(parseRetryAfter('7', now)).toBe(7000)
    expect(parseRetryAfter(' 2 ', now)).toBe(2000)
    expect(parseRetryAfter('1.5', now)).toBe(1500)
  })

  it('ignores a negative or signed number instead of reading it as a date', () => {
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('+3', now)).toBeUndefined()
  })

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter(new Date(now + 12_000).toUTCString(), now)).toBe(12_000)
    expect(parseRetryAfter('Wed, 01 Jan 2025 12:01:00 GMT', now)).toBe(60_000)
  })

  it('treats a date in the past as no wait', () => {
    expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).toBe(0)
  })

  it('ignores absent, empty and unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(parseRetryAfter('', now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
  })
})

describe('retryDelayMs', () => {
  it('is the backoff when there is no Retry-After', () => {
    expect(retryDelayMs(2, undefined, () => 0.5)).toBe(500)
  })

  it('is the larger of Retry-After and the backoff', () => {
    // Retry-After larger
    expect(retryDelayMs(1, 3000, () => 0.5)).toBe(3000)
    // backoff larger
    expect(retryDelayMs(3, 100, () => 0.5)).toBe(1000)
    expect(retryDelayMs(3, 0, () => 0.5)).toBe(1000)
  })

  it('caps the wait at 60 s', () => {
    expect(RETRY_AFTER_CAP_MS).toBe(60_000)
    expect(retryDelayMs(1, 120_000, () => 0.5)).toBe(60_000)
    expect(retryDelayMs(1, 3_600_000, () => 0)).toBe(60_000)
    expect(retryDelayMs(1, 59_000, () => 0)).toBe(59_000)
  })
})
