import type {ApiRouter, RequestContext} from '../context.js'
import {invalid, notFound} from '../errors.js'
import {mintToken} from '../auth.js'
import {compilePattern} from '../pattern.js'
import {json} from '../reply.js'
import type {OrgRecord, UserRecord} from '../state.js'
import {parseObjectBody, requireBoolean, requireInteger, requireNumber, requireObject, requireString} from '../validate.js'
import {orgRef} from '../views.js'
import {launchTargets, outcomeOf} from '../runs.js'
import type {NewRun} from '../store.js'

/**
 * Test hooks under `/_dev/` (dev server only; no auth; not in the request log), described by their
 * own OpenAPI document (../dev-openapi.json: each one's method, path, body check and help):
 * faults, the request log, tokens, memberships, organization state, bulk runs, the planned
 * outcomes of the next launched runs, a run's status and score, device approvals.
 */

export {HOOKS_PREFIX} from '../options.js'
const MAX_BULK_RUNS = 1_000_000
/** A run the bulk hook adds, before its eval set, agent, model and outcome are filled in. */
const BULK_RUN: NewRun = {status: 'succeeded', evalSetId: null, batchId: null, forkedFrom: null, agent: null, model: null, score: null}

export function registerHooks(router: ApiRouter): void {
  const quiet = {persist: false}

  router.hook('addFault', ({services, rawBody}) => json(services.faults.add(parseObjectBody(rawBody))), quiet)
  router.hook('listFaults', ({services}) => json({items: services.faults.list()}))
  router.hook(
    'clearFaults',
    ({services}) => {
      services.faults.clear()
      return json({cleared: true})
    },
    quiet,
  )

  router.hook('listRequests', ({services, query}) => {
    const path = query.get('path')
    return json({items: services.requests.list(query.get('method'), path === null ? null : compilePattern(path, 'path'))})
  })
  router.hook(
    'clearRequests',
    ({services}) => {
      services.requests.clear()
      return json({cleared: true})
    },
    quiet,
  )

  router.hook('mintToken', (ctx) => {
    const user = userOf(ctx, requireString(parseObjectBody(ctx.rawBody), 'email'))
    return json({token: mintToken(ctx.services.store, user.id, 'dev hook', null, ctx.services.now()).token, userId: user.id})
  })

  router.hook('removeMember', (ctx) => {
    const org = orgOf(ctx)
    const user = userOf(ctx, ctx.params.email)
    org.members = org.members.filter((id) => id !== user.id)
    return json({org: org.slug, email: user.email, member: false})
  })
  router.hook('addMember', (ctx) => {
    const org = orgOf(ctx)
    const user = userOf(ctx, ctx.params.email)
    if (!org.members.includes(user.id)) org.members.push(user.id)
    return json({org: org.slug, email: user.email, member: true})
  })

  router.hook('getOrgState', (ctx) => json(orgState(ctx, orgOf(ctx))))
  router.hook('setOrgState', (ctx) => {
    const org = orgOf(ctx)
    const body = parseObjectBody(ctx.rawBody)
    const capabilities = body.capabilities === undefined ? undefined : requireObject(body, 'capabilities')
    const optimizations = capabilities?.optimizations === undefined ? undefined : requireBoolean(capabilities, 'optimizations')
    const credits = body.credits === undefined ? undefined : requireNumber(body, 'credits', 0, Number.MAX_SAFE_INTEGER)
    const providerKey = body.providerKey === undefined ? undefined : requireBoolean(body, 'providerKey')
    if (optimizations !== undefined) org.capabilities.optimizations = optimizations
    if (credits !== undefined) org.credits = credits
    if (providerKey !== undefined) org.providerKey = providerKey
    return json(orgState(ctx, org))
  })

  router.hook('addRuns', (ctx) => {
    const org = orgOf(ctx)
    const count = requireInteger(parseObjectBody(ctx.rawBody), 'count', 1, MAX_BULK_RUNS)
    const {store} = ctx.services
    // as if the organization's eval sets had been launched in turn, each run finished as its
    // eval set × agent × model's runs do (../history.ts)
    const slots: NewRun[] = Object.values(store.state.evalSets)
      .filter((owned) => owned.orgId === org.publicId)
      .flatMap(({item}) => launchTargets(item).map((target) => ({...BULK_RUN, evalSetId: item.id, ...target})))
    if (slots.length === 0) slots.push({...BULK_RUN})
    const fields = Array.from({length: count}, (_, i): NewRun => ({...slots[i % slots.length]}))
    const sequences = store.sequences(org.publicId, fields)
    fields.forEach((field, i) => {
      const {outcome, score} = outcomeOf(field, sequences[i])
      field.status = outcome
      field.score = score
    })
    const added = store.addRuns(org.publicId, fields, ctx.services.now())
    return json({added: added.length, runCount: store.runsOf(org.publicId).length})
  })

  router.hook('planOutcome', (ctx) => json(ctx.services.outcomes.add(orgOf(ctx).publicId, parseObjectBody(ctx.rawBody))))
  router.hook('listOutcomes', (ctx) => json({items: ctx.services.outcomes.list(orgOf(ctx).publicId)}))
  router.hook('clearOutcomes', (ctx) => {
    ctx.services.outcomes.clear(orgOf(ctx).publicId)
    return json({cleared: true})
  })

  router.hook('setRun', (ctx) => {
    const {store, runs} = ctx.services
    const found = store.findRun(ctx.params.runId)
    if (found === undefined) throw notFound(`run "${ctx.params.runId}" not found`)
    const body = parseObjectBody(ctx.rawBody)
    const other = Object.keys(body).find((member) => member !== 'status' && member !== 'score')
    if (other !== undefined) throw invalid(`${other} cannot be set here: only a run's status and score`)
    const changes: {status?: string; score?: number | null} = {}
    if (body.status !== undefined) changes.status = requireString(body, 'status')
    if (body.score === null) changes.score = null
    else if (body.score !== undefined) changes.score = requireNumber(body, 'score', 0, 1)
    return json(runs.pin(store.state, found.run, changes))
  })

  router.hook(
    'approveDevice',
    (ctx) => {
      const body = parseObjectBody(ctx.rawBody)
      const userCode = requireString(body, 'userCode')
      const {store, device} = ctx.services
      const user = body.email === undefined ? store.state.users[0] : userOf(ctx, requireString(body, 'email'))
      if (user === undefined) throw notFound('no users to approve as')
      device.approve(userCode, user)
      return json({userCode, approved: true, email: user.email})
    },
    quiet,
  )
  router.hook(
    'denyDevice',
    (ctx) => {
      const userCode = requireString(parseObjectBody(ctx.rawBody), 'userCode')
      ctx.services.device.deny(userCode)
      return json({userCode, denied: true})
    },
    quiet,
  )
}

function orgOf(ctx: RequestContext): OrgRecord {
  const org = ctx.services.store.orgByRef(ctx.params.org)
  if (org === undefined) throw notFound(`organization "${ctx.params.org}" not found`)
  return org
}

function userOf(ctx: RequestContext, email: string): UserRecord {
  const user = ctx.services.store.userByEmail(email)
  if (user === undefined) throw notFound(`user "${email}" not found`)
  return user
}

function orgState(ctx: RequestContext, org: OrgRecord) {
  const {store} = ctx.services
  return {
    ...orgRef(org),
    members: org.members.map((id) => store.userById(id)?.email ?? id),
    capabilities: {...org.capabilities},
    credits: org.credits,
    providerKey: org.providerKey,
    repositories: [...org.repositories],
    personas: org.personas.map((persona) => ({...persona})),
    runCount: store.runsOf(org.publicId).length,
  }
}
