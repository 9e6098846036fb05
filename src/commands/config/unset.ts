import {Args} from '@oclif/core'
import {ConfigCommand} from '../../base/config-command.js'
import {assertConfigKey, CONFIG_KEYS} from '../../core/config.js'
import type {OperationId} from '../../contract/routes.js'

export default class ConfigUnset extends ConfigCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Remove a config value from a profile'
  static override examples = ['<%= config.bin %> <%= command.id %> org', '<%= config.bin %> <%= command.id %> base-url --profile prod']

  static override args = {
    key: Args.string({description: `one of: ${CONFIG_KEYS.join(', ')}`, required: true}),
  }

  async run(): Promise<{profile: string; key: string; removed: boolean}> {
    const {args, flags} = await this.parse(ConfigUnset)
    const key = assertConfigKey(args.key)
    const {store, profile} = await this.open(flags)
    const removed = store.unset(profile, key)
    if (!removed) this.out.notice(`${key} was not set in profile "${profile}"`)
    return {profile, key, removed}
  }
}
