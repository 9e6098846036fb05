import {API_PREFIX} from '../../contract/vocabulary.js'
import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {json} from '../reply.js'

/** Tags area: deleting a tag. */

export function registerTags(router: ApiRouter): void {
  router.authed('DELETE', `${API_PREFIX}/orgs/:org/tags/:tagId`, (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const tag = ownedItem(store, 'tags', 'tag', ctx.params.tagId, org)
    store.remove('tags', tag.id)
    return json({deleted: true, id: tag.id, name: tag.name})
  })
}
