import type {HttpClient} from '../core/http/client.js'
import {apiPath} from '../core/http/path.js'
import type {JsonObject} from './types.js'

/** `DELETE /orgs/{org}/mcp-servers/{ref}` */
export function deleteMcpServer(client: HttpClient, org: string, ref: string): Promise<JsonObject> {
  return client.json({method: 'DELETE', path: apiPath`/orgs/${org}/mcp-servers/${ref}`, resource: {kind: 'MCP server', id: ref}})
}

/** `DELETE /orgs/{org}/tags/{tagId}` */
export function deleteTag(client: HttpClient, org: string, tagId: string): Promise<JsonObject> {
  return client.json({method: 'DELETE', path: apiPath`/orgs/${org}/tags/${tagId}`, resource: {kind: 'tag', id: tagId}})
}
