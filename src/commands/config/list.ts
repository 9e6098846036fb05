import {ConfigCommand} from '../../base/config-command.js'
import type {ProfileValues} from '../../core/config.js'

export default class ConfigList extends ConfigCommand {
  static override summary = 'List the config values of a profile'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --profile prod --json']

  async run(): Promise<ProfileValues> {
    const {flags} = await this.parse(ConfigList)
    const {store, profile} = await this.open(flags)
    const values = store.profile(profile)
    this.out.object(values)
    return values
  }
}
