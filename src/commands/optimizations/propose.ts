import {Args} from '@oclif/core'
import {proposeTrials} from '../../api/optimizations.js'
import {ApiCommand} from '../../base/api-command.js'
import {bodyFlags} from '../../base/flags.js'
import type {JsonObject} from '../../contract/types.js'
import {buildBody} from '../../input/body.js'
import {requireId} from '../../input/values.js'
import {showRound} from './shared/views.js'
import type {OperationId} from '../../contract/routes.js'

export default class OptimizationsPropose extends ApiCommand {
  static override summary = 'Propose trials for an optimization'
  static operations: OperationId[] = ['proposeOptimizationTrials']
  static override description =
    'Proposes the next trials of the current round, with an optional free-form body of options ({} when none is given). Needs the Optimizations capability: without it the server answers 403 and amctl exits 4 saying it must be enabled for the organization.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> opt_acme_checkout --org acme',
    "<%= config.bin %> <%= command.id %> opt_acme_checkout --org acme --jq '.trials[].description'",
  ]

  static override args = {optimization_id: Args.string({description: 'ID of the optimization (the API calls it climbId)', required: true})}
  static override flags = {...bodyFlags}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(OptimizationsPropose)
    const id = requireId('OPTIMIZATION_ID', args.optimization_id)
    const body = await buildBody(flags, this.io.stdin)
    const proposal = await proposeTrials(await this.ctx.http(), await this.ctx.org(), id, body)
    showRound(this.out, proposal)
    return proposal
  }
}
