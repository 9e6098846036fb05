import type {HttpClient} from '../core/http/client.js'
import {apiPath} from '../core/http/path.js'
import type {JsonObject} from './types.js'

/** `POST /orgs/{org}/experiments/{experimentId}/launch` (optional body). */
export function launchExperiment(client: HttpClient, org: string, id: string, body: JsonObject = {}): Promise<JsonObject> {
  return client.json({method: 'POST', path: apiPath`/orgs/${org}/experiments/${id}/launch`, body, resource: {kind: 'experiment', id}})
}

/** `GET /orgs/{org}/experiments/{experimentId}/variants/{variantId}/content` */
export function getVariantContent(client: HttpClient, org: string, experimentId: string, variantId: string): Promise<JsonObject> {
  return client.json({
    method: 'GET',
    path: apiPath`/orgs/${org}/experiments/${experimentId}/variants/${variantId}/content`,
    resource: {kind: 'variant', id: variantId, label: `variant "${variantId}" of experiment "${experimentId}"`},
  })
}
