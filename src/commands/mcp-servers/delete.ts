import {Args} from '@oclif/core'
import {deleteMcpServer} from '../../api/deletes.js'
import {ApiCommand} from '../../base/api-command.js'
import {yesFlag} from '../../base/flags.js'
import type {JsonObject} from '../../contract/types.js'
import {requireId} from '../../input/values.js'
import type {OperationId} from '../../contract/routes.js'

export default class McpServersDelete extends ApiCommand {
  static override summary = 'Delete an MCP server'
  static operations: OperationId[] = ['deleteMcpServer']
  static override description = 'Asks for confirmation on a terminal; elsewhere --yes is required.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> mcp_acme_filesystem --org acme',
    '<%= config.bin %> <%= command.id %> mcp_acme_github --org acme --yes',
  ]

  static override args = {ref: Args.string({description: 'ID or name of the MCP server', required: true})}
  static override flags = {yes: yesFlag}

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(McpServersDelete)
    const ref = requireId('REF', args.ref)
    await this.confirmDelete(`MCP server ${ref}`, flags.yes)
    const result = await deleteMcpServer(await this.ctx.http(), await this.ctx.org(), ref)
    this.out.notice(`Deleted MCP server ${ref}`)
    this.out.object(result)
    return result
  }
}
