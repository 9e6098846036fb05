import {Flags} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {createScenario} from '../../api/scenarios.js'
import type {JsonObject} from '../../api/types.js'
import {requireId, requireText} from '../../core/input.js'

export default class ScenariosCreate extends ApiCommand {
  static override summary = 'Add a repository/persona scenario to a preference prompt'
  static override description = 'Sends POST /api/v1/orgs/{org}/visibility-prompts/{visibilityPromptId}/scenarios with {"repository","persona"}. The scenario inherits the prompt\'s agents, models, skills, MCP servers, credentials, cadence and samples. The repository must be accessible to the organization.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --prompt vp_pref_checkout --repository acme/web --persona first-time-buyer',
    '<%= config.bin %> <%= command.id %> --prompt vp_pref_checkout --repository acme/api --persona power-user --json',
  ]

  static override flags = {
    prompt: Flags.string({description: 'ID of the preference (visibility) prompt', required: true}),
    repository: Flags.string({description: 'repository accessible to the organization, e.g. acme/web', required: true}),
    persona: Flags.string({description: 'persona of the scenario', required: true}),
  }

  async run(): Promise<JsonObject> {
    const {flags} = await this.parse(ScenariosCreate)
    const promptId = requireId('--prompt', flags.prompt)
    const body = {repository: requireText('--repository', flags.repository).trim(), persona: requireText('--persona', flags.persona).trim()}
    const scenario = await createScenario(await this.client(flags), await this.org(flags), promptId, body)
    this.renderObject(scenario)
    return scenario
  }
}
