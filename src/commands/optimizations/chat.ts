import {Args, Flags} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {sendChat} from '../../api/optimizations.js'
import type {JsonObject} from '../../api/types.js'
import {requireId, requireText} from '../../core/input.js'
import {chompNewline, readAll} from '../../core/stdin.js'

export default class OptimizationsChat extends ApiCommand {
  static override summary = 'Send a message to the chat channel of an optimization'
  static override description = 'Sends POST /api/v1/orgs/{org}/optimizations/{climbId}/chat with {"message"}. --message - reads the message from stdin (one trailing newline removed).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> climb_checkout --message "Why did trial 3 regress?"',
    'cat question.md | <%= config.bin %> <%= command.id %> climb_checkout --message -',
  ]

  static override args = {climb_id: Args.string({description: 'ID of the optimization', required: true})}
  static override flags = {
    message: Flags.string({char: 'm', description: 'the message, or - to read it from stdin', required: true}),
  }

  async run(): Promise<JsonObject> {
    const {args, flags} = await this.parse(OptimizationsChat)
    const id = requireId('CLIMB_ID', args.climb_id)
    const message = requireText('--message', flags.message === '-' ? chompNewline(await readAll(this.io.stdin)) : flags.message)
    const answer = await sendChat(await this.client(flags), await this.org(flags), id, {message})
    this.renderObject(answer)
    return answer
  }
}
