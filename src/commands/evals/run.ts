import {Args} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {launchEvalSet} from '../../api/evals.js'
import type {LaunchResult} from '../../api/types.js'
import {requireId} from '../../core/input.js'
import {RUN_COLUMNS} from '../../output/columns.js'

export default class EvalsRun extends ApiCommand {
  static override summary = "Launch an eval set's saved settings"
  static override description = `Sends POST /api/v1/orgs/{org}/eval-sets/{evalSetId}/run with {} and prints the batchIds and runIds.

If the launch was sent and no answer came (timeout, dropped connection), amctl does not launch again: it lists the organization's newest runs so you can see whether the launch happened, and exits 9. With --json that is {"outcome":"unknown","recentRuns":[…]}.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> es_checkout --org acme',
    "<%= config.bin %> <%= command.id %> es_checkout --json | jq -r '.runIds[]'",
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}

  async run(): Promise<LaunchResult> {
    const {args, flags} = await this.parse(EvalsRun)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const org = await this.org(flags)
    const launch = await launchEvalSet(await this.client(flags), org, id)
    if (launch.outcome === 'launched') {
      this.renderObject(launch.result)
      this.notice(`Launched eval set ${id}: ${launch.result.batchIds?.length ?? 0} batch(es), ${launch.result.runIds?.length ?? 0} run(s)`)
      return launch.result
    }
    const {error, recentRuns, listError} = launch
    if (this.human) {
      this.report(error)
      if (listError) this.warning(`could not list the newest runs of ${org} either: ${listError.message}`)
      else {
        this.notice(`The newest runs of ${org} — check whether the launch of ${id} is among them before retrying:`)
        this.renderList(recentRuns, RUN_COLUMNS)
      }
    } else {
      this.logJson({outcome: 'unknown', recentRuns, error: error.toDocument().error})
    }
    error.reported = true
    throw error
  }
}
