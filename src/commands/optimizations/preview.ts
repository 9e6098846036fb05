import {Args} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {previewRound} from '../../api/optimizations.js'
import type {JsonObject} from '../../api/types.js'
import {buildBody} from '../../core/body.js'
import {requireId} from '../../core/input.js'
import {bodyFlags} from '../../flags.js'

export default class OptimizationsPreview extends ApiCommand {
  static override summary = 'Preview the current round of an optimization'
  static override description = 'Sends POST /api/v1/orgs/{org}/optimizations/{climbId}/rounds/current/preview with an optional free-form body ({} when none is given).'
  static override examples = ['<%= config.bin %> <%= command.id %> climb_checkout', '<%= config.bin %> <%= command.id %> climb_checkout -F maxTrials=3 --json']

  static override args = {climb_id: Args.string({description: 'ID of the optimization', required: true})}
  static override flags = {...bodyFlags}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(OptimizationsPreview)
    const id = requireId('CLIMB_ID', args.climb_id)
    const body = await buildBody(flags, this.io.stdin)
    const preview = await previewRound(await this.client(flags), await this.org(flags), id, body)
    this.renderObject(preview)
    return preview
  }
}
