import type {EvalSet, EvalSetPatch, JsonObject, LaunchResult} from '../../contract/types.js'
import {requireCredits} from '../account.js'
import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {invalid} from '../errors.js'
import {json} from '../reply.js'
import type {OrgRecord} from '../state.js'
import type {Store} from '../store.js'
import {launchTargets} from '../runs.js'
import {describeValue} from '../validate.js'

/** Agent Experience area: eval set configuration and launching an eval's saved settings. */

export function registerEvalSets(router: ApiRouter): void {
  router.operation('updateEvalSet', (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const evalSet = ownedItem(store, 'evalSets', 'eval set', ctx.params.evalSetId, org)
    checkPatch(store, org, evalSet, ctx.body)
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

/**
 * The rules of a PATCH the document cannot state, checked before anything is stored (all or
 * nothing): the connections must exist in this organization, and a member stored as an array
 * (a selection) is only ever replaced by an array.
 */
function checkPatch(store: Store, org: OrgRecord, current: EvalSet, patch: EvalSetPatch): void {
  for (const id of patch.connectionIds ?? []) {
    if (store.get('connections', id)?.orgId !== org.publicId) {
      throw invalid(`connectionIds: connection "${id}" does not exist in organization ${org.slug}`)
    }
  }
  for (const [member, value] of Object.entries(patch)) {
    if (Array.isArray(current[member]) && !Array.isArray(value)) throw invalid(`${member} must be an array, got ${describeValue(value)}`)
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
