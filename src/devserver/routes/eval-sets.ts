import {API_PREFIX, CADENCES, SAMPLES} from '../../contract/vocabulary.js'
import type {EvalSet, JsonObject, LaunchResult} from '../../contract/types.js'
import {requireCredits} from '../account.js'
import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {invalid} from '../errors.js'
import {json} from '../reply.js'
import type {OrgRecord} from '../state.js'
import type {Store} from '../store.js'
import {describeValue, isObject, parseObjectBody, requireInteger, requireOneOf, requireString, requireStringArray} from '../validate.js'

/** Agent Experience area: eval set configuration and launching an eval's saved settings. */

const READ_ONLY = new Set(['id', 'createdAt', 'updatedAt'])
const MAX_RUNS_PER_LAUNCH = 3

export function registerEvalSets(router: ApiRouter): void {
  router.authed('PATCH', `${API_PREFIX}/orgs/:org/eval-sets/:evalSetId`, (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const evalSet = ownedItem(store, 'evalSets', 'eval set', ctx.params.evalSetId, org)
    const changes = validatePatch(store, org, evalSet, parseObjectBody(ctx.rawBody))
    if (Object.keys(changes).length > 0) Object.assign(evalSet, changes, {updatedAt: new Date().toISOString()})
    return json(evalSet)
  })

  router.authed('POST', `${API_PREFIX}/orgs/:org/eval-sets/:evalSetId/run`, (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const evalSet = ownedItem(store, 'evalSets', 'eval set', ctx.params.evalSetId, org)
    parseObjectBody(ctx.rawBody)
    requireCredits(org)
    const targets = (Array.isArray(evalSet.targets) ? evalSet.targets : []).filter(isObject).slice(0, MAX_RUNS_PER_LAUNCH)
    const batchId = store.newId('bat')
    const runs = store.addRuns(
      org.publicId,
      (targets.length > 0 ? targets : [{}]).map((target) => ({
        status: 'queued',
        evalSetId: evalSet.id,
        batchId,
        forkedFrom: null,
        agent: typeof target.agent === 'string' ? target.agent : null,
        model: typeof target.model === 'string' ? target.model : null,
        score: null,
      })),
    )
    const result: LaunchResult = {batchIds: [batchId], runIds: runs.map((run) => run.id)}
    return json(result)
  })
}

/**
 * Checks every member of a PATCH body before anything is stored (all or nothing):
 * known members by their rules, any other array replaces an array, other members are stored.
 */
function validatePatch(store: Store, org: OrgRecord, current: EvalSet, patch: JsonObject): JsonObject {
  const changes: JsonObject = {}
  for (const [member, value] of Object.entries(patch)) {
    if (READ_ONLY.has(member)) throw invalid(`${member} is read-only`)
    switch (member) {
      case 'cadence':
        changes.cadence = requireOneOf(patch, member, CADENCES)
        break
      case 'samplesPerTarget':
        changes.samplesPerTarget = requireInteger(patch, member, SAMPLES.min, SAMPLES.max)
        break
      case 'connectionIds':
        changes.connectionIds = connectionIds(store, org, requireStringArray(patch, member))
        break
      case 'name':
        changes.name = requireString(patch, member)
        break
      default:
        if (Array.isArray(current[member]) && !Array.isArray(value)) throw invalid(`${member} must be an array, got ${describeValue(value)}`)
        changes[member] = value
    }
  }
  return changes
}

function connectionIds(store: Store, org: OrgRecord, ids: string[]): string[] {
  for (const id of ids) {
    if (store.get('connections', id)?.orgId !== org.publicId) {
      throw invalid(`connectionIds: connection "${id}" does not exist in organization ${org.slug}`)
    }
  }
  return [...new Set(ids)]
}
