import type {ConnectionList} from '../contract/types.js'
import type {HttpClient} from '../core/http/client.js'
import {callPage} from './request.js'

/** `GET /orgs/{org}/connections`: identity and allowed hosts, never secrets (one list: the API does not page it). */
export function listConnections(client: HttpClient, org: string): Promise<ConnectionList> {
  return callPage(client, 'listConnections', {org}, {resource: {kind: 'organization', id: org}})
}
