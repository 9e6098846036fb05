import type {JsonObject} from '../contract/types.js'
import {jsonDepth} from '../core/http/response.js'
import {invalid} from './errors.js'

/**
 * Body helpers: parsing (with a depth limit) for every body, and member checks for the /_dev/
 * hooks, which the OpenAPI document does not describe (API bodies are checked against the
 * document: ./schema.ts). Each failure is a 400 `invalid_request` naming the member.
 */

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Deepest nesting of arrays and objects a request body may have. Every stored value is written
 * to `--data` and answered with JSON.stringify, which recurses: one body nested 20,000 deep
 * would make every later write and answer of that state fail.
 */
export const MAX_BODY_DEPTH = 64

/**
 * Parses a JSON request body (not empty), refusing one nested deeper than MAX_BODY_DEPTH. A body
 * of only whitespace is no JSON value: refused, never taken as no body (a fork sent `  ` would
 * fork).
 */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') throw invalid('malformed JSON body: only whitespace (send {} or no body at all)')
  if (jsonDepth(raw) > MAX_BODY_DEPTH) throw invalid(`request body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels`)
  try {
    return JSON.parse(raw)
  } catch (error) {
    throw invalid(`malformed JSON body: ${(error as Error).message}`)
  }
}

/** Parses a request body that must be a JSON object; no body (zero bytes) counts as `{}`. */
export function parseObjectBody(raw: string): JsonObject {
  if (raw === '') return {}
  const value = parseJsonBody(raw)
  if (!isObject(value)) throw invalid(`request body must be a JSON object, got ${describeValue(value)}`)
  return value
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`
}

/** The refusal of `member`: "is required (…)" when the body lacks it, else what it must be and what it is. */
function refused(member: string, expected: string, value: unknown): Error {
  return invalid(value === undefined ? `${member} is required (${expected})` : `${member} must be ${expected}, got ${describeValue(value)}`)
}

export function requireString(body: JsonObject, member: string): string {
  const value = body[member]
  if (typeof value !== 'string' || value.trim() === '') throw refused(member, 'a non-empty string', value)
  return value
}

export function optionalString(body: JsonObject, member: string): string | undefined {
  return body[member] === undefined ? undefined : requireString(body, member)
}

export function requireInteger(body: JsonObject, member: string, min: number, max: number): number {
  const value = body[member]
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw refused(member, `an integer from ${min} to ${max}`, value)
  }
  return value
}

export function requireNumber(body: JsonObject, member: string, min: number, max: number): number {
  const value = body[member]
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw refused(member, `a number from ${min} to ${max}`, value)
  }
  return value
}

export function requireBoolean(body: JsonObject, member: string): boolean {
  const value = body[member]
  if (typeof value !== 'boolean') throw refused(member, 'true or false', value)
  return value
}

export function requireOneOf<T extends string>(body: JsonObject, member: string, allowed: readonly T[]): T {
  const value = body[member]
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value))
    throw refused(member, `one of ${allowed.join(', ')}`, value)
  return value as T
}

export function requireObject(body: JsonObject, member: string): JsonObject {
  const value = body[member]
  if (!isObject(value)) throw refused(member, 'an object', value)
  return value
}

/** Query parameter helper: an integer within bounds, or the default when absent. */
export function queryInteger(raw: string | null, name: string, min: number, max: number, fallback: number): number {
  if (raw === null) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw invalid(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`)
  }
  return Number(raw)
}
