import {Args, Flags} from '@oclif/core'
import {updateEvalSet} from '../../api/evals.js'
import {ApiCommand} from '../../base/api-command.js'
import type {EvalSet} from '../../contract/types.js'
import {CADENCES, SAMPLES} from '../../contract/vocabulary.js'
import {requireId} from '../../input/values.js'
import {evalSetPatch} from './shared/patch.js'
import type {OperationId} from '../../contract/routes.js'

export default class EvalsUpdate extends ApiCommand {
  static override summary = "Change an eval set's cadence, samples, connections or other members"
  static operations: OperationId[] = ['updateEvalSet']
  static override description = `Sends only what is given; omitted members keep their values and arrays replace the stored selection.

--cadence is one of ${CADENCES.join(', ')} (any case); --samples a whole number from ${SAMPLES.min} to ${SAMPLES.max}; --connection (repeatable) sets the connections and --clear-connections removes them all; --set KEY=JSON sets any other member. Nothing to change, or contradictory flags, exit 2 before any request.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --cadence weekly --samples 5',
    '<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --connection conn_acme_github --connection conn_acme_stripe',
    `<%= config.bin %> <%= command.id %> es_acme_checkout --org acme --clear-connections --set skillIds='["sk_acme_refunds"]'`,
  ]

  static override args = {eval_set_id: Args.string({description: 'ID of the eval set', required: true})}
  static override flags = {
    cadence: Flags.string({description: `${CADENCES.join(', ')} (case-insensitive)`}),
    samples: Flags.string({description: `samples per target, ${SAMPLES.min}–${SAMPLES.max}`}),
    connection: Flags.string({
      description: 'connection ID (repeatable): replaces the connections',
      multiple: true,
      multipleNonGreedy: true,
    }),
    'clear-connections': Flags.boolean({description: 'remove every connection (sends connectionIds: [])'}),
    set: Flags.string({description: 'any other member as KEY=JSON (repeatable)', multiple: true, multipleNonGreedy: true}),
  }

  async run(): Promise<EvalSet> {
    const {args, flags} = await this.parse(EvalsUpdate)
    const id = requireId('EVAL_SET_ID', args.eval_set_id)
    const patch = evalSetPatch(flags)
    const updated = await updateEvalSet(await this.ctx.http(), await this.ctx.org(), id, patch)
    this.out.object(updated)
    return updated
  }
}
