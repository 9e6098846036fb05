import type {Connection} from '../contract/types.js'
import type {Page} from '../contract/vocabulary.js'
import type {HttpClient} from '../core/http/client.js'
import {getPage} from '../core/http/paginate.js'
import {namingResource, operationPath} from './request.js'

/** `GET /orgs/{org}/connections`: identity and allowed hosts, never secrets. */
export async function listConnections(client: HttpClient, org: string): Promise<Page<Connection>> {
  try {
    return await getPage<Connection>(client, operationPath('listConnections', {org}))
  } catch (error) {
    throw namingResource(error, {kind: 'organization', id: org})
  }
}
