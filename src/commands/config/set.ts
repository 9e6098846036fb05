import {Args} from '@oclif/core'
import {ConfigCommand} from '../../base/config-command.js'
import {assertConfigKey, CONFIG_KEYS, normalizeConfigValue} from '../../core/config.js'
import type {OperationId} from '../../contract/routes.js'

export default class ConfigSet extends ConfigCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Set a config value in a profile'
  static override description =
    `Keys: ${CONFIG_KEYS.join(', ')}. A base-url must be https (http only for 127.0.0.1, ::1 and localhost); a trailing / is dropped and a path prefix is kept.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> org acme',
    '<%= config.bin %> <%= command.id %> base-url https://api.example.com --profile prod',
  ]

  static override args = {
    key: Args.string({description: `one of: ${CONFIG_KEYS.join(', ')}`, required: true}),
    value: Args.string({description: 'the value', required: true}),
  }

  async run(): Promise<{profile: string; key: string; value: string}> {
    const {args, flags} = await this.parse(ConfigSet)
    const key = assertConfigKey(args.key)
    const value = normalizeConfigValue(key, args.value)
    const {store, profile} = await this.open(flags)
    store.set(profile, key, value)
    return {profile, key, value}
  }
}
