import {Args} from '@oclif/core'
import {previewRound} from '../../api/optimizations.js'
import {ApiCommand} from '../../base/api-command.js'
import {bodyFlags} from '../../base/flags.js'
import type {JsonObject} from '../../contract/types.js'
import {buildBody} from '../../input/body.js'
import {requireId} from '../../input/values.js'
import {showRound} from './shared/views.js'
import type {OperationId} from '../../contract/routes.js'

export default class OptimizationsPreview extends ApiCommand {
  static override summary = 'Preview the current round of an optimization'
  static operations: OperationId[] = ['previewOptimizationRound']
  static override description =
    'Shows what the current round would try, with an optional free-form body of options ({} when none is given). Needs a model-provider key for the organization (exit 8 without one).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> opt_acme_checkout --org acme',
    '<%= config.bin %> <%= command.id %> opt_acme_checkout --org acme -F maxTrials=3 --json',
  ]

  static override args = {optimization_id: Args.string({description: 'ID of the optimization (the API calls it climbId)', required: true})}
  static override flags = {...bodyFlags}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(OptimizationsPreview)
    const id = requireId('OPTIMIZATION_ID', args.optimization_id)
    const body = await buildBody(flags, this.io.stdin)
    const preview = await previewRound(await this.ctx.http(), await this.ctx.org(), id, body)
    showRound(this.out, preview)
    return preview
  }
}
