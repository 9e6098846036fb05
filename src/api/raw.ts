import {API_PREFIX, type Page} from './types.js'
import {UsageError} from '../core/errors.js'
import type {HttpClient, HttpResponse, Method} from '../core/http/client.js'
import {pages} from '../core/http/paginate.js'
import {segment} from '../core/http/path.js'
import type {JsonObject} from './types.js'

/** `amctl api`: any request, for the functional areas without a command (like `gh api`). */

export const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
const ORG_PLACEHOLDER = '{org}'

/** PATH relative to /api/v1 (a leading /api/v1 is accepted too), with its query string. */
export function normalizeApiPath(input: string): string {
  const path = input.trim()
  if (path === '') throw new UsageError('PATH must not be empty; e.g. /me or /orgs/{org}/runs')
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    throw new UsageError(`PATH is relative to ${API_PREFIX} on the configured server, got a full URL "${path}"; use --base-url to pick the server`)
  }
  const withSlash = path.startsWith('/') ? path : `/${path}`
  const stripped = withSlash === API_PREFIX || withSlash.startsWith(`${API_PREFIX}/`) || withSlash.startsWith(`${API_PREFIX}?`)
    ? withSlash.slice(API_PREFIX.length) || '/'
    : withSlash
  return stripped.startsWith('/') ? stripped : `/${stripped}`
}

export function usesOrg(path: string): boolean {
  return path.includes(ORG_PLACEHOLDER)
}

/** Replaces every `{org}` with the (encoded) organization. */
export function fillOrg(path: string, org: string): string {
  return path.replaceAll(ORG_PLACEHOLDER, segment(org))
}

export function parseMethod(value: string | undefined, hasBody: boolean): Method {
  if (value === undefined) return hasBody ? 'POST' : 'GET'
  const method = value.trim().toUpperCase() as Method
  if (!METHODS.includes(method)) throw new UsageError(`-X must be one of ${METHODS.join(', ')}, got "${value}"`)
  return method
}

/** `-H 'Name: value'` lines as a header map. */
export function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = colon > 0 ? line.slice(0, colon).trim() : ''
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`-H expects 'Name: value', got "${line}"`)
    headers[name.toLowerCase()] = line.slice(colon + 1).trim()
  }
  return headers
}

export interface RawRequest {
  method: Method
  path: string
  body?: JsonObject
  headers?: Record<string, string>
}

/** Sends the request; the data is JSON when the response is JSON, else text. */
export function rawRequest(client: HttpClient, req: RawRequest): Promise<HttpResponse<unknown>> {
  return client.send({method: req.method, path: req.path, body: req.body, headers: req.headers, expect: 'any'})
}

/** `--paginate`: every page of a GET collection, following nextCursor. */
export function rawPages(client: HttpClient, path: string): AsyncGenerator<Page<unknown>> {
  return pages<unknown>(client, path)
}
