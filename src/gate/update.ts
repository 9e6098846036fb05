import type {Run} from '../contract/types.js'
import {AmctlError, UsageError} from '../core/errors.js'
import {replaceFile} from '../core/file-policy.js'
import {fileSystemError} from '../core/fs-atomic.js'
import {MAX_INPUT_BYTES} from '../input/files.js'
import {plural} from '../output/format.js'
import {
  type BaselineFile,
  baselineFileText,
  fileGroupOf,
  fileRate,
  groupName,
  type LeftOut,
  leftOutText,
  parseBaselineFile,
  type ReadBaseline,
  updateBaselineFile,
} from './baseline-file.js'
import {findChange} from './history-verdict.js'
import {predictiveTail} from './outcomes.js'
import type {FileChoice, Rate} from './rules.js'
import {type NormalQuantile, round6, sdFloor, summarize} from './stats.js'

/**
 * `--update-baseline`, after a verdict (docs/ci.md "--update-baseline"): the step's runs added to
 * the baseline file where it was read, under its lock (src/core/file-policy.ts replaceFile): the
 * file is read there again (so another step's update written meanwhile is kept), checked to be the
 * same baseline (its organization and eval set), the runs added (./baseline-file.ts
 * updateBaselineFile), and written back atomically in its version, keeping its mode. An update
 * that fails does not take the verdict with it: it is said in one line and in the result, and the
 * step keeps its verdict's exit code (a passing step exits 1: it did not do all it was asked).
 *
 * Every run of the step is added, whatever the verdict (adding only a passing step's runs would
 * ratchet the file), so an update can take in a change of level or a rise of failures: each group
 * the update changed is tested as the updated file holds it, at the step's --confidence C
 * (docs/ci.md "--update-baseline"), and what is found is the result's `changes` (said as a warning
 * by every output, ./words.ts updateWarnings):
 *
 * - **level**: a group that took scored runs, the change-point test of `evals stats`' `shifted`
 *   verdict (./history-verdict.ts findChange) on its scores oldest first: the newest change of
 *   level found, its first run, the levels before and since, and the change in standard
 *   deviations of the level before (its sd, at least the gate's floor, ./stats.ts sdFloor).
 * - **failures**: a group of a file that records outcomes (version 2) that took failed runs, the
 *   gate's failure test (./outcomes.ts): the update's runs of the group as one step, x failed of
 *   its m finished (failed, or succeeded with a score), judged against the group's failure rate
 *   before the update by the beta-binomial predictive, beyond it when P(X ≥ x) ≤ 1 − C. One look
 *   at m runs (not a step's sequence of launches), so no sequential correction. Not `evals stats`'
 *   `flaky` (more than 5 % failed): that asks whether the rate is high, not whether this update
 *   raised it, and would call an agent that always failed 15 % of its runs on every update.
 *   A group new to the file has no rate before it: not tested.
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
  /** the groups this update took a change of level or a rise of failures into (see the top of this file); [] when none */
  changes: BaselineChange[]
}

/** What a change of the baseline says of its group. */
interface ChangeOf {
  /** "codex / gpt-5" */
  group: string
  agent: string | null
  model: string | null
}

/** A group whose scores, as the updated file holds them, changed level. */
export interface LevelChange extends ChangeOf {
  kind: 'level'
  /** the mean score of the level before the change, 6 decimals */
  from: number
  /** the mean score from the change to the newest run, 6 decimals */
  to: number
  /** to − from, 6 decimals */
  delta: number
  /** the standard deviation of the level before (at least the gate's floor), 6 decimals */
  sd: number
  /** |delta| / sd, 6 decimals */
  sds: number
  /** the first run of the new level */
  runId: string
  createdAt: string
}

/** A group whose failures this update raised beyond its failure rate before it. */
export interface FailureChange extends ChangeOf {
  kind: 'failures'
  /** its failure rate before the update (failed of finished: succeeded with a score, set aside, or failed), 6 decimals */
  from: number
  /** its failure rate in the updated file, 6 decimals */
  to: number
  /** to − from, 6 decimals */
  delta: number
  /** failed and finished runs in the updated file */
  failed: number
  finished: number
  /** failed and finished runs before the update: the rate the update's runs were judged against */
  before: Rate
  /** the update's runs of the group: how many failed, of how many finished */
  added: Rate
  /** the chance of as many failures or more among the added runs under the rate before (beta-binomial predictive), 6 decimals; beyond it at most 1 − C */
  p: number
}

/** A change the update took into a group. */
export type BaselineChange = LevelChange | FailureChange

/**
 * Updates the file of `choice` with `runs` as of `now` (epoch ms), and tests each group it changed
 * at the step's confidence (the normal quantile from jstat, ./stats.ts loadVerdictDistributions);
 * never throws: a failure is the result's `error`.
 */
export function updateBaseline(choice: FileChoice, runs: readonly Run[], now: number, normalQuantile: NormalQuantile): UpdateResult {
  const {path} = choice
  const none: UpdateResult = {path, updated: false, added: 0, addedTo: [], outcomes: 0, started: [], dropped: 0, leftOut: [], changes: []}
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
        changes: baselineChanges(read, update.file, choice.confidence, normalQuantile),
      }
      if (added + update.outcomes === 0) return {value: result}
      return {text: baselineFileText(update.file, read.outcomes ? update.file.version : 1), value: {...result, updated: true}}
    })
  } catch (error) {
    const failure = error instanceof AmctlError ? error : fileSystemError('update', path, error)
    return {...none, error: {code: failure.code, message: failure.message}}
  }
}

/**
 * What an update took in (see the top of this file): each group of `after`, the file as updated
 * from `before`, that took scored runs and whose scores changed level at `confidence`, and each
 * that took failed runs beyond its failure rate before the update.
 */
export function baselineChanges(
  before: ReadBaseline,
  after: BaselineFile,
  confidence: number,
  normalQuantile: NormalQuantile,
): BaselineChange[] {
  const changes: BaselineChange[] = []
  for (const group of after.groups) {
    const prior = fileGroupOf(before.file, group.agent, group.model)
    const held = new Set(prior === undefined ? [] : [...prior.runs, ...prior.setAside, ...prior.failed].map((r) => r.id))
    const scored = group.runs.filter((r) => !held.has(r.id)).length
    const failed = group.failed.filter((r) => !held.has(r.id)).length
    const named = {group: groupName(group), agent: group.agent, model: group.model}
    const scores = group.runs.map((r) => r.score)
    const change = scored === 0 ? undefined : findChange(scores, confidence, normalQuantile)
    if (change !== undefined) {
      const first = group.runs[change.at]
      const sd = Math.max(summarize(scores.slice(change.start, change.at)).sd ?? 0, sdFloor(scores))
      const delta = change.after - change.before
      changes.push({
        kind: 'level',
        ...named,
        from: round6(change.before),
        to: round6(change.after),
        delta: round6(delta),
        sd: round6(sd),
        sds: round6(Math.abs(delta) / sd),
        runId: first.id,
        createdAt: first.createdAt,
      })
    }
    if (!before.outcomes || prior === undefined || failed === 0) continue
    const base = fileRate(prior)
    const added = {failed, finished: failed + scored}
    if (base.finished === 0) continue
    const p = predictiveTail(added.failed, added.finished, base)
    if (p > 1 - confidence) continue
    const now = fileRate(group)
    changes.push({
      kind: 'failures',
      ...named,
      from: round6(base.failed / base.finished),
      to: round6(now.failed / now.finished),
      delta: round6(now.failed / now.finished - base.failed / base.finished),
      failed: now.failed,
      finished: now.finished,
      before: base,
      added,
      p: round6(p),
    })
  }
  return changes
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
