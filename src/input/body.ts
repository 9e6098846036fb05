import type {Readable} from 'node:stream'
import type {JsonObject} from '../contract/types.js'
import {UsageError} from '../core/errors.js'
import {chompNewline, readText} from './files.js'
import {locateJsonError} from './json-locate.js'

/**
 * Free-form request bodies (cli-contract.md section 3): `--input FILE|-` gives a whole JSON
 * object; `-F key=value` adds typed fields, `-f key=value` string fields, merged over it. A
 * member name is data: `constructor`, `__proto__` or `toString` is an ordinary member.
 */

export interface BodyFlags {
  field?: string[]
  'raw-field'?: string[]
  input?: string
}

/** Sets `key` as an own member, whatever its name (no prototype setter, no inherited lookup). */
export function setMember(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, {value, enumerable: true, writable: true, configurable: true})
}

/** Parses JSON text that must be an object; errors name the line and column. */
export function parseJsonObject(text: string, label: string): JsonObject {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    if (text.trim() === '') throw new UsageError(`${label} is empty; expected a JSON object`)
    const {line, column, problem} = locateJsonError(text)
    throw new UsageError(`${label} is not valid JSON: ${problem} at line ${line}, column ${column}`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(
      `${label} must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    )
  }
  return value as JsonObject
}

/** `--input FILE|-` as a JSON object. */
export async function readJsonObject(source: string, stdin: Readable, flag = '--input'): Promise<JsonObject> {
  return parseJsonObject(await readText(source, stdin, flag), `${flag} ${source === '-' ? '(stdin)' : source}`)
}

function splitField(flag: string, raw: string): [string, string] {
  const eq = raw.indexOf('=')
  if (eq <= 0) throw new UsageError(`${flag} expects key=value, got "${raw}"`)
  return [raw.slice(0, eq), raw.slice(eq + 1)]
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/

/** `-F` typing: true, false, null, numbers, JSON arrays/objects, `@file` (string), else a string. */
export async function typedValue(key: string, value: string, stdin: Readable): Promise<unknown> {
  if (value === 'true') return true
  if (value === 'false') return false
  if (value === 'null') return null
  if (NUMBER.test(value)) return Number(value)
  if (value.startsWith('@')) return chompNewline(await readText(value.slice(1), stdin, `-F ${key}`))
  if (value.startsWith('[') || value.startsWith('{')) {
    try {
      return JSON.parse(value)
    } catch {
      const {line, column, problem} = locateJsonError(value)
      throw new UsageError(`-F ${key}: the value looks like JSON but is not valid: ${problem} at line ${line}, column ${column}`)
    }
  }
  return value
}

/** The -F/-f fields as [key, value] pairs, in the order given (typed for -F, strings for -f). */
export async function fieldPairs(flags: BodyFlags, stdin: Readable): Promise<[string, unknown][]> {
  const pairs: [string, unknown][] = []
  for (const raw of flags.field ?? []) {
    const [key, value] = splitField('-F', raw)
    pairs.push([key, await typedValue(key, value, stdin)])
  }
  for (const raw of flags['raw-field'] ?? []) pairs.push(splitField('-f', raw))
  return pairs
}

/** The body the flags describe, or undefined when none was given. */
export async function buildBody(flags: BodyFlags, stdin: Readable): Promise<JsonObject | undefined> {
  const pairs = await fieldPairs(flags, stdin)
  if (flags.input === undefined && pairs.length === 0) return undefined
  const body: JsonObject = flags.input === undefined ? {} : await readJsonObject(flags.input, stdin)
  for (const [key, value] of pairs) setMember(body, key, value)
  return body
}
