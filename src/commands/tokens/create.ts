import {Flags} from '@oclif/core'
import {createToken} from '../../api/auth.js'
import {ApiCommand} from '../../base/api-command.js'
import {apiFlags} from '../../base/flags.js'
import type {CreatedToken} from '../../contract/types.js'
import {TOKEN_EXPIRY_DAYS} from '../../contract/vocabulary.js'
import {parseExpiry, requireText} from '../../input/values.js'
import type {OperationId} from '../../contract/routes.js'

export default class TokensCreate extends ApiCommand {
  static override summary = 'Create a personal access token (shown once)'
  static operations: OperationId[] = ['createToken']
  static override description = 'The new token authenticates as you. It is printed once: store it now, it cannot be shown again.'

  static override examples = [
    '<%= config.bin %> <%= command.id %> --name ci --expires 30d',
    {description: 'Keep only the token', command: '<%= config.bin %> <%= command.id %> --name deploy --expires 90d --jq .token'},
  ]

  static override baseFlags = apiFlags(['org'])
  static override flags = {
    name: Flags.string({description: 'name of the token', required: true}),
    expires: Flags.string({
      description: `lifetime as <N>d, N from ${TOKEN_EXPIRY_DAYS.min} to ${TOKEN_EXPIRY_DAYS.max} (e.g. 30d)`,
      required: true,
    }),
  }

  async run(): Promise<CreatedToken> {
    const {flags} = await this.parse(TokensCreate)
    const body = {name: requireText('--name', flags.name).trim(), expiresIn: parseExpiry('--expires', flags.expires)}
    const created = await createToken(await this.ctx.http(), body)
    this.out.object(created)
    this.out.warning('store it now: it cannot be shown again')
    return created
  }
}
