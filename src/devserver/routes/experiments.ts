import {API_PREFIX} from '../../contract/vocabulary.js'
import {requireCredits} from '../account.js'
import {ownedItem, requireOrg} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {conflict, notFound} from '../errors.js'
import {json} from '../reply.js'
import {parseObjectBody} from '../validate.js'

/** Experiments: launching (once) and variant content. */

export function registerExperiments(router: ApiRouter): void {
  router.authed('POST', `${API_PREFIX}/orgs/:org/experiments/:experimentId/launch`, (ctx) => {
    const org = requireOrg(ctx)
    const experiment = ownedItem(ctx.services.store, 'experiments', 'experiment', ctx.params.experimentId, org)
    const options = parseObjectBody(ctx.rawBody)
    if (experiment.status === 'launched') throw conflict(`experiment "${experiment.id}" was already launched at ${experiment.launchedAt}`)
    requireCredits(org)
    experiment.status = 'launched'
    experiment.launchedAt = new Date().toISOString()
    experiment.launchOptions = options
    return json(experiment)
  })

  router.authed('GET', `${API_PREFIX}/orgs/:org/experiments/:experimentId/variants/:variantId/content`, (ctx) => {
    const org = requireOrg(ctx)
    const {store} = ctx.services
    const experiment = ownedItem(store, 'experiments', 'experiment', ctx.params.experimentId, org)
    const variant = ownedItem(store, 'variants', 'variant', ctx.params.variantId, org)
    if (variant.experimentId !== experiment.id) throw notFound(`variant "${variant.id}" not found in experiment "${experiment.id}"`)
    return json(variant.content)
  })
}
