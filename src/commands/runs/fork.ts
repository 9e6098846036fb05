import {Args} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {forkRun} from '../../api/runs.js'
import type {Run} from '../../api/types.js'
import {buildBody} from '../../core/body.js'
import {requireId} from '../../core/input.js'
import {bodyFlags} from '../../flags.js'

export default class RunsFork extends ApiCommand {
  static override summary = 'Fork a run into a new run'
  static override description = 'Sends POST /api/v1/runs/{runId}/fork (not org-scoped) with an optional free-form body ({} when none is given). If the request was sent and no answer came, it is not resubmitted: exit 9.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> run_0042',
    '<%= config.bin %> <%= command.id %> run_0042 -F samplesPerTarget=3 -f note="rerun with more samples"',
  ]

  static override args = {run_id: Args.string({description: 'ID of the run to fork', required: true})}
  static override flags = {...bodyFlags}

  async run(): Promise<Run> {
    const {args, flags} = await this.parse(RunsFork)
    const runId = requireId('RUN_ID', args.run_id)
    const body = await buildBody(flags, this.io.stdin)
    const run = await forkRun(await this.client(flags), runId, body)
    this.renderObject(run)
    return run
  }
}
