import {Flags} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {createToken} from '../../api/auth.js'
import type {CreatedToken} from '../../api/types.js'
import {parseExpiry, requireText} from '../../core/input.js'

export default class TokensCreate extends ApiCommand {
  static override summary = 'Create a personal access token (shown once)'
  static override description =
    'Sends POST /api/v1/tokens with {"name","expiresIn"}. The new token is printed once: store it now, it cannot be shown again.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> --name ci --expires 30d',
    {description: 'Keep only the token', command: '<%= config.bin %> <%= command.id %> --name deploy --expires 90d --json | jq -r .token'},
  ]

  static override flags = {
    name: Flags.string({description: 'name of the token', required: true}),
    expires: Flags.string({description: 'lifetime as <N>d, N from 1 to 3650 (e.g. 30d)', required: true}),
  }

  async run(): Promise<CreatedToken> {
    const {flags} = await this.parse(TokensCreate)
    const body = {name: requireText('--name', flags.name).trim(), expiresIn: parseExpiry('--expires', flags.expires)}
    const created = await createToken(await this.client(flags), body)
    this.renderObject(created)
    this.warning('store it now: it cannot be shown again')
    return created
  }
}
