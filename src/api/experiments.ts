import type {JsonObject} from '../contract/types.js'
import type {HttpClient} from '../core/http/client.js'
import {call} from './request.js'

/** `POST /orgs/{org}/experiments/{experimentId}/launch` (optional body). */
export function launchExperiment(client: HttpClient, org: string, experimentId: string, body: JsonObject = {}): Promise<JsonObject> {
  return call(client, 'launchExperiment', {org, experimentId}, {body, resource: {kind: 'experiment', id: experimentId}})
}

/** `GET /orgs/{org}/experiments/{experimentId}/variants/{variantId}/content` */
export function getVariantContent(client: HttpClient, org: string, experimentId: string, variantId: string): Promise<JsonObject> {
  return call(
    client,
    'getVariantContent',
    {org, experimentId, variantId},
    {
      resource: {kind: 'variant', id: variantId, label: `variant "${variantId}" of experiment "${experimentId}"`},
    },
  )
}
