import {fileStore} from './file-store.js'
import {keychain, keychainMode, KeychainUnavailable} from './keychain.js'
import {TOKEN_PREFIX} from '../../contract/vocabulary.js'
import {NotLoggedInError} from '../errors.js'
import {assertTokenForm, isTokenForm} from './token.js'

/**
 * Credential resolution (cli-contract.md 1.3): AMCTL_TOKEN → OS keychain → credentials file.
 * The keychain account is `<profile>@<origin of the base URL>`.
 */

/** AMCTL_TOKEN set to nothing (exit 3). */
const EMPTY_ENV_TOKEN = 'AMCTL_TOKEN is set but empty (pull requests from forks receive no secrets)'
const EMPTY_ENV_TOKEN_HINT = 'give the job its token secret, or unset AMCTL_TOKEN to use a stored login'

export type TokenSource = 'env' | 'keychain' | 'file'

export interface FoundToken {
  token: string
  source: TokenSource
}

export function accountFor(profile: string, baseUrl: string): string {
  return `${profile}@${new URL(baseUrl).origin}`
}

export async function findToken(profile: string, baseUrl: string, env: NodeJS.ProcessEnv): Promise<FoundToken | undefined> {
  // an AMCTL_KEYCHAIN amctl does not know is a mistake to say, whether or not the keychain is reached
  keychainMode(env)
  if (env.AMCTL_TOKEN !== undefined) {
    // set but empty is what a CI secret the job does not get becomes (`${{ secrets.X }}` in a
    // pull request from a fork): said as such, never taken for "unset" and a stored login used
    if (env.AMCTL_TOKEN === '') throw new NotLoggedInError(EMPTY_ENV_TOKEN, EMPTY_ENV_TOKEN_HINT)
    return {token: assertTokenForm(env.AMCTL_TOKEN, 'AMCTL_TOKEN'), source: 'env'}
  }
  const account = accountFor(profile, baseUrl)
  try {
    const token = await keychain.get(account, env)
    if (token) return stored(token, 'keychain', account)
  } catch (error) {
    if (!(error instanceof KeychainUnavailable)) throw error
  }
  const token = fileStore.get(account, env)
  return token ? stored(token, 'file', account) : undefined
}

/** A stored token is held to the token form like any other; one that fails it is never sent (exit 3). */
function stored(token: string, source: 'keychain' | 'file', account: string): FoundToken {
  if (!isTokenForm(token)) {
    const where = source === 'keychain' ? 'the OS keychain' : 'credentials.json'
    const form = `a token starts with "${TOKEN_PREFIX}" and has no whitespace or control characters`
    throw new NotLoggedInError(`the token stored in ${where} for ${account} is malformed (${form})`)
  }
  return {token, source}
}

export interface StoreResult {
  source: 'keychain' | 'file'
  /** Why the keychain was not used, when it was not and the user did not ask for the file. */
  keychainProblem?: string
  path?: string
}

/**
 * Stores a token for the profile and server: in the keychain unless `insecure` or the keychain
 * is unavailable, then in the file. Whichever is used, the other's copy is removed so the two
 * never disagree.
 */
export async function storeToken(
  profile: string,
  baseUrl: string,
  token: string,
  env: NodeJS.ProcessEnv,
  opts: {insecure?: boolean} = {},
): Promise<StoreResult> {
  keychainMode(env)
  const account = accountFor(profile, baseUrl)
  if (!opts.insecure) {
    try {
      await keychain.set(account, token, env)
      fileStore.delete(account, env)
      return {source: 'keychain'}
    } catch (error) {
      if (!(error instanceof KeychainUnavailable)) throw error
      fileStore.set(account, token, env)
      return {source: 'file', keychainProblem: error.message, path: fileStore.path(env)}
    }
  }
  fileStore.set(account, token, env)
  await keychain.delete(account, env).catch(() => false)
  return {source: 'file', path: fileStore.path(env)}
}

/** Removes the stored token of the profile and server from both stores; returns where it was. */
export async function removeToken(profile: string, baseUrl: string, env: NodeJS.ProcessEnv): Promise<TokenSource[]> {
  keychainMode(env)
  const account = accountFor(profile, baseUrl)
  const removed: TokenSource[] = []
  if (await keychain.delete(account, env).catch(() => false)) removed.push('keychain')
  if (fileStore.delete(account, env)) removed.push('file')
  return removed
}
