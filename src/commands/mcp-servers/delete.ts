import {Args} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {deleteMcpServer} from '../../api/deletes.js'
import type {JsonObject} from '../../api/types.js'
import {requireId} from '../../core/input.js'
import {yesFlag} from '../../flags.js'

export default class McpServersDelete extends ApiCommand {
  static override summary = 'Delete an MCP server'
  static override description = 'Sends DELETE /api/v1/orgs/{org}/mcp-servers/{ref}. Asks for confirmation on a terminal; elsewhere --yes is required.'
  static override examples = ['<%= config.bin %> <%= command.id %> mcp_docs_search', '<%= config.bin %> <%= command.id %> mcp_docs_search --yes --org acme']

  static override args = {ref: Args.string({description: 'ID or name of the MCP server', required: true})}
  static override flags = {yes: yesFlag}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(McpServersDelete)
    const ref = requireId('REF', args.ref)
    await this.confirmDelete(`MCP server ${ref}`, flags.yes)
    const result = await deleteMcpServer(await this.client(flags), await this.org(flags), ref)
    this.notice(`Deleted MCP server ${ref}`)
    this.renderObject(result)
    return result
  }
}
