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
  if (flag !== undefined) return {value: flag, source: flagName}
  if (env !== undefined && env !== '') return {value: env, source: envName}
  return undefined
}

export function resolveProfile(flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = pick(flags.profile, '--profile', env.AMCTL_PROFILE, 'AMCTL_PROFILE')
  return chosen ? assertProfileName(chosen.value) : DEFAULT_PROFILE
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

export function resolveSettings(flags: GlobalFlags, profileValues: ProfileValues, env: NodeJS.ProcessEnv = process.env): Settings {
  const profile = resolveProfile(flags, env)
  const url = pick(flags['base-url'], '--base-url', env.AMCTL_BASE_URL, 'AMCTL_BASE_URL')
  const baseUrl = url
    ? normalizeBaseUrl(url.value, url.source)
    : normalizeBaseUrl(profileValues['base-url'] ?? DEFAULT_BASE_URL, `base-url of profile "${profile}"`)
  const org = pick(flags.org, '--org', env.AMCTL_ORG, 'AMCTL_ORG')
  const timeout = pick(flags.timeout, '--timeout', env.AMCTL_TIMEOUT, 'AMCTL_TIMEOUT')
  return {
    profile,
    baseUrl,
    org: org ? checkOrg(org.value, org.source) : profileValues.org,
    timeoutMs: timeout ? parseTimeout(timeout.value, timeout.source) : DEFAULT_TIMEOUT_SECONDS * 1000,
    verbose: Boolean(flags.verbose) || env.AMCTL_DEBUG === '1',
  }
}
