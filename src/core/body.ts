import {readFileSync} from 'node:fs'
import type {JsonObject} from '../api/types.js'
import {UsageError} from './errors.js'
import {locateJsonError} from './json-locate.js'
import {chompNewline, readAll} from './stdin.js'
import type {Readable} from 'node:stream'

/**
 * Free-form request bodies (cli-contract.md section 3): `--input FILE|-` gives a whole JSON
 * object; `-F key=value` adds typed fields, `-f key=value` string fields, merged over it.
 */

export interface BodyFlags {
  field?: string[]
  'raw-field'?: string[]
  input?: string
}

/** Reads `FILE`, or stdin for `-`. */
export async function readSource(source: string, stdin: Readable, label: string): Promise<string> {
  if (source === '-') return readAll(stdin)
  try {
    return readFileSync(source, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(`${label}: cannot read "${source}" (${code === 'ENOENT' ? 'no such file' : code ?? (error as Error).message})`)
  }
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
    throw new UsageError(`${label} must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`)
  }
  return value as JsonObject
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
  if (value.startsWith('@')) return chompNewline(await readSource(value.slice(1), stdin, `-F ${key}`))
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

/** The body the flags describe, or undefined when none was given. */
export async function buildBody(flags: BodyFlags, stdin: Readable): Promise<JsonObject | undefined> {
  const fields = flags.field ?? []
  const rawFields = flags['raw-field'] ?? []
  if (flags.input === undefined && fields.length === 0 && rawFields.length === 0) return undefined
  const body: JsonObject = flags.input === undefined ? {} : parseJsonObject(await readSource(flags.input, stdin, '--input'), `--input ${flags.input === '-' ? '(stdin)' : flags.input}`)
  for (const raw of fields) {
    const [key, value] = splitField('-F', raw)
    body[key] = await typedValue(key, value, stdin)
  }
  for (const raw of rawFields) {
    const [key, value] = splitField('-f', raw)
    body[key] = value
  }
  return body
}
