import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {json} from '../reply.js'

/** Tags area: deleting a tag, which also leaves every eval set that selected it. */

export function registerTags(router: ApiRouter): void {
  router.operation('deleteTag', (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const tag = ownedItem(store, 'tags', 'tag', ctx.params.tagId, org)
    store.remove('tags', tag.id)
    store.deselect(org.publicId, 'tagIds', tag.id)
    return json({deleted: true, id: tag.id, name: tag.name})
  })
}
