import type {EvalSet, EvalSetPatch, LaunchResult, Run} from '../contract/types.js'
import {type AmctlError, BadResponseError, isOutcomeUnknown} from '../core/errors.js'
import type {HttpClient} from '../core/http/client.js'
import {call} from './request.js'
import {listRuns} from './runs.js'

const evalSet = (id: string) => ({kind: 'eval set', id})

/** `PATCH /orgs/{org}/eval-sets/{evalSetId}`: only the members given. */
export function updateEvalSet(client: HttpClient, org: string, evalSetId: string, patch: EvalSetPatch): Promise<EvalSet> {
  return call(client, 'updateEvalSet', {org, evalSetId}, {body: patch, resource: evalSet(evalSetId)})
}

export type LaunchOutcome =
  | {outcome: 'launched'; result: LaunchResult}
  /** the launch was sent and no answer came: never resubmitted; the newest runs show whether it happened */
  | {outcome: 'unknown'; error: AmctlError; recentRuns: Run[]; listError?: AmctlError}

export const RECENT_RUNS_SHOWN = 10

/** One of several launches of a command (`evals run --repeat K`, relaunches): the run IDs the launches before it answered. */
export interface LaunchSeries {
  earlier: ReadonlySet<string>
}

const listed = (ids: readonly string[]): string => {
  const text = ids.join(', ')
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}

/**
 * A launch answer's `runIds` and `batchIds` must be lists of strings, and a launch starts new
 * runs: a run ID listed twice, or one an earlier launch of the series answered (a group of one run
 * is not K runs), is a bad answer too (exit 1), never waited for.
 */
function checkLaunch(result: LaunchResult, series?: LaunchSeries): void {
  for (const member of ['runIds', 'batchIds'] as const) {
    const value: unknown = result[member]
    if (value === undefined) continue
    if (!Array.isArray(value) || value.some((id) => typeof id !== 'string')) {
      const text = JSON.stringify(value) ?? String(value)
      throw new BadResponseError(
        `the launch answer's ${member} is not a list of strings: ${text.length > 60 ? `${text.slice(0, 60)}…` : text}`,
      )
    }
  }
  const runIds = result.runIds ?? []
  const twice = [...new Set(runIds.filter((id, i) => runIds.indexOf(id) !== i))]
  if (twice.length > 0)
    throw new BadResponseError(`the launch answer's runIds lists ${listed(twice)} more than once (a launch starts new runs)`)
  const again = series === undefined ? [] : runIds.filter((id) => series.earlier.has(id))
  if (series !== undefined && again.length > 0) {
    throw new BadResponseError(`its answer repeats run IDs an earlier launch returned: ${listed(again)} (a launch starts new runs)`)
  }
}

/**
 * `POST /orgs/{org}/eval-sets/{evalSetId}/run` with `{}`. When the request was sent and no
 * answer came (cli-contract.md 1.6), lists the org's newest runs instead of resubmitting.
 * `series`: one of `evals run --repeat K`'s launches (its answer must start runs of its own).
 * `signal` (Ctrl-C, SIGTERM) cancels the request: it rejects with the signal's reason, and the
 * launch may have happened.
 */
export async function launchEvalSet(
  client: HttpClient,
  org: string,
  evalSetId: string,
  series?: LaunchSeries,
  signal?: AbortSignal,
): Promise<LaunchOutcome> {
  try {
    const result: LaunchResult = await call(client, 'runEvalSet', {org, evalSetId}, {body: {}, resource: evalSet(evalSetId), signal})
    checkLaunch(result, series)
    return {outcome: 'launched', result}
  } catch (error) {
    if (signal?.aborted || !isOutcomeUnknown(error)) throw error
    try {
      const page = await listRuns(client, org, {limit: RECENT_RUNS_SHOWN})
      return {outcome: 'unknown', error, recentRuns: page.items}
    } catch (listError) {
      return {outcome: 'unknown', error, recentRuns: [], listError: listError as AmctlError}
    }
  }
}
