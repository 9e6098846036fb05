import type {HttpClient} from '../core/http/client.js'
import {getPage} from '../core/http/paginate.js'
import {apiPath} from '../core/http/path.js'
import type {Connection, Page} from './types.js'

/** `GET /orgs/{org}/connections`: identity and allowed hosts, never secrets. */
export function listConnections(client: HttpClient, org: string): Promise<Page<Connection>> {
  return getPage(client, {path: apiPath`/orgs/${org}/connections`, resource: {kind: 'organization', id: org}})
}
