import {Args} from '@oclif/core'
import {forkRun} from '../../api/runs.js'
import {ApiCommand} from '../../base/api-command.js'
import {apiFlags, bodyFlags} from '../../base/flags.js'
import type {Run} from '../../contract/types.js'
import {buildBody} from '../../input/body.js'
import {requireId} from '../../input/values.js'
import type {OperationId} from '../../contract/routes.js'

export default class RunsFork extends ApiCommand {
  static override summary = 'Fork a run into a new run'
  static operations: OperationId[] = ['forkRun']
  static override description =
    'Starts a new run from an existing one, with an optional free-form body of options ({} when none is given). A run ID is not scoped by an organization, so --org is not needed. If the request was sent and no answer came, it is not sent again: exit 9.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> run_acme_0001',
    '<%= config.bin %> <%= command.id %> run_acme_0001 -F samplesPerTarget=3 -f note="rerun with more samples"',
  ]

  static override baseFlags = apiFlags(['org'])
  static override args = {run_id: Args.string({description: 'ID of the run to fork', required: true})}
  static override flags = {...bodyFlags}

  async run(): Promise<Run> {
    const {args, flags} = await this.parse(RunsFork)
    const runId = requireId('RUN_ID', args.run_id)
    const body = await buildBody(flags, this.io.stdin)
    const run = await forkRun(await this.ctx.http(), runId, body)
    this.out.object(run)
    return run
  }
}
