import {homedir} from 'node:os'
import {join} from 'node:path'
import type Conf from 'conf'
import {corruptFileError, UsageError} from './errors.js'
import {idProblem, isLoopbackHost} from '../contract/vocabulary.js'
import {ensurePrivateDir, withFileLock} from './fs-atomic.js'

/**
 * Config and profiles (cli-contract.md 1.2). The file is `config.json` in the config directory,
 * kept by `conf` (atomic writes, mode 0600) as `{"profiles":{"<name>":{"base-url","org"}}}`.
 * `conf` is imported only when a command opens the store.
 */

export const CONFIG_KEYS = ['base-url', 'org'] as const
export type ConfigKey = (typeof CONFIG_KEYS)[number]
export type ProfileValues = Partial<Record<ConfigKey, string>>

export const DEFAULT_PROFILE = 'default'
/** The local control plane (`amctl dev server`) — the only server we can name without a login. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010'
export const DEFAULT_TIMEOUT_SECONDS = 30

/** `AMCTL_CONFIG_DIR`, else the platform's config directory for `amctl` (no `-nodejs` suffix). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AMCTL_CONFIG_DIR) return env.AMCTL_CONFIG_DIR
  const home = homedir()
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'amctl')
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'amctl', 'Config')
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'amctl')
}

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key)
}

export function assertConfigKey(key: string): ConfigKey {
  if (!isConfigKey(key)) {
    throw new UsageError(`unknown config key "${key}"; valid keys: ${CONFIG_KEYS.join(', ')}`)
  }
  return key
}

export function assertProfileName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) {
    throw new UsageError(`invalid profile name "${name}"; use letters, digits, "-", "_" or "." (up to 64)`)
  }
  return name
}

/**
 * A server root as amctl uses it: absolute, https (http only for loopback hosts), no query or
 * fragment, no trailing slash; a path prefix is kept. `source` names where the value came from.
 */
export function normalizeBaseUrl(value: string, source = 'base URL'): string {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    throw new UsageError(`${source} "${withoutCredentials(value)}" is not an absolute URL; expected e.g. https://api.example.com`)
  }
  if (url.username || url.password) {
    // never echo a password (not even here): the user sees where it was, not what it was
    const hidden = `${url.protocol}//***${url.password ? ':***' : ''}@${url.host}${url.pathname}`
    throw new UsageError(`${source} "${hidden}" must not carry a user name or password; amctl authenticates with a token`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`${source} "${value}" must use https`)
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `${source} "${value}" must use https: a token never travels in clear text (http is accepted only for 127.0.0.1, ::1 and localhost)`,
    )
  }
  if (url.search || url.hash) throw new UsageError(`${source} "${value}" must not have a query or fragment`)
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

/** `scheme://user:password@…` with the user and password hidden, for a text that does not parse as a URL. */
function withoutCredentials(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1…@')
}

/** Checks a value for `key` and returns it in stored form. */
export function normalizeConfigValue(key: ConfigKey, value: string): string {
  if (key === 'base-url') return normalizeBaseUrl(value)
  const org = value.trim()
  const problem = idProblem(org)
  if (problem !== undefined) throw new UsageError(`org (an organization slug or public ID) ${problem}, got ${JSON.stringify(value)}`)
  return org
}

interface Store {
  profiles?: Record<string, ProfileValues>
}

export class ConfigStore {
  private constructor(private readonly conf: Conf<Store>) {}

  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ConfigStore> {
    const dir = configDir(env)
    ensurePrivateDir(dir)
    const {default: ConfClass} = await import('conf')
    try {
      const conf = new ConfClass<Store>({
        projectName: 'amctl',
        projectSuffix: '',
        cwd: dir,
        configName: 'config',
        configFileMode: 0o600,
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
      })
      return new ConfigStore(conf)
    } catch (error) {
      // conf leaves an unreadable file alone; say which file it is instead of a bare parse error
      if (!(error instanceof SyntaxError)) throw error
      const file = join(dir, 'config.json')
      throw corruptFileError(file, error)
    }
  }

  get path(): string {
    return this.conf.path
  }

  profile(name: string): ProfileValues {
    return {...this.conf.get('profiles')?.[name]}
  }

  profileNames(): string[] {
    return Object.keys(this.conf.get('profiles') ?? {})
  }

  get(profile: string, key: ConfigKey): string | undefined {
    return this.profile(profile)[key]
  }

  set(profile: string, key: ConfigKey, value: string): void {
    this.update(profile, (values) => {
      values[key] = value
    })
  }

  /** Returns whether the key was set. */
  unset(profile: string, key: ConfigKey): boolean {
    let had = false
    this.update(profile, (values) => {
      had = key in values
      delete values[key]
    })
    return had
  }

  /**
   * Read-modify-write under a lock file: conf reads the file afresh on every access, so another
   * amctl process's change written meanwhile (a concurrent login to another profile) is kept.
   */
  private update(profile: string, change: (values: ProfileValues) => void): void {
    withFileLock(this.conf.path, () => {
      const profiles = {...this.conf.get('profiles')}
      const values = {...profiles[profile]}
      change(values)
      if (Object.keys(values).length === 0) delete profiles[profile]
      else profiles[profile] = values
      this.conf.set('profiles', profiles)
    })
  }
}
