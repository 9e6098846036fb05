import {type ConfigKey, CONFIG_KEYS} from '../../core/config.js'
import type {ValueSource} from '../../core/settings.js'
import {ConfigCommand, effectiveFlags, NO_ORG, sourceText} from '../../base/config-command.js'
import type {Column} from '../../output/format.js'
import type {OperationId} from '../../contract/routes.js'

/** `config list --json`: the profile and each key in effect (null when unset), and where each came from. */
export type ConfigListResult = {profile: string; sources: Record<'profile' | ConfigKey, ValueSource | null>} & Record<
  ConfigKey,
  string | null
>

interface Row {
  key: string
  value: string
  source: string
}

const COLUMNS: Column<Row>[] = [
  {header: 'KEY', get: (row) => row.key},
  {header: 'VALUE', get: (row) => row.value},
  {header: 'SOURCE', get: (row) => row.source},
]

export default class ConfigList extends ConfigCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'List the settings in effect and where each comes from'
  static override description =
    `Shows the profile and every setting (${CONFIG_KEYS.join(', ')}) as commands would use them, by the precedence flag > environment > profile > built-in default, and where each value comes from: a table on a terminal, key<TAB>value lines when piped (the keys that have a value), and with --json {"profile","base-url","org","sources":{…}}, where a source is flag, environment, profile or default (null for a key set nowhere). --base-url and --org show what those flags would change.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --profile prod --json',
    '<%= config.bin %> <%= command.id %> --org globex',
  ]

  static override flags = effectiveFlags

  async run(): Promise<ConfigListResult> {
    const {flags} = await this.parse(ConfigList)
    const config = await this.effective(flags)
    const profile = config.profile.value
    const result: ConfigListResult = {
      profile,
      'base-url': config['base-url'].value,
      org: config.org?.value ?? null,
      sources: {profile: config.profile.source, 'base-url': config['base-url'].source, org: config.org?.source ?? null},
    }
    if (this.io.stdoutIsTTY) {
      const rows: Row[] = [{key: 'profile', value: profile, source: sourceText('profile', config.profile, profile)}]
      for (const key of CONFIG_KEYS) {
        const setting = config[key]
        rows.push(
          setting
            ? {key, value: setting.value, source: sourceText(key, setting, profile)}
            : {key, value: '-', source: `not set: ${NO_ORG}`},
        )
      }
      this.out.list(rows, COLUMNS)
    } else {
      // piped: key<TAB>value, the keys with a value (as scripts read it before sources were shown)
      const values: Record<string, string> = {}
      for (const key of CONFIG_KEYS) if (config[key]) values[key] = config[key].value
      this.out.object(values)
    }
    return result
  }
}
