import {ApiCommand} from '../../api-command.js'
import {getOrgSummary} from '../../api/orgs.js'
import type {JsonObject} from '../../api/types.js'

export default class OrgsSummary extends ApiCommand {
  static override summary = 'Show the summary of the organization'
  static override description = 'Sends GET /api/v1/orgs/{org}/summary.'
  static override examples = ['<%= config.bin %> <%= command.id %> --org acme', '<%= config.bin %> <%= command.id %> --json | jq .runs']

  async run(): Promise<JsonObject> {
    const {flags} = await this.parse(OrgsSummary)
    const summary = await getOrgSummary(await this.client(flags), await this.org(flags))
    this.renderObject(summary)
    return summary
  }
}
