import type {Run} from '../contract/types.js'
import {AmctlError, UsageError} from '../core/errors.js'
import {replaceFile} from '../core/file-policy.js'
import {fileSystemError} from '../core/fs-atomic.js'
import {MAX_INPUT_BYTES} from '../input/files.js'
import {plural} from '../output/format.js'
import {baselineFileText, type LeftOut, leftOutText, parseBaselineFile, updateBaselineFile} from './baseline-file.js'
import type {FileChoice} from './rules.js'

/**
 * `--update-baseline`, after a verdict (docs/ci.md "--update-baseline"): the step's runs added to
 * the baseline file where it was read, under its lock (src/core/file-policy.ts replaceFile): the
 * file is read there again (so another step's update written meanwhile is kept), checked to be the
 * same baseline (its organization and eval set), the runs added (./baseline-file.ts
 * updateBaselineFile), and written back atomically in its version, keeping its mode. An update
 * that fails does not take the verdict with it: it is said in one line and in the result, and the
 * step keeps its verdict's exit code (a passing step exits 1: it did not do all it was asked).
 */

/** What --update-baseline did, as the result (and --json's `baselineUpdate`) says it. */
export interface UpdateResult {
  /** the file, as given */
  path: string
  /** the file was rewritten with runs added */
  updated: boolean
  /** succeeded, scored runs added */
  added: number
  /** how many of them each group took ("codex / gpt-5") */
  addedTo: Array<{group: string; runs: number}>
  /** failed and cancelled runs added (a file of version 1 records none) */
  outcomes: number
  /** groups the file did not have */
  started: string[]
  /** older runs that fell out (each group keeps its newest `keep`) */
  dropped: number
  /** runs a baseline file cannot hold, left out */
  leftOut: LeftOut[]
  /** why it was not updated: the file changed into another baseline, or could not be read or written */
  error?: {code: string; message: string}
}

/** Updates the file of `choice` with `runs` as of `now` (epoch ms); never throws: a failure is the result's `error`. */
export function updateBaseline(choice: FileChoice, runs: readonly Run[], now: number): UpdateResult {
  const {path} = choice
  const none: UpdateResult = {path, updated: false, added: 0, addedTo: [], outcomes: 0, started: [], dropped: 0, leftOut: []}
  try {
    const problem = (what: string) => new UsageError(`baseline file ${path}: ${what}`)
    return replaceFile(choice.source, MAX_INPUT_BYTES, problem, (now_) => {
      const read = parseBaselineFile(now_.text, path, now)
      const {file} = read
      // the same baseline as the one judged against: a file swapped for another org's or eval set's is not updated
      for (const [what, was, is] of [
        ['organization', choice.file.org, file.org],
        ['eval set', choice.file.evalSetId, file.evalSetId],
      ] as const) {
        if (was !== is)
          throw new UsageError(`${path} now holds runs of ${what} ${is}, not ${was} as when the step read it; it was left as it is`)
      }
      const update = updateBaselineFile(read, runs, new Date(now).toISOString(), now)
      const added = update.added.reduce((n, a) => n + a.runs, 0)
      const addedTo = update.added
      const result: UpdateResult = {
        ...none,
        added,
        addedTo,
        outcomes: update.outcomes,
        started: update.started,
        dropped: update.dropped,
        leftOut: update.leftOut,
      }
      if (added + update.outcomes === 0) return {value: result}
      return {text: baselineFileText(update.file, read.outcomes ? update.file.version : 1), value: {...result, updated: true}}
    })
  } catch (error) {
    const failure = error instanceof AmctlError ? error : fileSystemError('update', path, error)
    return {...none, error: {code: failure.code, message: failure.message}}
  }
}

/** The one line that says what an update did: "--update-baseline: added 2 runs to b.json: …", or why the file is unchanged. */
export function updateText(update: UpdateResult, keep: number): {line: string; leftOut?: string} {
  const leftOut = leftOutText(update.leftOut)
  if (update.error !== undefined) return {line: `--update-baseline: ${update.path} was not updated: ${update.error.message}`, leftOut}
  if (!update.updated) {
    return {
      line: `--update-baseline: ${update.path} unchanged: no run of this step is new to it (one that succeeded with a score, failed or was cancelled)`,
      leftOut,
    }
  }
  const each = update.addedTo.map(({group, runs}) => `${runs} to ${group}`).join(', ')
  const news = update.started.length === 0 ? '' : ` (new: ${update.started.join(', ')})`
  const outcomes = update.outcomes === 0 ? '' : `; ${plural(update.outcomes, 'failed or cancelled run')} recorded (the failure rate)`
  const gone = update.dropped === 0 ? '' : `; ${plural(update.dropped, 'older run')} dropped (each group keeps ${keep})`
  const scored =
    update.added === 0 ? `no scored run added to ${update.path}` : `added ${plural(update.added, 'run')} to ${update.path}: ${each}${news}`
  return {line: `--update-baseline: ${scored}${outcomes}${gone}`, leftOut}
}
