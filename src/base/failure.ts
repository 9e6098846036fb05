import {type AmctlError, ExitCode} from '../core/errors.js'
import {isOutputError, READER_GONE, written} from '../output/io.js'
import {presentError} from '../output/present.js'
import {loadColors, palette} from '../output/style.js'
import {errorsAsJson} from './flags.js'
import {toAmctlError} from './parse-errors.js'
import type {World} from './world.js'

/**
 * The one way amctl ends on an error, inside a command (BaseCommand.catch) and outside one (an
 * unknown command, a failure before a command ran: bin/run.cjs): the error presented by the one
 * presenter on `world`'s streams, as JSON exactly when `errorsAsJson(argv)` says so (the line
 * on stderr when stdout cannot take the document) and coloured on a terminal that takes colour,
 * the stack too with AMCTL_DEBUG=1 in `world`'s environment; returns the exit code. An exit a
 * command already presented (oclif's ExitError) keeps its code and prints nothing, and so does a
 * reader of stdout that went away (exit 0). `refine` lets a command add what it knows to the error first (the login
 * hint of its profile and server).
 */
export async function reportFailure(
  error: unknown,
  argv: readonly string[],
  world: Pick<World, 'io' | 'env'>,
  refine?: (failure: AmctlError) => void,
): Promise<number> {
  const {io: out, env} = world
  const e = error as {code?: string; oclif?: {exit?: number}}
  if (e?.code === 'EEXIT' && typeof e.oclif?.exit === 'number') return e.oclif.exit
  const failure = toAmctlError(error)
  if (failure.code === READER_GONE) return failure.exitCode
  refine?.(failure)
  const json = errorsAsJson(argv)
  // (that stdout cannot be written is said on stderr, under --json too)
  const document = json && !isOutputError(failure)
  if (!document && out.stderrColor) await loadColors()
  try {
    presentError(failure, out, {json: document, style: palette(out.stderrColor)})
    if (document) await written(out)
  } catch (outputFailure) {
    // the document could not be written (a full disk): the error is said on stderr instead
    if (!isOutputError(outputFailure)) throw outputFailure
    if (out.stderrColor) await loadColors()
    presentError(failure, out, {json: false, style: palette(out.stderrColor)})
  }
  if (env.AMCTL_DEBUG === '1' && error instanceof Error && error.stack) out.stderr.write(`${error.stack}\n`)
  return failure.exitCode ?? ExitCode.failure
}
