import type {JsonObject} from '../contract/types.js'
import type {HttpClient} from '../core/http/client.js'
import {call} from './request.js'

/** `DELETE /orgs/{org}/mcp-servers/{ref}` */
export function deleteMcpServer(client: HttpClient, org: string, ref: string): Promise<JsonObject> {
  return call(client, 'deleteMcpServer', {org, ref}, {resource: {kind: 'MCP server', id: ref}})
}

/** `DELETE /orgs/{org}/tags/{tagId}` */
export function deleteTag(client: HttpClient, org: string, tagId: string): Promise<JsonObject> {
  return call(client, 'deleteTag', {org, tagId}, {resource: {kind: 'tag', id: tagId}})
}
