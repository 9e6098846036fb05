import {getMe} from '../../api/auth.js'
import {ApiCommand} from '../../base/api-command.js'
import type {Me} from '../../contract/types.js'
import type {TokenSource} from '../../core/auth/credentials.js'
import {maskToken} from '../../core/auth/token.js'
import type {OperationId} from '../../contract/routes.js'

export interface StatusResult {
  user: Me
  tokenSource: TokenSource
  baseUrl: string
  profile: string
  org: string | null
  token: string
}

export default class AuthStatus extends ApiCommand {
  static override summary = 'Show who you are logged in as, where, and where the token is stored'
  static operations: OperationId[] = ['getMe']
  static override description = 'Checks the token with the server. Exits 3 when there is no token or the server rejects it.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Check the token a CI job uses', command: 'AMCTL_TOKEN="$AMCTL_CI_TOKEN" <%= config.bin %> <%= command.id %> --json'},
  ]

  async run(): Promise<StatusResult> {
    await this.parse(AuthStatus)
    const settings = await this.ctx.settings()
    const found = await this.ctx.token()
    const user = await getMe(await this.ctx.http())
    const orgs = user.orgs.map((o) => o.slug)
    const org = settings.org ?? (orgs.length === 1 ? orgs[0] : null)
    this.out.object({
      user: user.name ? `${user.name} <${user.email}>` : user.email,
      'base URL': settings.baseUrl,
      profile: settings.profile,
      org: org ?? (orgs.length > 1 ? `none chosen (member of ${orgs.join(', ')}; pass --org)` : 'none'),
      token: maskToken(found.token),
      'token storage': found.source === 'env' ? 'env (AMCTL_TOKEN)' : found.source,
    })
    return {user, tokenSource: found.source, baseUrl: settings.baseUrl, profile: settings.profile, org, token: maskToken(found.token)}
  }
}
