import {expiryDays, idProblem, TOKEN_EXPIRY_DAYS} from '../contract/vocabulary.js'
import {UsageError} from '../core/errors.js'

/**
 * Checks of user input that every command shares; each failure names the flag or argument,
 * what it got and what is accepted (exit 2, before any request).
 */

/**
 * An ID given as an argument or flag (contract 3): sent as one percent-encoded path segment
 * whatever it holds; only the empty ID, `.`, `..` and control characters are refused.
 */
export function requireId(label: string, value: string | undefined): string {
  const v = value ?? ''
  const problem = idProblem(v)
  if (problem !== undefined) throw new UsageError(`${label} ${problem}, got ${JSON.stringify(v)}`)
  return v
}

/** A whole number in [min, max], written as digits only. */
export function parseIntegerInRange(label: string, value: string, min: number, max: number): number {
  const text = value.trim()
  if (!/^[+-]?\d+$/.test(text)) throw new UsageError(`${label} must be a whole number from ${min} to ${max}, got "${value}"`)
  const n = Number(text)
  if (n < min || n > max) throw new UsageError(`${label} must be from ${min} to ${max}, got ${n}`)
  return n
}

/** `<N>d` with N from 1 to 3650: token expiry. Returns the canonical form ("30d"). */
export function parseExpiry(label: string, value: string): string {
  const text = value.trim()
  if (!/^\d+d$/.test(text)) throw new UsageError(`${label} must be a number of days written as <N>d (e.g. 30d), got "${value}"`)
  const days = expiryDays(text.replace(/^0+(?=\d)/, ''))
  if (days === undefined)
    throw new UsageError(`${label} must be from ${TOKEN_EXPIRY_DAYS.min}d to ${TOKEN_EXPIRY_DAYS.max}d, got "${value}"`)
  return `${days}d`
}

/** A non-empty string. */
export function requireText(label: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${label} must not be empty`)
  return value
}

/**
 * A number (digits with an optional fraction, e.g. `0.8`, `.5`, `2`) in [min, max]: scores,
 * polling intervals. `what` says what is accepted ("a score from 0 to 1").
 */
export function parseNumberInRange(label: string, value: string, min: number, max: number, what?: string): number {
  const text = value.trim()
  const n = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN
  if (!(n >= min && n <= max)) throw new UsageError(`${label} must be ${what ?? `a number from ${min} to ${max}`}, got "${value}"`)
  return n
}

const DURATION_UNITS: Readonly<Record<string, number>> = {'': 1, s: 1, m: 60, h: 3600}

/**
 * A duration as `90s`, `15m`, `2h` or plain seconds (`90`), returned in seconds; `0` is 0.
 * Hand-written: the four forms are the whole grammar, and plain numbers mean seconds (the
 * usual duration parsers, `ms` and kin, take them as milliseconds and accept much more).
 */
export function parseDuration(label: string, value: string): number {
  const m = /^(\d{1,9})([smh]?)$/.exec(value.trim())
  if (!m) throw new UsageError(`${label} must be a duration such as 90s, 15m, 2h or a number of seconds, got "${value}"`)
  return Number(m[1]) * DURATION_UNITS[m[2]]
}
