/**
 * Timestamps for people: "3 minutes ago", "in 2 hours", "just now" (tables on a terminal);
 * scripts get the ISO 8601 value as the API sent it.
 */
const UNITS: [unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]

let formatter: Intl.RelativeTimeFormat | undefined

/** `value` relative to `now` (the time of day, epoch ms); the value itself when it is not a date. */
export function relativeTime(value: string, now: number): string {
  const at = Date.parse(value)
  if (Number.isNaN(at)) return value
  const seconds = Math.round((at - now) / 1000)
  if (Math.abs(seconds) < 10) return 'just now'
  formatter ??= new Intl.RelativeTimeFormat('en', {numeric: 'always'})
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return formatter.format(Math.trunc(seconds / size), unit)
  }
  return value
}

/** A duration in seconds as people say it: `45s`, `3m 05s`, `1h 02m`. */
export function shortDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

/** A whole number of seconds as a duration flag takes it back: `30d` (unless `days` is false), `2h`, `15m`, `90s`. */
export function flagDuration(seconds: number, days = true): string {
  if (days && seconds >= 86_400 && seconds % 86_400 === 0) return `${seconds / 86_400}d`
  if (seconds % 3600 === 0 && seconds > 0) return `${seconds / 3600}h`
  if (seconds % 60 === 0 && seconds > 0) return `${seconds / 60}m`
  return `${seconds}s`
}
