import type {EvalSetPatch, JsonObject, LaunchResult} from '../../contract/types.js'
import {requireCredits} from '../account.js'
import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {invalid} from '../errors.js'
import {json} from '../reply.js'
import type {OrgRecord} from '../state.js'
import type {Store} from '../store.js'
import {launchTargets} from '../runs.js'

/** Agent Experience area: eval set configuration and launching an eval's saved settings. */

export function registerEvalSets(router: ApiRouter): void {
  router.operation('updateEvalSet', (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const evalSet = ownedItem(store, 'evalSets', 'eval set', ctx.params.evalSetId, org)
    checkPatch(store, org, ctx.body)
    const changes: JsonObject = {...ctx.body}
    if (ctx.body.connectionIds !== undefined) changes.connectionIds = [...new Set(ctx.body.connectionIds)]
    if (Object.keys(changes).length > 0) storeMembers(evalSet, {...changes, updatedAt: new Date(ctx.services.now()).toISOString()})
    return json(evalSet)
  })

  router.operation('runEvalSet', (ctx) => {
    const org = requireOrg(ctx)
    const {store, runs} = ctx.services
    const evalSet = ownedItem(store, 'evalSets', 'eval set', ctx.params.evalSetId, org)
    requireCredits(org)
    const batchId = store.newId('bat')
    const launched = runs.launch(
      store,
      org.publicId,
      launchTargets(evalSet).map((target) => ({
        status: 'queued',
        evalSetId: evalSet.id,
        batchId,
        forkedFrom: null,
        ...target,
        score: null,
      })),
    )
    const result: LaunchResult = {batchIds: [batchId], runIds: launched.map((run) => run.id)}
    return json(result)
  })
}

/** The selections of an eval set whose IDs name resources of its organization, and what they name. */
const SELECTIONS = [
  {member: 'connectionIds', collection: 'connections', noun: 'connection'},
  {member: 'mcpServerIds', collection: 'mcpServers', noun: 'MCP server'},
  {member: 'tagIds', collection: 'tags', noun: 'tag'},
] as const

/**
 * The rule of a PATCH the document cannot state, checked before anything is stored (all or
 * nothing): each selected connection, MCP server and tag must exist in this organization. (What
 * each member is, an array of IDs or of targets, the document says and Ajv has checked; a member
 * it does not declare is stored as given, whatever was stored before.)
 */
function checkPatch(store: Store, org: OrgRecord, patch: EvalSetPatch): void {
  for (const {member, collection, noun} of SELECTIONS) {
    for (const id of patch[member] ?? []) {
      if (store.get(collection, id)?.orgId !== org.publicId)
        throw invalid(`${member}: ${noun} "${id}" does not exist in organization ${org.slug}`)
    }
  }
}

/**
 * Stores each member of `changes` in `target` as its own member, whatever its name: a body's
 * `__proto__` (an ordinary member once JSON.parse has read it) is stored and answered like any
 * other, where Object.assign would set the stored object's prototype and drop it from every answer.
 */
function storeMembers(target: JsonObject, changes: JsonObject): void {
  for (const [member, value] of Object.entries(changes)) {
    Object.defineProperty(target, member, {value, enumerable: true, writable: true, configurable: true})
  }
}
