import type {Method} from '../contract/routes.js'
import {API_PREFIX, CONTROL_CHARACTER} from '../contract/vocabulary.js'
import {UsageError} from '../core/errors.js'
import {segment} from '../core/http/path.js'

/** The arguments of `amctl api`: PATH, -X and -H (contract 3). */

export const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
const ORG_PLACEHOLDER = '{org}'

/** PATH relative to /api/v1 (a leading /api/v1 is accepted too), with its query string. */
export function normalizeApiPath(input: string): string {
  const path = input.trim()
  if (path === '') throw new UsageError('PATH must not be empty; e.g. /me or /orgs/{org}/runs')
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new UsageError(
      `PATH is relative to ${API_PREFIX} on the configured server, got a full URL "${path}"; use --base-url to pick the server`,
    )
  }
  const withSlash = path.startsWith('/') ? path : `/${path}`
  const stripped =
    withSlash === API_PREFIX || withSlash.startsWith(`${API_PREFIX}/`) || withSlash.startsWith(`${API_PREFIX}?`)
      ? withSlash.slice(API_PREFIX.length) || '/'
      : withSlash
  return stripped.startsWith('/') ? stripped : `/${stripped}`
}

/**
 * PATH as a URL parser will read it, checked before anything is sent (exit 2): a `.` or `..`
 * segment (also encoded, `%2e`, or between backslashes, which URL parsers read as `/`) would be
 * folded into another route; a control character (tab and newline are silently dropped by URL
 * parsers) or a `#` (the rest would be a fragment, never sent) would send another path than the
 * one written.
 */
export function checkApiPath(path: string): void {
  const control = CONTROL_CHARACTER.exec(path)
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')
    throw new UsageError(`PATH must not hold control characters (U+${code}), got ${JSON.stringify(path)}`)
  }
  if (path.includes('#')) {
    throw new UsageError(`PATH must not hold "#" (what follows would never be sent); write it as %23, got "${path}"`)
  }
  for (const raw of path.split('?')[0].split(/[/\\]/)) {
    let decoded = raw
    try {
      decoded = decodeURIComponent(raw)
    } catch {
      // malformed percent-encoding: sent as it is, the server decides
    }
    if (decoded === '.' || decoded === '..') {
      throw new UsageError(`PATH must not hold a "${decoded}" segment (URL parsers would fold it into another route), got "${path}"`)
    }
  }
}

export function usesOrg(path: string): boolean {
  return path.includes(ORG_PLACEHOLDER)
}

/** Replaces every `{org}` with the (encoded) organization. */
export function fillOrg(path: string, org: string): string {
  return path.replaceAll(ORG_PLACEHOLDER, segment(org, '--org'))
}

export function parseMethod(value: string | undefined, hasBody: boolean): Method {
  if (value === undefined) return hasBody ? 'POST' : 'GET'
  const method = value.trim().toUpperCase() as Method
  if (!METHODS.includes(method)) throw new UsageError(`-X must be one of ${METHODS.join(', ')}, got "${value}"`)
  return method
}

/**
 * Headers that frame the request or its connection: amctl's HTTP client sets them from the
 * request it sends, and one given by hand would contradict it (a `Content-Length: 5` on a longer
 * body leaves the server waiting for the rest, a `Host` sends the request to another site than
 * the URL names).
 */
const FRAMING_HEADERS = ['content-length', 'transfer-encoding', 'host', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer']

/**
 * `-H 'Name: value'` lines as a header map, checked before anything is sent (contract 1.6): a
 * name that is not an HTTP token, a value holding CR, LF or another control character, or a
 * header that frames the request (FRAMING_HEADERS), exits 2.
 */
export function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>
  for (const line of lines) {
    const colon = line.indexOf(':')
    // only spaces and tabs around a name or a value are dropped (HTTP's optional whitespace): a
    // CR or LF is never trimmed away, it is refused
    const name = colon > 0 ? line.slice(0, colon).replace(/^[ \t]+|[ \t]+$/g, '') : ''
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`-H expects 'Name: value', got ${JSON.stringify(line)}`)
    const raw = line.slice(colon + 1)
    // C0 controls but tab, DEL and C1 controls (contract 1.6)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
    if (/[\u0000-\u0008\u000A-\u001F\u007F-\u009F]/.test(raw)) {
      throw new UsageError(`-H ${name}: the value must not hold CR, LF or other control characters, got ${JSON.stringify(raw)}`)
    }
    if (FRAMING_HEADERS.includes(name.toLowerCase())) {
      throw new UsageError(
        `-H ${name}: amctl sets the headers that frame the request itself (Content-Length, Transfer-Encoding, Host, Connection, Keep-Alive, Upgrade, TE, Trailer)`,
      )
    }
    headers[name.toLowerCase()] = raw.replace(/^[ \t]+|[ \t]+$/g, '')
  }
  return headers
}

/** `-F`/`-f` fields as query parameters of a GET (as `gh api` does): typed values in their JSON text, strings as they are. */
export function fieldsAsQuery(path: string, pairs: [string, unknown][]): string {
  if (pairs.length === 0) return path
  const params = new URLSearchParams()
  for (const [key, value] of pairs) params.append(key, typeof value === 'string' ? value : JSON.stringify(value))
  return path + (path.includes('?') ? '&' : '?') + params.toString()
}
