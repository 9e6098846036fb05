import type {AmctlError, ErrorDocument} from '../core/errors.js'
import type {Column} from '../output/format.js'
import type {StreamedList} from '../output/stream.js'

export type {StreamedList} from '../output/stream.js'

/**
 * Results a command returns for the base command to render (like sf's typed results): most
 * commands return their data (printed as is under --json, shown through the renderer otherwise);
 * these shapes carry more than data.
 */

/**
 * A create/launch that was sent and got no answer (contract 1.6): exit 9, never resubmitted.
 * People see the error and the newest items (so they can tell whether it happened); --json
 * prints `document`, of type `D` (e.g. `{"outcome":"unknown","recentRuns":[…],"error":{…}}`).
 */
export interface UnknownOutcome<T, D> {
  kind: 'unknown-outcome'
  error: AmctlError
  /** what to list after the error, or why it could not be listed */
  recent: {title: string; items: T[]; columns: readonly Column<T>[]} | {listError: AmctlError}
  document: D
}

/** Work that ended with an exit code of its own (a wait: 10 not passed, 11 timed out) and data to show. */
export interface Finished<T, D> {
  kind: 'finished'
  exitCode: number
  /** what ended the work early (a launch that failed after others were made): said as any error is, beside the data */
  error?: AmctlError
  /** what --json prints */
  document: D
  /** what people and pipes see: a list, rendered like any other */
  list?: {items: T[]; columns: readonly Column<T>[]}
}

/**
 * A command that printed its output itself while it ran, its `--json` document `D` among it (`dev
 * server` prints one line at start and runs until Ctrl-C): nothing is left to print at the end.
 */
export interface Printed<D> {
  kind: 'printed'
  /** what --json printed */
  document: D
}

/** What --json prints for a StreamedList<T>: every item; an error that ended the list midway closes it. */
export interface StreamedDocument<T> {
  items: T[]
  error?: ErrorDocument['error']
}

// (the type parameters of UnknownOutcome, Finished and Printed are each command's --json document:
// bin/generate/schemas.ts writes schemas/<topic>-<verb>.json from them)
export type CommandResult = StreamedList<unknown> | UnknownOutcome<unknown, unknown> | Finished<unknown, unknown> | Printed<unknown>

// The mark of a result made by commandResult(): a command's data (a server's answer) may have a
// member named `kind` with any value, and is still data, never a result to act on.
const RESULT = Symbol('amctl.commandResult')

/** Marks `result` as one of the results above (the base renders it) and returns it. */
export function commandResult<R extends {kind: CommandResult['kind']}>(result: R): R {
  Object.defineProperty(result, RESULT, {value: true})
  return result
}

export function isCommandResult(value: unknown): value is CommandResult {
  return typeof value === 'object' && value !== null && (value as {[RESULT]?: true})[RESULT] === true
}
