import {ApiCommand} from '../../base/api-command.js'
import {apiFlags} from '../../base/flags.js'
import {removeToken, type TokenSource} from '../../core/auth/credentials.js'
import type {OperationId} from '../../contract/routes.js'

export default class AuthLogout extends ApiCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Remove the stored token of the profile'
  static override description =
    'Deletes the token from the OS keychain and the credentials file. No request is sent; AMCTL_TOKEN, if set, is not affected.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile staging']

  static override baseFlags = apiFlags(['org', 'timeout', 'verbose'])

  async run(): Promise<{baseUrl: string; profile: string; removed: TokenSource[]}> {
    await this.parse(AuthLogout)
    const {baseUrl, profile} = await this.ctx.settings()
    const removed = await removeToken(profile, baseUrl, this.ctx.env)
    if (removed.length > 0) this.out.notice(`Logged out of ${baseUrl} (removed from ${removed.join(' and ')})`)
    else this.out.notice(`No stored token for ${baseUrl}${profile === 'default' ? '' : ` (profile "${profile}")`}`)
    if (this.ctx.env.AMCTL_TOKEN) this.out.warning('AMCTL_TOKEN is still set in the environment')
    return {baseUrl, profile, removed}
  }
}
