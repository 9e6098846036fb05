import {Args} from '@oclif/core'
import {ConfigCommand} from '../../base/config-command.js'
import {assertConfigKey, CONFIG_KEYS} from '../../core/config.js'

export default class ConfigGet extends ConfigCommand {
  static override summary = 'Print a config value of a profile'
  static override description = 'Prints the stored value, or nothing when it is not set (exit 0 either way).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> org',
    '<%= config.bin %> <%= command.id %> base-url --profile prod --json',
  ]

  static override args = {
    key: Args.string({description: `one of: ${CONFIG_KEYS.join(', ')}`, required: true}),
  }

  async run(): Promise<{profile: string; key: string; value: string | null}> {
    const {args, flags} = await this.parse(ConfigGet)
    const key = assertConfigKey(args.key)
    const {store, profile} = await this.open(flags)
    const value = store.get(profile, key) ?? null
    if (value !== null) this.out.text(value)
    return {profile, key, value}
  }
}
