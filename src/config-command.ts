import {BaseCommand, profileFlag} from './base-command.js'
import {ConfigStore} from './core/config.js'
import {resolveProfile} from './core/settings.js'

/** Base of the `config` commands: only --profile (and --json); no server is involved. */
export abstract class ConfigCommand extends BaseCommand {
  static override baseFlags = {profile: profileFlag}

  protected async open(flags: {profile?: string}): Promise<{store: ConfigStore; profile: string}> {
    const profile = resolveProfile(flags)
    return {store: await ConfigStore.open(), profile}
  }
}
