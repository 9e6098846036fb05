import {Args} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {getVariantContent} from '../../api/experiments.js'
import type {JsonObject} from '../../api/types.js'
import {requireId} from '../../core/input.js'

export default class ExperimentsVariantContent extends ApiCommand {
  static override summary = 'Show the content of an experiment variant'
  static override description = 'Sends GET /api/v1/orgs/{org}/experiments/{experimentId}/variants/{variantId}/content.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> exp_onboarding var_b',
    "<%= config.bin %> <%= command.id %> exp_onboarding var_b --json | jq -r .content",
  ]

  static override args = {
    experiment_id: Args.string({description: 'ID of the experiment', required: true}),
    variant_id: Args.string({description: 'ID of the variant', required: true}),
  }

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(ExperimentsVariantContent)
    const experimentId = requireId('EXPERIMENT_ID', args.experiment_id)
    const variantId = requireId('VARIANT_ID', args.variant_id)
    const content = await getVariantContent(await this.client(flags), await this.org(flags), experimentId, variantId)
    this.renderObject(content)
    return content
  }
}
