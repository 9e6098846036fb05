import {TOKEN_EXPIRY_MAX_DAYS} from '../api/types.js'
import {UsageError} from './errors.js'

/**
 * Checks of user input that every command shares; each failure names the flag or argument,
 * what it got and what is accepted (exit 2, before any request).
 */

/** An ID given as an argument: non-empty, no whitespace, none of / ? # %, not . or .. */
export function requireId(label: string, value: string | undefined): string {
  const v = value ?? ''
  if (v.trim() === '') throw new UsageError(`${label} must not be empty`)
  if (/[\s\u0000-\u001F\u007F]/.test(v)) throw new UsageError(`${label} must not contain whitespace or control characters, got ${JSON.stringify(v)}`)
  if (/[/?#%\\]/.test(v)) throw new UsageError(`${label} must not contain any of / ? # % \\, got ${JSON.stringify(v)}`)
  if (v === '.' || v === '..') throw new UsageError(`${label} cannot be "${v}"`)
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
  const m = /^\s*(\d+)d\s*$/.exec(value)
  if (!m) throw new UsageError(`${label} must be a number of days written as <N>d (e.g. 30d), got "${value}"`)
  const days = Number(m[1])
  if (days < 1 || days > TOKEN_EXPIRY_MAX_DAYS) {
    throw new UsageError(`${label} must be from 1d to ${TOKEN_EXPIRY_MAX_DAYS}d, got "${value}"`)
  }
  return `${days}d`
}

/** A non-empty single-line string. */
export function requireText(label: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${label} must not be empty`)
  return value
}
