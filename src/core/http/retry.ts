/**
 * The retry policy of cli-contract.md 1.6, as pure functions the client consults.
 */

export const MAX_RETRIES = 3
export const BACKOFF_BASE_MS = 500
export const BACKOFF_CAP_MS = 8000
export const RETRY_AFTER_CAP_MS = 60_000

const RETRYABLE_STATUS = new Set([429, 502, 503, 504])

/** What went wrong with one attempt. */
export type Failure =
  | {kind: 'status'; status: number}
  /** The connection failed; `refused` when it was refused before anything was written. */
  | {kind: 'network'; refused: boolean}
  | {kind: 'timeout'}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase())
}

/**
 * GET, PUT, PATCH, DELETE: connection errors, timeouts, 429, 502, 503, 504.
 * POST: only when the server provably did not take it: 429, or refused before writing.
 */
export function shouldRetry(method: string, failure: Failure): boolean {
  if (failure.kind === 'status') {
    if (!RETRYABLE_STATUS.has(failure.status)) return false
    return isIdempotent(method) || failure.status === 429
  }
  if (isIdempotent(method)) return true
  return failure.kind === 'network' && failure.refused
}

/** Full-jitter exponential backoff for retry number `retry` (1-based), capped at 8 s. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (retry - 1))
  return Math.floor(random() * ceiling)
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date (from `now`, the time of day); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  if (text === '') return undefined
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  if (/^[+-]?\d/.test(text)) return undefined // a signed or malformed number, not a date
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

/** The wait before the next attempt: the larger of Retry-After and the backoff, capped at 60 s. */
export function retryDelayMs(retry: number, retryAfterMs: number | undefined, random?: () => number): number {
  const backoff = backoffMs(retry, random)
  if (retryAfterMs === undefined) return backoff
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(retryAfterMs, backoff))
}
