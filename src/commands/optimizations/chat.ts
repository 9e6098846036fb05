import {Args, Flags} from '@oclif/core'
import {sendChat} from '../../api/optimizations.js'
import {ApiCommand} from '../../base/api-command.js'
import type {JsonObject} from '../../contract/types.js'
import {chompNewline, readText} from '../../input/files.js'
import {requireId, requireText} from '../../input/values.js'
import {showChat} from './shared/views.js'
import type {OperationId} from '../../contract/routes.js'

export default class OptimizationsChat extends ApiCommand {
  static override summary = 'Send a message to the chat channel of an optimization'
  static operations: OperationId[] = ['chatOptimization']
  static override description =
    'Sends the message and shows the reply. --message - reads the message from stdin (one trailing newline removed).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> opt_acme_checkout --org acme --message "Why did the last trial regress?"',
    'echo "Focus on refunds next" | <%= config.bin %> <%= command.id %> opt_acme_checkout --org acme --message -',
  ]

  static override args = {optimization_id: Args.string({description: 'ID of the optimization (the API calls it climbId)', required: true})}
  static override flags = {
    message: Flags.string({char: 'm', description: 'the message, or - to read it from stdin', required: true}),
  }

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(OptimizationsChat)
    const id = requireId('OPTIMIZATION_ID', args.optimization_id)
    const message = requireText(
      '--message',
      flags.message === '-' ? chompNewline(await readText('-', this.io.stdin, '--message')) : flags.message,
    )
    const answer = await sendChat(await this.ctx.http(), await this.ctx.org(), id, {message})
    showChat(this.out, answer)
    return answer
  }
}
