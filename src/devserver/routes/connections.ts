import type {Page} from '../../contract/vocabulary.js'
import type {Connection} from '../../contract/types.js'
import {requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {json} from '../reply.js'

/** Credentials area: connection metadata (identity, allowed hosts). Secrets live elsewhere in the state and never leave it. */

export function registerConnections(router: ApiRouter): void {
  router.operation('listConnections', (ctx) => {
    const org = requireOrg(ctx)
    const items = Object.values(ctx.services.store.state.connections)
      .filter((owned) => owned.orgId === org.publicId)
      .map(({item}): Connection => ({...item, allowedHosts: [...item.allowedHosts]}))
    const page: Page<Connection> = {items}
    return json(page)
  })
}
