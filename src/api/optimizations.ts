import {ApiError, isAmctlError} from '../core/errors.js'
import type {HttpClient} from '../core/http/client.js'
import {apiPath} from '../core/http/path.js'
import type {ChatBody, JsonObject} from './types.js'

const optimization = (id: string) => ({kind: 'optimization', id})

/** `POST /orgs/{org}/optimizations/{climbId}/rounds/current/preview` (optional body). */
export function previewRound(client: HttpClient, org: string, id: string, body: JsonObject = {}): Promise<JsonObject> {
  return client.json({method: 'POST', path: apiPath`/orgs/${org}/optimizations/${id}/rounds/current/preview`, body, resource: optimization(id)})
}

/** A 403 message about the capability (not about membership or another org's resource). */
const CAPABILITY_MISSING = /enabl|capabilit/i

/**
 * `POST /orgs/{org}/optimizations/{climbId}/propose` (optional body). A 403 about the
 * Optimizations capability says it must be enabled for the organization; any other 403 (not a
 * member, another organization's optimization) keeps the server's reason.
 */
export async function proposeTrials(client: HttpClient, org: string, id: string, body: JsonObject = {}): Promise<JsonObject> {
  try {
    return await client.json({method: 'POST', path: apiPath`/orgs/${org}/optimizations/${id}/propose`, body, resource: optimization(id)})
  } catch (error) {
    if (isAmctlError(error) && error.status === 403) {
      if (!CAPABILITY_MISSING.test(error.message)) throw error
      const said = /optimi[sz]ation/i.test(error.message) ? '' : `: ${error.message}`
      throw new ApiError(`Optimizations must be enabled for the organization "${org}" to propose trials${said}`, {
        code: error.code,
        status: 403,
        requestId: error.requestId,
        hint: `an administrator of ${org} can enable Optimizations for the organization`,
      })
    }
    throw error
  }
}

/** `POST /orgs/{org}/optimizations/{climbId}/chat` with `{"message"}`. */
export function sendChat(client: HttpClient, org: string, id: string, body: ChatBody): Promise<JsonObject> {
  return client.json({method: 'POST', path: apiPath`/orgs/${org}/optimizations/${id}/chat`, body, resource: optimization(id)})
}
