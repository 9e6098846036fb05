import {ConfigStore, type ConfigKey} from '../core/config.js'
import {type EffectiveConfig, effectiveConfig, type GlobalFlags, resolveProfile, type Sourced} from '../core/settings.js'
import {BaseCommand} from './base-command.js'
import {orgFlags, profileFlags} from './flags.js'

/** Base of the `config` commands: only --profile (and --json); no server is involved. */
export abstract class ConfigCommand extends BaseCommand {
  static override baseFlags = profileFlags

  protected async open(flags: {profile?: string}): Promise<{store: ConfigStore; profile: string}> {
    const profile = resolveProfile(flags, this.env)
    return {store: await ConfigStore.open(this.env, {warn: (message) => this.out.warning(message)}), profile}
  }

  /** The profile and the settings in effect for `flags`, each with its source (flag > environment > profile > default). */
  protected async effective(flags: GlobalFlags): Promise<EffectiveConfig> {
    const {store, profile} = await this.open(flags)
    return effectiveConfig(flags, store.profile(profile), this.env)
  }
}

/** The commands that show the settings in effect (`config list`, `config get`): also --base-url and --org, to show what they change. */
export const effectiveFlags = {'base-url': orgFlags['base-url'], org: orgFlags.org}

const NAMES: Record<ConfigKey | 'profile', {flag: string; variable: string}> = {
  profile: {flag: '--profile', variable: 'AMCTL_PROFILE'},
  'base-url': {flag: '--base-url', variable: 'AMCTL_BASE_URL'},
  org: {flag: '--org', variable: 'AMCTL_ORG'},
}

/** Where a setting came from, for people: `--org`, `AMCTL_ORG`, `profile "prod"`, `built-in default`. */
export function sourceText(key: ConfigKey | 'profile', setting: Sourced, profile: string): string {
  switch (setting.source) {
    case 'flag':
      return NAMES[key].flag
    case 'environment':
      return NAMES[key].variable
    case 'profile':
      return `profile "${profile}"`
    case 'default':
      return 'built-in default'
  }
}

/** What happens when no organization is set anywhere (contract 1.1). */
export const NO_ORG = "your login's only organization is used"

/** Where an unset key was looked for, for people. */
export function lookedIn(key: ConfigKey, profile: string): string {
  return `profile "${profile}", ${NAMES[key].variable}, ${NAMES[key].flag}`
}
