import {getOrgSummary} from '../../api/orgs.js'
import {ApiCommand} from '../../base/api-command.js'
import type {JsonObject} from '../../contract/types.js'
import type {OperationId} from '../../contract/routes.js'

export default class OrgsSummary extends ApiCommand {
  static override summary = 'Show the summary of the organization'
  static operations: OperationId[] = ['getOrgSummary']
  static override description = 'Members, credits, capabilities and how many of each resource the organization has.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --org acme',
    '<%= config.bin %> <%= command.id %> --org acme --jq .counts.runs',
  ]

  async run(): Promise<JsonObject> {
    await this.parse(OrgsSummary)
    const summary = await getOrgSummary(await this.ctx.http(), await this.ctx.org())
    this.out.object(summary)
    return summary
  }
}
