import {Args} from '@oclif/core'
import {launchEvalSet} from '../../api/evals.js'
import {ApiCommand} from '../../base/api-command.js'
import type {UnknownOutcome} from '../../base/results.js'
import type {LaunchResult, Run} from '../../contract/types.js'
import {requireId} from '../../input/values.js'
import {styled} from '../../output/renderer.js'
import {RUN_COLUMNS} from '../runs/shared/columns.js'
import type {OperationId} from '../../contract/routes.js'

export default class EvalsRun extends ApiCommand {
  static override summary = "Launch an eval set's saved settings"
  static operations: OperationId[] = ['runEvalSet']
  static override description = `Launches the eval set once and prints the batch and run IDs it created.

If the launch was sent and no answer came (timeout, dropped connection), amctl does not launch again: it lists the organization's newest runs so you can see whether the launch happened, and exits 9. With --json that is {"outcome":"unknown","recentRuns":[…],"error":{…}}.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme',
    "<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --jq '.runIds[]'",
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}

  async run(): Promise<LaunchResult | UnknownOutcome<Run>> {
    const {args} = await this.parse(EvalsRun)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const org = await this.ctx.org()
    const launch = await launchEvalSet(await this.ctx.http(), org, id)
    if (launch.outcome === 'unknown') {
      const {error, recentRuns, listError} = launch
      return {
        kind: 'unknown-outcome',
        error,
        recent: listError
          ? {listError}
          : {title: `The newest runs of ${org}: check whether the launch of ${id} is among them before retrying`, items: recentRuns, columns: RUN_COLUMNS},
        document: {outcome: 'unknown', recentRuns, error: error.toDocument().error},
      }
    }
    const {batchIds = [], runIds = []} = launch.result
    this.out.object(launch.result)
    this.out.notice(`Launched eval set ${id}: ${batchIds.length} batch${batchIds.length === 1 ? '' : 'es'}, ${runIds.length} run${runIds.length === 1 ? '' : 's'}`)
    if (runIds.length > 0 && this.io.stderrIsTTY) this.out.notice(styled(`watch them: amctl runs watch ${runIds.join(' ')} --org ${org}`, 'dim'))
    return launch.result
  }
}
