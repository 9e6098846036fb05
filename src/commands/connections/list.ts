import {listConnections} from '../../api/connections.js'
import {ApiCommand} from '../../base/api-command.js'
import type {Connection} from '../../contract/types.js'
import type {Page} from '../../contract/vocabulary.js'
import {CONNECTION_COLUMNS} from './shared/columns.js'
import type {OperationId} from '../../contract/routes.js'

export default class ConnectionsList extends ApiCommand {
  static override summary = 'List the service connections of the organization'
  static operations: OperationId[] = ['listConnections']
  static override description = 'Connections carry identity and allowed hosts; secret values never leave the server.'
  static override examples = ['<%= config.bin %> <%= command.id %> --org acme', '<%= config.bin %> <%= command.id %> --org acme | cut -f1']

  async run(): Promise<Page<Connection>> {
    await this.parse(ConnectionsList)
    const page = await listConnections(await this.ctx.http(), await this.ctx.org())
    this.out.list(page.items, CONNECTION_COLUMNS)
    return page
  }
}
