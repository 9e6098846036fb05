import {requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {json} from '../reply.js'
import type {OwnedCollection} from '../state.js'
import {orgRef} from '../views.js'

/** Organizations area: the summary and the implementation doc. */

const COUNTED: readonly OwnedCollection[] = [
  'evalSets',
  'connections',
  'visibilityPrompts',
  'experiments',
  'optimizations',
  'mcpServers',
  'tags',
]

export function registerOrganizations(router: ApiRouter): void {
  router.operation('getOrgSummary', (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const runs = store.runsOf(org.publicId)
    const counts: Record<string, number> = {runs: runs.length}
    for (const collection of COUNTED) counts[collection] = store.count(collection, org.publicId)
    return json({
      org: orgRef(org),
      createdAt: org.createdAt,
      members: org.members.length,
      credits: org.credits,
      capabilities: {...org.capabilities},
      providerKey: org.providerKey,
      counts,
      latestRunAt: runs.at(-1)?.createdAt ?? null,
      implementationDocUpdatedAt: org.implementationDoc?.updatedAt ?? null,
    })
  })

  router.operation('setImplementationDoc', (ctx) => {
    const org = requireOrg(ctx)
    org.implementationDoc = {...ctx.body, updatedAt: new Date(ctx.services.now()).toISOString()}
    return json(org.implementationDoc)
  })
}
