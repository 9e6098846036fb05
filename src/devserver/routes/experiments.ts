import {requireCredits} from '../account.js'
import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {conflict, notFound} from '../errors.js'
import {json} from '../reply.js'

/** Experiments: launching (once) and variant content. */

export function registerExperiments(router: ApiRouter): void {
  router.operation('launchExperiment', (ctx) => {
    const org = requireOrg(ctx)
    const experiment = ownedItem(ctx.services.store, 'experiments', 'experiment', ctx.params.experimentId, org)
    if (experiment.status === 'launched') throw conflict(`experiment "${experiment.id}" was already launched at ${experiment.launchedAt}`)
    requireCredits(org)
    experiment.status = 'launched'
    experiment.launchedAt = new Date(ctx.services.now()).toISOString()
    experiment.launchOptions = ctx.body
    return json(experiment)
  })

  router.operation('getVariantContent', (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const experiment = ownedItem(store, 'experiments', 'experiment', ctx.params.experimentId, org)
    const variant = ownedItem(store, 'variants', 'variant', ctx.params.variantId, org)
    if (variant.experimentId !== experiment.id) throw notFound(`variant "${variant.id}" not found in experiment "${experiment.id}"`)
    return json(variant.content)
  })
}
