import {ApiCommand} from '../../base/api-command.js'
import {apiFlags} from '../../base/flags.js'
import type {TokenSource} from '../../core/auth/credentials.js'
import type {OperationId} from '../../contract/routes.js'

export default class AuthToken extends ApiCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Print the token amctl uses (for export AMCTL_TOKEN=$(amctl auth token))'
  static override description =
    'Prints the token that commands would send: AMCTL_TOKEN if set, else the stored one. No request is sent. Exits 3 when there is none.'
  static override examples = [
    'export AMCTL_TOKEN=$(<%= config.bin %> <%= command.id %>)',
    '<%= config.bin %> <%= command.id %> --profile staging',
  ]

  static override baseFlags = apiFlags(['org', 'timeout', 'verbose'])

  async run(): Promise<{token: string; source: TokenSource}> {
    await this.parse(AuthToken)
    const found = await this.ctx.token()
    this.out.text(found.token)
    return {token: found.token, source: found.source}
  }
}
