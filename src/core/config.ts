import {homedir} from 'node:os'
import {join} from 'node:path'
import {UsageError} from './errors.js'
import {idProblem, isLoopbackHost} from '../contract/vocabulary.js'
import {foreignOwner, isJsonObject, readJsonFile, statOrUndefined, updateJsonFile, wrongShapeError} from './fs-atomic.js'

/**
 * Config and profiles (cli-contract.md 1.2). The file is `config.json` in the config directory
 * (where `conf` would put it for `amctl`, without the `-nodejs` suffix), written atomically with
 * mode 0600 as `{"profiles":{"<name>":{"base-url","org"}}}`.
 */

export const CONFIG_KEYS = ['base-url', 'org'] as const
export type ConfigKey = (typeof CONFIG_KEYS)[number]
export type ProfileValues = Partial<Record<ConfigKey, string>>

export const DEFAULT_PROFILE = 'default'
/** The local control plane (`amctl dev server`) — the only server we can name without a login. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010'
export const DEFAULT_TIMEOUT_SECONDS = 30

/** `AMCTL_CONFIG_DIR`, else the platform's config directory for `amctl` (no `-nodejs` suffix). */
export function configDir(env: NodeJS.ProcessEnv): string {
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
    throw new UsageError(`${source} "${withoutCredentials(value)}" must use https`)
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
  // up to the last @: a password may hold / : ? # (a URL parser gives up on those, this does not)
  // (without `://`, as in `ada:pw@host`, what comes before the @ may be all user name)
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value.replace(/^([a-z][a-z0-9+.-]*:\/\/).*@/is, '$1…@') : value.replace(/^.*@/s, '…@')
}

/** Checks a value for `key` and returns it in stored form. */
export function normalizeConfigValue(key: ConfigKey, value: string): string {
  if (key === 'base-url') return normalizeBaseUrl(value)
  const org = value.trim()
  const problem = idProblem(org)
  if (problem !== undefined) throw new UsageError(`org (an organization slug or public ID) ${problem}, got ${JSON.stringify(value)}`)
  return org
}

/** `{"profiles": {"<name>": {"<key>": "<value>"}}}`; other members (a newer amctl's) are kept as they are. */
interface ConfigFile {
  profiles?: Record<string, Record<string, string>>
  [member: string]: unknown
}

/** Reads config.json and checks its shape; a file that is not amctl's is an error, never merged into. */
function readConfigFile(file: string): ConfigFile {
  const content = readJsonFile(file)
  if (content === undefined) return {}
  if (!isJsonObject(content)) throw wrongShapeError(file, 'expected a JSON object')
  const {profiles} = content
  if (profiles === undefined) return content
  if (!isJsonObject(profiles)) throw wrongShapeError(file, '"profiles" must be an object of profiles')
  for (const [name, values] of Object.entries(profiles)) {
    if (!isJsonObject(values)) throw wrongShapeError(file, `profile ${JSON.stringify(name)} must be an object of settings`)
    for (const [key, value] of Object.entries(values)) {
      if (typeof value !== 'string') {
        throw wrongShapeError(file, `${JSON.stringify(key)} of profile ${JSON.stringify(name)} must be a string`)
      }
    }
  }
  return content as ConfigFile
}

/**
 * Problems with who can reach the local state (contract 1.2): the config directory, config.json
 * or credentials.json owned by another user, the directory writable by group or others,
 * credentials.json readable by them. Only looks (stat); creates and changes nothing. No modes or
 * owners on Windows.
 */
export function localStateWarnings(env: NodeJS.ProcessEnv): string[] {
  if (process.platform === 'win32') return []
  const dir = configDir(env)
  const warnings: string[] = []
  const dirStat = statOrUndefined(dir)
  // as ssh's "Bad owner or permissions": another user who owns a file decides what amctl reads in it
  const owned = (what: string, uid: number) =>
    `${what} belongs to another user (uid ${uid}), who decides what amctl reads there; amctl sends no token stored in it`
  const dirOwner = dirStat?.isDirectory() ? foreignOwner(dirStat.uid) : undefined
  if (dirOwner !== undefined) warnings.push(owned(`the config directory ${dir}`, dirOwner))
  if (dirStat?.isDirectory() && dirStat.mode & 0o022) {
    warnings.push(`the config directory ${dir} can be written by group or others (mode ${octal(dirStat.mode)}); run: chmod 700 ${dir}`)
  }
  for (const name of ['config.json', 'credentials.json']) {
    const fileStat = statOrUndefined(join(dir, name))
    const fileOwner = fileStat?.isFile() ? foreignOwner(fileStat.uid) : undefined
    if (fileOwner !== undefined && dirOwner === undefined) warnings.push(owned(join(dir, name), fileOwner))
  }
  const credentials = join(dir, 'credentials.json')
  const credStat = statOrUndefined(credentials)
  if (credStat?.isFile() && credStat.mode & 0o044) {
    warnings.push(`${credentials} can be read by group or others (mode ${octal(credStat.mode)}); run: chmod 600 ${credentials}`)
  }
  return warnings
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0')
}

/**
 * The profiles in `<config dir>/config.json`. Opening reads the file, if there is one, and
 * nothing else: no directory is created and no mode changed, so reading commands work in a
 * read-only or absent config directory. A write creates the directory (0700) when missing
 * and rewrites the file atomically (0600) under a lock.
 *
 * Not `conf`: its constructor creates the directory on a read of a missing file, its writes
 * (through `atomically`) retry a refused write for a second and create parents 0777, and the
 * bundle could load it only asynchronously; config.json and credentials.json share one reader
 * and one writer instead (./fs-atomic.ts).
 */
export class ConfigStore {
  private constructor(
    readonly path: string,
    private content: ConfigFile,
  ) {}

  /** Reads the config; `warn` hears about a config directory or credentials file open to others. */
  static async open(env: NodeJS.ProcessEnv, opts: {warn?: (message: string) => void} = {}): Promise<ConfigStore> {
    for (const warning of localStateWarnings(env)) opts.warn?.(warning)
    const file = join(configDir(env), 'config.json')
    return new ConfigStore(file, readConfigFile(file))
  }

  /** The known settings of a profile (a copy). */
  profile(name: string): ProfileValues {
    const known: ProfileValues = {}
    for (const [key, value] of Object.entries(profileIn(this.content, name))) if (isConfigKey(key)) known[key] = value
    return known
  }

  profileNames(): string[] {
    return Object.keys(this.content.profiles ?? {})
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

  private update(profile: string, change: (values: Record<string, string>) => void): void {
    this.content = updateJsonFile(this.path, readConfigFile, (content) => {
      const profiles = {...content.profiles}
      const values = {...profileIn(content, profile)}
      change(values)
      if (Object.keys(values).length === 0) delete profiles[profile]
      else profiles[profile] = values
      return {...content, profiles}
    })
  }
}

function profileIn(content: ConfigFile, name: string): Record<string, string> {
  const profiles = content.profiles ?? {}
  return Object.hasOwn(profiles, name) ? profiles[name] : {}
}
