import {Args} from '@oclif/core'
import {ConfigCommand, effectiveFlags, lookedIn, NO_ORG, sourceText} from '../../base/config-command.js'
import {assertConfigKey, CONFIG_KEYS} from '../../core/config.js'
import type {ValueSource} from '../../core/settings.js'
import {styled} from '../../output/renderer.js'
import type {OperationId} from '../../contract/routes.js'

export default class ConfigGet extends ConfigCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Print a setting in effect'
  static override description =
    `Prints the value commands would use, by the precedence flag > environment > profile > built-in default (the default server too), or nothing when it is set nowhere (exit 0 either way). On a terminal, stderr says where it comes from; --json adds "source": flag, environment, profile or default (null when unset).`
  static override examples = [
    '<%= config.bin %> <%= command.id %> org',
    '<%= config.bin %> <%= command.id %> base-url --profile prod --json',
  ]

  static override args = {
    key: Args.string({description: `one of: ${CONFIG_KEYS.join(', ')}`, required: true}),
  }

  static override flags = effectiveFlags

  async run(): Promise<{profile: string; key: string; value: string | null; source: ValueSource | null}> {
    const {args, flags} = await this.parse(ConfigGet)
    const key = assertConfigKey(args.key)
    const config = await this.effective(flags)
    const profile = config.profile.value
    const setting = config[key]
    if (setting) {
      this.out.text(setting.value)
      if (this.io.stdoutIsTTY) {
        const from = sourceText(key, setting, profile)
        this.out.notice(styled(`from: ${from}${setting.source === 'default' ? ` (not set in profile "${profile}")` : ''}`, 'dim'))
      }
    } else if (this.io.stdoutIsTTY) this.out.notice(styled(`${key} is not set (${lookedIn(key, profile)}): ${NO_ORG}`, 'dim'))
    return {profile, key, value: setting?.value ?? null, source: setting?.source ?? null}
  }
}
