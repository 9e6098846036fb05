import type {ChatBody, JsonObject} from '../contract/types.js'
import {ApiError, isAmctlError} from '../core/errors.js'
import type {HttpClient} from '../core/http/client.js'
import {call} from './request.js'

const optimization = (climbId: string) => ({kind: 'optimization', id: climbId})

/** `POST /orgs/{org}/optimizations/{climbId}/rounds/current/preview` (optional body). */
export function previewRound(client: HttpClient, org: string, climbId: string, body: JsonObject = {}): Promise<JsonObject> {
  return call(client, 'previewOptimizationRound', {org, climbId}, {body, resource: optimization(climbId)})
}

/**
 * `POST /orgs/{org}/optimizations/{climbId}/propose` (optional body). Proposing needs the
 * Optimizations capability (contract 3): any 403 keeps the server's message and says, as its
 * hint, that Optimizations must be enabled for the organization.
 */
export async function proposeTrials(client: HttpClient, org: string, climbId: string, body: JsonObject = {}): Promise<JsonObject> {
  try {
    return await call(client, 'proposeOptimizationTrials', {org, climbId}, {body, resource: optimization(climbId)})
  } catch (error) {
    if (!isAmctlError(error) || error.status !== 403) throw error
    throw new ApiError(error.message, {
      code: error.code,
      status: 403,
      requestId: error.requestId,
      hint: `Optimizations must be enabled for the organization "${org}" to propose trials; an administrator can enable it`,
    })
  }
}

/** `POST /orgs/{org}/optimizations/{climbId}/chat` with `{"message"}`. */
export function sendChat(client: HttpClient, org: string, climbId: string, body: ChatBody): Promise<JsonObject> {
  return call(client, 'chatOptimization', {org, climbId}, {body, resource: optimization(climbId)})
}
