import {AmctlError, isAmctlError, UsageError} from '../core/errors.js'

/**
 * oclif's parse errors, as one line naming what is wrong the way the help shows it
 * (contract 1.1): `missing argument RUN_ID`, `missing required flag --message`,
 * `unknown flag --colour`. What is missing is read from the parser's own input and output
 * (the definitions and the values it found), not from its wording.
 */

type ParseErrorShape = Error & {
  oclif?: {exit?: number}
  parse?: {
    input?: {args?: Record<string, {required?: boolean}>; flags?: Record<string, {required?: boolean}>}
    output?: {args?: Record<string, unknown>; flags?: Record<string, unknown>}
  }
  flags?: unknown
  args?: unknown
}

function missingArgs(e: ParseErrorShape): string[] {
  const defs = e.parse?.input?.args ?? {}
  const found = e.parse?.output?.args ?? {}
  return Object.entries(defs)
    .filter(([name, def]) => def.required && found[name] === undefined)
    .map(([name]) => name.toUpperCase())
}

function missingFlags(e: ParseErrorShape): string[] {
  const defs = e.parse?.input?.flags ?? {}
  const found = e.parse?.output?.flags ?? {}
  return Object.entries(defs)
    .filter(([name, def]) => def.required && found[name] === undefined)
    .map(([name]) => `--${name}`)
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: an ANSI colour sequence starts with ESC
const ANSI = /\u001B\[[0-9;]*m/g

/** Any thrown value as an AmctlError: oclif's parse errors are usage errors (exit 2). */
export function toAmctlError(err: unknown): AmctlError {
  if (isAmctlError(err)) return err
  const e = err as ParseErrorShape
  if (e && typeof e === 'object' && e.oclif) {
    const args = missingArgs(e)
    if (args.length > 0) return new UsageError(`missing argument ${args.join(', ')}`)
    const flags = missingFlags(e)
    if (flags.length > 0) return new UsageError(`missing required flag ${flags.join(', ')}`)
    if (Array.isArray(e.flags) && e.flags.every((f) => typeof f === 'string')) {
      return new UsageError(`unknown flag ${e.flags.join(', ')}`)
    }
    if (Array.isArray(e.args) && e.args.every((a) => typeof a === 'string')) {
      return new UsageError(`unexpected argument ${e.args.map((a) => JSON.stringify(a)).join(', ')}`)
    }
    const message = String(e.message ?? '')
      .replace(ANSI, '')
      .replace(/\s*See more help with --help\s*$/, '')
      .replace(/^The following errors? occurred:\s*/, '')
    const exit = e.oclif.exit ?? 2
    if (exit === 2) return new UsageError(message)
    return new AmctlError(message, {code: 'internal', exitCode: exit})
  }
  const message = e instanceof Error ? e.message : String(err)
  return new AmctlError(`unexpected failure: ${message}`, {code: 'internal', exitCode: 1, cause: err})
}
