import type {ImplementationDoc, JsonObject} from '../contract/types.js'
import type {HttpClient} from '../core/http/client.js'
import {call} from './request.js'

const organization = (org: string) => ({kind: 'organization', id: org})

/** `GET /orgs/{org}/summary` */
export function getOrgSummary(client: HttpClient, org: string): Promise<JsonObject> {
  return call(client, 'getOrgSummary', {org}, {resource: organization(org)})
}

/** `PUT /orgs/{org}/implementation-doc` with the whole object. */
export function setImplementationDoc(client: HttpClient, org: string, doc: JsonObject): Promise<ImplementationDoc> {
  return call(client, 'setImplementationDoc', {org}, {body: doc, resource: organization(org)})
}
