import {
  assertProfileName,
  DEFAULT_BASE_URL,
  DEFAULT_PROFILE,
  DEFAULT_TIMEOUT_SECONDS,
  normalizeBaseUrl,
  type ProfileValues,
} from './config.js'
import {idProblem} from '../contract/vocabulary.js'
import {UsageError} from './errors.js'

/**
 * The global settings of an API command, by the contract's precedence:
 * flag > environment > profile in the config > built-in default (cli-contract.md 1.1).
 */

export interface GlobalFlags {
  org?: string
  'base-url'?: string
  profile?: string
  timeout?: string
  verbose?: boolean
}

export interface Settings {
  profile: string
  baseUrl: string
  /** org from flag, env or profile; undefined = resolve through GET /me */
  org?: string
  timeoutMs: number
  verbose: boolean
}

const MAX_TIMEOUT_SECONDS = 24 * 3600

function pick(flag: string | undefined, flagName: string, env: string | undefined, envName: string) {
  if (flag !== undefined) return {value: flag, source: flagName, from: 'flag' as const}
  if (env !== undefined && env !== '') return {value: env, source: envName, from: 'environment' as const}
  return undefined
}

/** Where a setting's value came from, by the precedence above. */
export type ValueSource = 'flag' | 'environment' | 'profile' | 'default'

export interface Sourced {
  value: string
  source: ValueSource
}

/** The profile and the config keys in effect, each with where it came from (`config list` and `config get` show them). */
export interface EffectiveConfig {
  profile: Sourced
  'base-url': Sourced
  /** none: resolved through GET /me */
  org?: Sourced
}

export function resolveProfile(flags: GlobalFlags, env: NodeJS.ProcessEnv): string {
  return profileOf(flags, env).value
}

function profileOf(flags: GlobalFlags, env: NodeJS.ProcessEnv): Sourced {
  const chosen = pick(flags.profile, '--profile', env.AMCTL_PROFILE, 'AMCTL_PROFILE')
  return chosen ? {value: assertProfileName(chosen.value), source: chosen.from} : {value: DEFAULT_PROFILE, source: 'default'}
}

/** The values of the profile's settings in effect, by the precedence above; flag and environment values are checked. */
export function effectiveConfig(flags: GlobalFlags, profileValues: ProfileValues, env: NodeJS.ProcessEnv): EffectiveConfig {
  const profile = profileOf(flags, env)
  const url = pick(flags['base-url'], '--base-url', env.AMCTL_BASE_URL, 'AMCTL_BASE_URL')
  const stored = profileValues['base-url']
  const baseUrl: Sourced = url
    ? {value: normalizeBaseUrl(url.value, url.source), source: url.from}
    : {
        value: normalizeBaseUrl(stored ?? DEFAULT_BASE_URL, `base-url of profile "${profile.value}"`),
        source: stored ? 'profile' : 'default',
      }
  const given = pick(flags.org, '--org', env.AMCTL_ORG, 'AMCTL_ORG')
  const org: Sourced | undefined = given
    ? {value: checkOrg(given.value, given.source), source: given.from}
    : profileValues.org === undefined
      ? undefined
      : {value: profileValues.org, source: 'profile'}
  return {profile, 'base-url': baseUrl, org}
}

export function parseTimeout(value: string, source: string): number {
  const seconds = Number(value)
  const ms = Math.round(seconds * 1000)
  if (value.trim() === '' || !Number.isFinite(seconds) || ms < 1 || seconds > MAX_TIMEOUT_SECONDS) {
    throw new UsageError(`${source} must be a number of seconds from 0.001 to ${MAX_TIMEOUT_SECONDS}, got "${value}"`)
  }
  return ms
}

/** An organization given by flag, environment or profile (contract 3's ID rule). */
export function checkOrg(value: string, source: string): string {
  const org = value.trim()
  const problem = idProblem(org)
  if (problem !== undefined) throw new UsageError(`${source} ${problem}, got ${JSON.stringify(value)}`)
  return org
}

export function resolveSettings(flags: GlobalFlags, profileValues: ProfileValues, env: NodeJS.ProcessEnv): Settings {
  const config = effectiveConfig(flags, profileValues, env)
  const timeout = pick(flags.timeout, '--timeout', env.AMCTL_TIMEOUT, 'AMCTL_TIMEOUT')
  return {
    profile: config.profile.value,
    baseUrl: config['base-url'].value,
    org: config.org?.value,
    timeoutMs: timeout ? parseTimeout(timeout.value, timeout.source) : DEFAULT_TIMEOUT_SECONDS * 1000,
    verbose: Boolean(flags.verbose) || env.AMCTL_DEBUG === '1',
  }
}
