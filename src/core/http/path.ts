import {UsageError} from '../errors.js'

/**
 * Percent-encodes one path segment taken from user input, so that an ID holding `/`, `?`, `#`
 * or `%` cannot change the route. `.` and `..` cannot be sent safely at all (URL parsers fold
 * them, even encoded as %2E), so they are refused.
 */
export function segment(value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new UsageError(`"${value}" cannot be used as a path segment`)
  }
  return encodeURIComponent(value)
}

/**
 * Tagged template for API paths: every interpolated value is one encoded segment.
 *   apiPath`/orgs/${org}/runs` → "/orgs/acme%2Fx/runs"
 */
export function apiPath(strings: TemplateStringsArray, ...values: string[]): string {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += segment(values[i]) + strings[i + 1]
  return out
}

/** Appends a query string built from the defined values, in the given order. */
export function withQuery(path: string, query: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value))
  }
  const qs = params.toString()
  if (!qs) return path
  return path + (path.includes('?') ? '&' : '?') + qs
}
