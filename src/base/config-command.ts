import {ConfigStore} from '../core/config.js'
import {resolveProfile} from '../core/settings.js'
import {BaseCommand} from './base-command.js'
import {profileFlags} from './flags.js'

/** Base of the `config` commands: only --profile (and --json); no server is involved. */
export abstract class ConfigCommand extends BaseCommand {
  static override baseFlags = profileFlags

  protected async open(flags: {profile?: string}): Promise<{store: ConfigStore; profile: string}> {
    const profile = resolveProfile(flags)
    return {store: await ConfigStore.open(process.env, {warn: (message) => this.out.warning(message)}), profile}
  }
}
