import type {Hook} from '@oclif/core'
import {ExitCode, UsageError} from '../core/errors.js'
import {io} from '../output/io.js'
import {presentError} from '../output/present.js'
import {palette} from '../output/style.js'
import {jqInArgv} from './flags.js'
import {toAmctlError} from './parse-errors.js'

/**
 * What happens outside a command: an unknown command (oclif's `command_not_found` hook) and any
 * failure that reaches bin/run.cjs before a command ran. Both end in the one presenter.
 */

/** `command_not_found`: exit 2 with "did you mean" from the commands oclif knows. */
export const commandNotFound: Hook<'command_not_found'> = async ({id, config}) => {
  const wanted = id.replaceAll(':', ' ')
  const near = closest(
    wanted,
    [...config.commandIDs, ...config.topics.map((t) => t.name)].map((c) => c.replaceAll(':', ' ')),
  )
  throw new UsageError(
    `unknown command "${wanted}"`,
    near ? `did you mean \`amctl ${near}\`? (see \`amctl --help\`)` : 'see `amctl --help` for the commands',
  )
}

/** An error that reached bin/run.cjs: presented like any other; returns the exit code. */
export function reportFailure(error: unknown, argv: string[]): number {
  const e = error as {code?: string; oclif?: {exit?: number}}
  // a command already presented its own error and threw oclif's ExitError with the code
  if (e?.code === 'EEXIT' && typeof e.oclif?.exit === 'number') return e.oclif.exit
  const failure = toAmctlError(error)
  const out = io()
  // --jq implies --json for data only: errors show as without --json
  presentError(failure, out, {json: argv.includes('--json') && !jqInArgv(argv), style: palette(false)})
  if (process.env.AMCTL_DEBUG === '1' && error instanceof Error && error.stack) out.stderr.write(`${error.stack}\n`)
  return failure.exitCode ?? ExitCode.failure
}

function distance(a: string, b: string): number {
  const row = Array.from({length: b.length + 1}, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = current
    }
  }
  return row[b.length]
}

/** The candidate nearest to `wanted`, when one is close enough. */
export function closest(wanted: string, candidates: string[]): string | undefined {
  let best: {id: string; d: number} | undefined
  for (const id of candidates) {
    const d = distance(wanted, id)
    if (!best || d < best.d) best = {id, d}
  }
  return best && best.d <= Math.max(2, Math.floor(wanted.length / 3)) ? best.id : undefined
}
