import {Args} from '@oclif/core'
import {getVariantContent} from '../../api/experiments.js'
import {ApiCommand} from '../../base/api-command.js'
import type {JsonObject} from '../../contract/types.js'
import {requireId} from '../../input/values.js'
import type {OperationId} from '../../contract/routes.js'

export default class ExperimentsVariantContent extends ApiCommand {
  static override summary = 'Show the content of an experiment variant'
  static operations: OperationId[] = ['getVariantContent']
  static override description = 'Prints the variant content; multi-line text is shown as a block on a terminal.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> exp_acme_onboarding var_acme_onboarding_concise --org acme',
    '<%= config.bin %> <%= command.id %> exp_acme_onboarding var_acme_onboarding_concise --org acme --jq .body',
  ]

  static override args = {
    experiment_id: Args.string({description: 'ID of the experiment', required: true}),
    variant_id: Args.string({description: 'ID of the variant', required: true}),
  }

  async run(): Promise<JsonObject> {
    const {args} = await this.parse(ExperimentsVariantContent)
    const experimentId = requireId('EXPERIMENT_ID', args.experiment_id)
    const variantId = requireId('VARIANT_ID', args.variant_id)
    const content = await getVariantContent(await this.ctx.http(), await this.ctx.org(), experimentId, variantId)
    this.out.object(content)
    return content
  }
}
