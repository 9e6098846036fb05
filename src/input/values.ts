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

const DURATION_UNITS: Readonly<Record<string, number>> = {'': 1, s: 1, m: 60, h: 3600, d: 86_400}

/**
 * A duration as `90s`, `15m`, `2h` or plain seconds (`90`), returned in seconds; `0` is 0. With
 * `days`, also `30d`. Hand-written: these forms are the whole grammar, and plain numbers mean
 * seconds (the usual duration parsers, `ms` and kin, take them as milliseconds and accept much more).
 */
export function parseDuration(label: string, value: string, opts: {days?: boolean} = {}): number {
  const m = (opts.days ? /^(\d{1,9})([smhd]?)$/ : /^(\d{1,9})([smh]?)$/).exec(value.trim())
  if (!m) {
    const forms = opts.days ? '90s, 15m, 2h, 30d' : '90s, 15m, 2h'
    throw new UsageError(`${label} must be a duration such as ${forms} or a number of seconds, got "${value}"`)
  }
  return Number(m[1]) * DURATION_UNITS[m[2]]
}

// 2026-11-01, or 2026-11-01T09:30, …T09:30:15, …T09:30:15.250, each with Z, ±HH:MM or nothing (UTC)
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/

/**
 * A point in time given as a duration before `now` (`7d`, `12h`, `90m`, `3600`) or as an ISO 8601
 * date or date-time (`2026-11-01`, `2026-11-01T09:30:00Z`, `2026-11-01T11:30+02:00`); a date alone
 * is midnight UTC, a date-time without a zone is UTC (CI logs and the API speak UTC). Returns
 * epoch milliseconds. Hand-written: Date.parse takes a date-time without a zone as local time, a
 * date alone as UTC, and rolls 2026-02-30 over into March.
 */
export function parseTimeBound(label: string, value: string, now: number): number {
  const text = value.trim()
  if (/^\d+[smhd]?$/.test(text)) return now - parseDuration(label, text, {days: true}) * 1000
  const m = DATE.exec(text)
  const fields = (m ?? []).slice(1, 7).map((field) => Number(field ?? 0))
  const [y, mo, d, h, mi, s] = fields
  const at = Date.UTC(y, mo - 1, d, h, mi, s, Math.round(Number(m?.[7] ?? 0) * 1000))
  const back = new Date(at)
  const exact = [
    back.getUTCFullYear(),
    back.getUTCMonth() + 1,
    back.getUTCDate(),
    back.getUTCHours(),
    back.getUTCMinutes(),
    back.getUTCSeconds(),
  ]
  if (!m || exact.some((field, i) => field !== fields[i])) {
    throw new UsageError(
      `${label} must be a duration before now (7d, 12h, 90m) or a date (2026-11-01, 2026-11-01T09:30:00Z), got "${value}"`,
    )
  }
  const zone = m[8]
  if (zone === undefined || zone === 'Z') return at
  const sign = zone.startsWith('-') ? -1 : 1
  const minutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)))
  // the offsets clocks use: -12:00 (Baker Island) to +14:00 (Kiribati), minutes below 60
  if (Number(zone.slice(4, 6)) > 59 || minutes < -12 * 60 || minutes > 14 * 60) {
    throw new UsageError(`${label}: the UTC offset must be from -12:00 to +14:00, got "${zone}" in "${value}"`)
  }
  return at - minutes * 60_000
}
