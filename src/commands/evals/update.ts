import {Args, Flags} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {updateEvalSet} from '../../api/evals.js'
import {CADENCES, type EvalSet, SAMPLES_MAX, SAMPLES_MIN} from '../../api/types.js'
import {evalSetPatch} from '../../core/eval-patch.js'
import {requireId} from '../../core/input.js'

export default class EvalsUpdate extends ApiCommand {
  static override summary = "Change an eval set's cadence, samples, connections or other members"
  static override description = `Sends PATCH /api/v1/orgs/{org}/eval-sets/{evalSetId} with only what is given; omitted members keep their values and arrays replace the stored selection.

--cadence is one of ${CADENCES.join(', ')} (any case); --samples a whole number from ${SAMPLES_MIN} to ${SAMPLES_MAX}; --connection (repeatable) sets connectionIds and --clear-connections sends []; --set KEY=JSON sets any other member. Nothing to change, or contradictory flags, exit 2 before any request.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> es_checkout --cadence weekly --samples 5',
    '<%= config.bin %> <%= command.id %> es_checkout --connection conn_github --connection conn_stripe',
    `<%= config.bin %> <%= command.id %> es_checkout --clear-connections --set skillIds='["sk_1"]'`,
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}
  static override flags = {
    cadence: Flags.string({description: `${CADENCES.join(', ')} (case-insensitive)`}),
    samples: Flags.string({description: `samples per target, ${SAMPLES_MIN}–${SAMPLES_MAX}`}),
    connection: Flags.string({description: 'connection ID (repeatable): replaces the connections', multiple: true}),
    'clear-connections': Flags.boolean({description: 'remove every connection (sends connectionIds: [])'}),
    set: Flags.string({description: 'any other member as KEY=JSON (repeatable)', multiple: true}),
  }

  async run(): Promise<EvalSet> {
    const {args, flags} = await this.parse(EvalsUpdate)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const patch = evalSetPatch(flags)
    const updated = await updateEvalSet(await this.client(flags), await this.org(flags), id, patch)
    this.renderObject(updated)
    return updated
  }
}
