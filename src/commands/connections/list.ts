import {ApiCommand} from '../../api-command.js'
import {listConnections} from '../../api/connections.js'
import type {Connection, Page} from '../../api/types.js'
import {CONNECTION_COLUMNS} from '../../output/columns.js'

export default class ConnectionsList extends ApiCommand {
  static override summary = 'List the service connections of the organization'
  static override description = 'Sends GET /api/v1/orgs/{org}/connections. Connections carry identity and allowed hosts; secret values never leave the server.'
  static override examples = ['<%= config.bin %> <%= command.id %> --org acme', '<%= config.bin %> <%= command.id %> | cut -f1']

  async run(): Promise<Page<Connection>> {
    const {flags} = await this.parse(ConnectionsList)
    const page = await listConnections(await this.client(flags), await this.org(flags))
    this.renderList(page.items, CONNECTION_COLUMNS)
    return page
  }
}
