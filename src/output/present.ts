import {type AmctlError, LOGIN_HINT, oneLine} from '../core/errors.js'
import {jsonText} from './format.js'
import {type IO, isOutputError} from './io.js'
import {terminalSafe} from './sanitize.js'
import type {Style} from './style.js'

/**
 * The one error presenter (contract 1.5): with `--json` the error document is the only thing on
 * stdout; otherwise one `error: <message> (<code>, HTTP <status>)` line on stderr and at most one
 * `hint:` line. Every string is made terminal-safe (contract 1.4): a server's message cannot
 * move the cursor or set the window title. The base command and bin/run.cjs both end here.
 */

/** A missing or rejected token (exit 3). */
export function isUnauthorized(error: AmctlError): boolean {
  return error.code === 'unauthorized' || error.status === 401
}

/** The hint an error earns when it carries none: 401 and no stored token say how to log in. */
function hintFor(error: AmctlError): string | undefined {
  if (error.hint !== undefined) return error.hint
  if (isUnauthorized(error)) return LOGIN_HINT
  return undefined
}

/** Lower case, letters and digits only, one space between words: how two wordings are compared. */
function words(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_]+/gu, ' ')
    .trim()
}

/** Whether `text` holds `name` as whole words, ignoring case and punctuation. */
function mentions(text: string, name: string): boolean {
  const wanted = words(name)
  return wanted !== '' && ` ${words(text)} `.includes(` ${wanted} `)
}

/**
 * What went wrong, each thing said once: the error's message (a server's, unchanged) after the
 * context amctl knows (`organization "acme" not found: <message>`), except that the context is
 * left out when the message already names its subject (`Organization not found`, `run_1 is
 * gone`), and the message when the context already says all it says (`not found`).
 */
export function errorText(error: AmctlError): string {
  const {message, context} = error
  if (context === undefined) return message
  if (context.names.some((name) => mentions(message, name))) return message
  const said = words(message)
  if (said === '' || ` ${words(context.text)} `.includes(` ${said} `)) return context.text
  return `${context.text}: ${message}`
}

/** `error: <message> (<code>, HTTP <status>)`, folded to one line and terminal-safe. */
export function errorLine(error: AmctlError): string {
  const where = error.status === undefined ? error.code : `${error.code}, HTTP ${error.status}`
  return terminalSafe(`error: ${oneLine(errorText(error))} (${where})`)
}

export interface PresentOptions {
  json: boolean
  /** colours for stderr */
  style: Style
}

/** Presents `error`; that stdout cannot be written is said on stderr, under --json too. */
export function presentError(error: AmctlError, io: IO, opts: PresentOptions): void {
  if (opts.json && !isOutputError(error)) {
    io.stdout.write(jsonText(error.toDocument(), io.stdoutIsTTY))
    return
  }
  io.stderr.write(`${opts.style.red(errorLine(error))}\n`)
  const hint = hintFor(error)
  if (hint !== undefined) io.stderr.write(`${opts.style.dim(`hint: ${terminalSafe(oneLine(hint))}`)}\n`)
}
