import {Args} from '@oclif/core'
import {launchExperiment} from '../../api/experiments.js'
import {ApiCommand} from '../../base/api-command.js'
import {bodyFlags} from '../../base/flags.js'
import type {JsonObject} from '../../contract/types.js'
import {buildBody} from '../../input/body.js'
import {requireId} from '../../input/values.js'
import type {OperationId} from '../../contract/routes.js'

export default class ExperimentsLaunch extends ApiCommand {
  static override summary = 'Launch an experiment'
  static operations: OperationId[] = ['launchExperiment']
  static override description =
    'Launches the experiment with an optional free-form body of options ({} when none is given). An experiment launches once: a second launch exits 6 (conflict).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> exp_acme_onboarding --org acme',
    '<%= config.bin %> <%= command.id %> exp_acme_onboarding --org acme -F trafficPercent=25 -f note="first wave"',
  ]

  static override args = {experiment_id: Args.string({description: 'ID of the experiment', required: true})}
  static override flags = {...bodyFlags}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(ExperimentsLaunch)
    const id = requireId('EXPERIMENT_ID', args.experiment_id)
    const body = await buildBody(flags, this.io.stdin)
    const launched = await launchExperiment(await this.ctx.http(), await this.ctx.org(), id, body)
    this.out.object(launched)
    return launched
  }
}
