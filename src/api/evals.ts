import type {AmctlError} from '../core/errors.js'
import {isOutcomeUnknown} from '../core/errors.js'
import type {HttpClient} from '../core/http/client.js'
import {apiPath} from '../core/http/path.js'
import {listRuns} from './runs.js'
import type {EvalSet, EvalSetPatch, LaunchResult, Run} from './types.js'

const evalSet = (id: string) => ({kind: 'eval set', id})

/** `PATCH /orgs/{org}/eval-sets/{evalSetId}`: only the members given. */
export function updateEvalSet(client: HttpClient, org: string, id: string, patch: EvalSetPatch): Promise<EvalSet> {
  return client.json({method: 'PATCH', path: apiPath`/orgs/${org}/eval-sets/${id}`, body: patch, resource: evalSet(id)})
}

export type LaunchOutcome =
  | {outcome: 'launched'; result: LaunchResult}
  /** the launch was sent and no answer came: never resubmitted; the newest runs show whether it happened */
  | {outcome: 'unknown'; error: AmctlError; recentRuns: Run[]; listError?: AmctlError}

export const RECENT_RUNS_SHOWN = 10

/**
 * `POST /orgs/{org}/eval-sets/{id}/run` with `{}`. When the request was sent and no answer
 * came (cli-contract.md 1.6), lists the org's newest runs instead of resubmitting.
 */
export async function launchEvalSet(client: HttpClient, org: string, id: string): Promise<LaunchOutcome> {
  try {
    const result = await client.json<LaunchResult>({method: 'POST', path: apiPath`/orgs/${org}/eval-sets/${id}/run`, body: {}, resource: evalSet(id)})
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
