import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {json} from '../reply.js'

/** MCP servers area: deleting a server by ID or by name, which also leaves every eval set that selected it. */

export function registerMcpServers(router: ApiRouter): void {
  router.operation('deleteMcpServer', (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const {ref} = ctx.params
    const byName = Object.values(store.state.mcpServers).find((owned) => owned.orgId === org.publicId && owned.item.name === ref)
    const server = byName?.item ?? ownedItem(store, 'mcpServers', 'MCP server', ref, org)
    store.remove('mcpServers', server.id)
    store.deselect(org.publicId, 'mcpServerIds', server.id)
    return json({deleted: true, id: server.id, name: server.name})
  })
}
