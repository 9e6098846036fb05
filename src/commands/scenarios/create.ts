import {Flags} from '@oclif/core'
import {createScenario} from '../../api/scenarios.js'
import {ApiCommand} from '../../base/api-command.js'
import type {Scenario} from '../../contract/types.js'
import {requireId, requireText} from '../../input/values.js'
import type {OperationId} from '../../contract/routes.js'

export default class ScenariosCreate extends ApiCommand {
  static override summary = 'Add a repository/persona scenario to a preference prompt'
  static operations: OperationId[] = ['createScenario']
  static override description =
    "The scenario inherits the prompt's agents, models, skills, MCP servers, credentials, cadence and samples. The repository must be accessible to the organization."
  static override examples = [
    '<%= config.bin %> <%= command.id %> --org acme --prompt vp_acme_payments_pref --repository acme/storefront --persona new-developer',
    '<%= config.bin %> <%= command.id %> --org acme --prompt vp_acme_payments_pref --repository acme/payments-api --persona security-reviewer --json',
  ]

  static override flags = {
    prompt: Flags.string({description: 'ID of the preference (visibility) prompt', required: true}),
    repository: Flags.string({description: 'repository accessible to the organization, e.g. acme/storefront', required: true}),
    persona: Flags.string({description: 'persona of the scenario', required: true}),
  }

  async run(): Promise<Scenario> {
    const {flags} = await this.parse(ScenariosCreate)
    const promptId = requireId('--prompt', flags.prompt)
    const body = {repository: requireText('--repository', flags.repository).trim(), persona: requireText('--persona', flags.persona).trim()}
    const scenario = await createScenario(await this.ctx.http(), await this.ctx.org(), promptId, body)
    this.out.object(scenario)
    return scenario
  }
}
