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

/** A launch answer's `runIds` and `batchIds` must be lists of strings: anything else is a bad answer (exit 1), never waited for. */
function checkLaunch(result: LaunchResult): void {
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
}

/**
 * `POST /orgs/{org}/eval-sets/{evalSetId}/run` with `{}`. When the request was sent and no
 * answer came (cli-contract.md 1.6), lists the org's newest runs instead of resubmitting.
 */
export async function launchEvalSet(client: HttpClient, org: string, evalSetId: string): Promise<LaunchOutcome> {
  try {
    const result: LaunchResult = await call(client, 'runEvalSet', {org, evalSetId}, {body: {}, resource: evalSet(evalSetId)})
    checkLaunch(result)
    return {outcome: 'launched', result}
  } catch (error) {
    if (!isOutcomeUnknown(error)) throw error
    try {
      const page = await listRuns(client, org, {limit: RECENT_RUNS_SHOWN})
      return {outcome: 'unknown', error, recentRuns: page.items}
    } catch (listError) {
      return {outcome: 'unknown', error, recentRuns: [], listError: listError as AmctlError}
    }
  }
}
