import {type AmctlError, ApiError, BadResponseError, oneLine} from '../errors.js'
import type {RawResponse} from './transport.js'

/** Reading an answer: the error envelope into a typed error, a success body into its data. */

const SNIPPET = 200

/**
 * Deepest nesting of arrays and objects amctl accepts in an answer: rendering (JSON.stringify,
 * tables, jq) walks values recursively, and a hostile answer nested 100,000 deep would end in
 * "Maximum call stack size exceeded" instead of a `bad_response`.
 */
export const MAX_JSON_DEPTH = 512

/** The deepest nesting of `[` / `{` in JSON text (strings skipped): one linear scan. */
export function jsonDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: skip the escaped character
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth)
    else if (c === 0x5d || c === 0x7d) depth--
  }
  return deepest
}

/**
 * Whether a parsed value nests arrays and objects deeper than `limit`: its arrays and objects
 * walked with a stack of their own (no recursion), stopping as soon as one is too deep. A walk
 * of the value, not a scan of its text: a page of runs has a few hundred of them and tens of
 * thousands of characters (`runs list --all` reads 20 MB for 100,000 runs).
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false
  const values: object[] = [value]
  const depths: number[] = [1]
  while (values.length > 0) {
    const current = values.pop() as object
    const depth = depths.pop() as number
    if (depth > limit) return true
    // indexed and for…in, not for…of over Object.values: no array made per object (200 a page of runs)
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i]
        if (typeof child === 'object' && child !== null) {
          values.push(child)
          depths.push(depth + 1)
        }
      }
    } else {
      const record = current as Record<string, unknown>
      for (const key in record) {
        const child = record[key]
        if (typeof child === 'object' && child !== null) {
          values.push(child)
          depths.push(depth + 1)
        }
      }
    }
  }
  return false
}

/** Refuses an answer nested deeper than MAX_JSON_DEPTH (checked once it parsed). */
function assertDepth(value: unknown, bad: (problem: string) => Error): void {
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) throw bad(`the response nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`)
}

export function snippet(text: string): string {
  return oneLine(text).slice(0, SNIPPET)
}

/** `{"error":{"code":string,"message":string}}` or undefined. */
export function parseEnvelope(text: string): {code: string; message: string} | undefined {
  try {
    const parsed = JSON.parse(text) as {error?: {code?: unknown; message?: unknown}}
    const error = parsed?.error
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      return {code: error.code, message: error.message}
    }
  } catch {
    // not JSON
  }
  return undefined
}

/** A non-success answer as an error: the envelope's code and message, else `bad_response` with a snippet. */
export function statusError(raw: RawResponse): AmctlError {
  const requestId = raw.headers['x-request-id']
  const envelope = parseEnvelope(raw.text)
  if (!envelope) {
    return new BadResponseError(`HTTP ${raw.status} with a body that is not the error envelope: ${snippet(raw.text) || '(empty)'}`, {
      status: raw.status,
      requestId,
      answer: raw,
    })
  }
  return new ApiError(envelope.message, {code: envelope.code, status: raw.status, requestId, answer: raw})
}

/** 'object' (default): a JSON object is required. 'any': JSON as JSON, anything else as text. */
export type Expect = 'object' | 'any'

/** The data of a success answer; `what` names the request in error messages ("GET /me"). */
export function parseBody(raw: RawResponse, expect: Expect, what: string): unknown {
  const contentType = raw.headers['content-type'] ?? ''
  const isJson = /[/+]json\b/i.test(contentType)
  const requestId = raw.headers['x-request-id']
  const bad = (problem: string) => new BadResponseError(`${problem} (${what})`, {requestId})
  if (expect === 'any') {
    // JSON as JSON, anything else as text; a body labelled JSON that does not parse is broken
    if (!isJson || raw.text.trim() === '') return raw.text
    let value: unknown
    try {
      value = JSON.parse(raw.text)
    } catch (error) {
      throw bad(`the response says it is JSON but is not valid JSON (${(error as Error).message}): ${snippet(raw.text)}`)
    }
    assertDepth(value, bad)
    return value
  }
  if (raw.status === 204) return {}
  if (raw.text.trim() === '') throw bad(`HTTP ${raw.status} with an empty body where a JSON object was expected`)
  if (!isJson) throw bad(`expected a JSON response, got ${contentType || 'no content type'}: ${snippet(raw.text)}`)
  let data: unknown
  try {
    data = JSON.parse(raw.text)
  } catch (error) {
    throw bad(`the response is not valid JSON (${(error as Error).message}): ${snippet(raw.text)}`)
  }
  assertDepth(data, bad)
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw bad(`expected a JSON object, got ${Array.isArray(data) ? 'an array' : JSON.stringify(data)?.slice(0, 40)}`)
  }
  return data
}
