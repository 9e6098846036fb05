import type {HttpClient} from '../core/http/client.js'
import {apiPath} from '../core/http/path.js'
import type {Connection, Page} from './types.js'

/** `GET /orgs/{org}/connections`: identity and allowed hosts, never secrets. */
export function listConnections(client: HttpClient, org: string): Promise<Page<Connection>> {
  return client.json({method: 'GET', path: apiPath`/orgs/${org}/connections`, resource: {kind: 'organization', id: org}})
}
