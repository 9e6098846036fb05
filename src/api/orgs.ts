import type {HttpClient} from '../core/http/client.js'
import {apiPath} from '../core/http/path.js'
import type {JsonObject} from './types.js'

const orgResource = (org: string) => ({kind: 'organization', id: org})

/** `GET /orgs/{org}/summary` */
export function getOrgSummary(client: HttpClient, org: string): Promise<JsonObject> {
  return client.json({method: 'GET', path: apiPath`/orgs/${org}/summary`, resource: orgResource(org)})
}

/** `PUT /orgs/{org}/implementation-doc` with the whole object. */
export function setImplementationDoc(client: HttpClient, org: string, doc: JsonObject): Promise<JsonObject> {
  return client.json({method: 'PUT', path: apiPath`/orgs/${org}/implementation-doc`, body: doc, resource: orgResource(org)})
}
