import {type AmctlError, oneLine} from '../core/errors.js'
import {jsonText} from './format.js'
import type {IO} from './io.js'
import {terminalSafe} from './sanitize.js'
import type {Style} from './style.js'

/**
 * The one error presenter (contract 1.5): with `--json` the error document is the only thing on
 * stdout; otherwise one `error: <message> (<code>, HTTP <status>)` line on stderr and at most one
 * `hint:` line. Every string is made terminal-safe (contract 1.4): a server's message cannot
 * move the cursor or set the window title. The base command and bin/run.cjs both end here.
 */

/** The hint an error earns when it carries none: 401 and no stored token say how to log in. */
function hintFor(error: AmctlError): string | undefined {
  if (error.hint !== undefined) return error.hint
  if (error.code === 'unauthorized' || error.status === 401) return 'run `amctl auth login`'
  return undefined
}

/** `error: <message> (<code>, HTTP <status>)`, folded to one line and terminal-safe. */
export function errorLine(error: AmctlError): string {
  const where = error.status === undefined ? error.code : `${error.code}, HTTP ${error.status}`
  return terminalSafe(`error: ${oneLine(error.message)} (${where})`)
}

export interface PresentOptions {
  json: boolean
  /** colours for stderr */
  style: Style
}

export function presentError(error: AmctlError, io: IO, opts: PresentOptions): void {
  if (opts.json) {
    io.stdout.write(jsonText(error.toDocument(), io.stdoutIsTTY))
    return
  }
  io.stderr.write(`${opts.style.red(errorLine(error))}\n`)
  const hint = hintFor(error)
  if (hint !== undefined) io.stderr.write(`${opts.style.dim(`hint: ${terminalSafe(oneLine(hint))}`)}\n`)
}
