import {Args} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {launchExperiment} from '../../api/experiments.js'
import type {JsonObject} from '../../api/types.js'
import {buildBody} from '../../core/body.js'
import {requireId} from '../../core/input.js'
import {bodyFlags} from '../../flags.js'

export default class ExperimentsLaunch extends ApiCommand {
  static override summary = 'Launch an experiment'
  static override description = 'Sends POST /api/v1/orgs/{org}/experiments/{experimentId}/launch with an optional free-form body ({} when none is given). An experiment launches once: a second launch exits 6 (conflict).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> exp_onboarding',
    '<%= config.bin %> <%= command.id %> exp_onboarding -F trafficPercent=25 -f note="first wave"',
  ]

  static override args = {experiment_id: Args.string({description: 'ID of the experiment', required: true})}
  static override flags = {...bodyFlags}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(ExperimentsLaunch)
    const id = requireId('EXPERIMENT_ID', args.experiment_id)
    const body = await buildBody(flags, this.io.stdin)
    const launched = await launchExperiment(await this.client(flags), await this.org(flags), id, body)
    this.renderObject(launched)
    return launched
  }
}
