import {requireCredits} from '../account.js'
import {requireMember, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {notFound} from '../errors.js'
import {pageNewestFirst} from '../pagination.js'
import {json} from '../reply.js'

/** Runs area: the newest-first run list (each run as it stands now) and forking. */

export function registerRuns(router: ApiRouter): void {
  router.operation('listRuns', (ctx) => {
    const org = requireOrg(ctx)
    const {store, runs} = ctx.services
    const page = pageNewestFirst(store.runsOf(org.publicId), org.publicId, ctx.query)
    return json({...page, items: page.items.map((run) => runs.view(store.state, run))})
  })

  router.operation('forkRun', (ctx) => {
    const {store, runs} = ctx.services
    const source = store.findRun(ctx.params.runId)
    const org = source === undefined ? undefined : store.orgByRef(source.orgId)
    if (source === undefined || org === undefined) throw notFound(`run "${ctx.params.runId}" not found`)
    requireMember(ctx, org)
    requireCredits(org)
    const {run} = source
    const [fork] = runs.launch(store, org.publicId, [
      {
        status: 'queued',
        evalSetId: run.evalSetId,
        batchId: null,
        forkedFrom: run.id,
        agent: run.agent,
        model: run.model,
        score: null,
        ...(Object.keys(ctx.body).length > 0 ? {forkOptions: ctx.body} : {}),
      },
    ])
    return json(fork)
  })
}
