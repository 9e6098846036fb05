import {DEVICE_CODE_PARAM} from '../contract/vocabulary.js'
import type {PathMatcher} from './pattern.js'

/** The log `GET /_dev/requests` reads: what was asked and answered, never a credential. */

export interface RequestLogEntry {
  seq: number
  method: string
  /** path with the query string, the device code redacted */
  path: string
  /** null when the connection was dropped without an answer */
  status: number | null
  /** the fault action applied, if any */
  fault: string | null
  authorization: 'present' | 'absent'
  at: string
}

export const REQUEST_LOG_CAPACITY = 10_000

export class RequestLog {
  private entries: RequestLogEntry[] = []
  private seq = 0

  /** Logs a request that came `at` (the server's clock, epoch ms). */
  start(method: string, path: string, hasAuthorization: boolean, at: number): RequestLogEntry {
    this.seq += 1
    const entry: RequestLogEntry = {
      seq: this.seq,
      method,
      path,
      status: null,
      fault: null,
      authorization: hasAuthorization ? 'present' : 'absent',
      at: new Date(at).toISOString(),
    }
    this.entries.push(entry)
    if (this.entries.length > REQUEST_LOG_CAPACITY) this.entries.splice(0, this.entries.length - REQUEST_LOG_CAPACITY)
    return entry
  }

  list(method: string | null, path: PathMatcher | null): RequestLogEntry[] {
    return this.entries.filter((entry) => (method === null || entry.method === method.toUpperCase()) && (path === null || path(entry.path)))
  }

  clear(): void {
    this.entries = []
  }
}

export const REDACTED = 'REDACTED'

/**
 * A request target as logs show it: the device code of a login poll (a credential until it is
 * used) redacted, however its name is encoded; every other byte as it came.
 */
export function redactTarget(target: string): string {
  const q = target.indexOf('?')
  if (q === -1) return target
  const pairs = target
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      const name = new URLSearchParams(`${eq === -1 ? pair : pair.slice(0, eq)}=`).keys().next().value
      return name === DEVICE_CODE_PARAM ? `${eq === -1 ? pair : pair.slice(0, eq)}=${REDACTED}` : pair
    })
  return `${target.slice(0, q + 1)}${pairs.join('&')}`
}
