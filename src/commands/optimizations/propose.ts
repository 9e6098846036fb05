import {Args} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {proposeTrials} from '../../api/optimizations.js'
import type {JsonObject} from '../../api/types.js'
import {buildBody} from '../../core/body.js'
import {requireId} from '../../core/input.js'
import {bodyFlags} from '../../flags.js'

export default class OptimizationsPropose extends ApiCommand {
  static override summary = 'Propose trials for an optimization'
  static override description = 'Sends POST /api/v1/orgs/{org}/optimizations/{climbId}/propose with an optional free-form body ({} when none is given). Requires the Optimizations capability: without it the server answers 403 and amctl exits 4 saying so.'
  static override examples = ['<%= config.bin %> <%= command.id %> climb_checkout', '<%= config.bin %> <%= command.id %> climb_checkout --input proposal.json']

  static override args = {climb_id: Args.string({description: 'ID of the optimization', required: true})}
  static override flags = {...bodyFlags}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(OptimizationsPropose)
    const id = requireId('CLIMB_ID', args.climb_id)
    const body = await buildBody(flags, this.io.stdin)
    const proposal = await proposeTrials(await this.client(flags), await this.org(flags), id, body)
    this.renderObject(proposal)
    return proposal
  }
}
