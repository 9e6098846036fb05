import {isTokenForm, TOKEN_PREFIX} from '../../contract/vocabulary.js'
import {UsageError} from '../errors.js'

export {isTokenForm} from '../../contract/vocabulary.js'

/** Throws a usage error (exit 2) naming `source` when `token` is not of the token form (contract 1.3). */
export function assertTokenForm(token: string, source: string): string {
  if (!isTokenForm(token)) {
    throw new UsageError(
      `${source} is not a valid token: expected "${TOKEN_PREFIX}" followed by at least one character, with no whitespace or control characters`,
    )
  }
  return token
}

/**
 * `svc_…` plus the last 4 characters: the only form a token is ever shown in, but for
 * `auth token`. A token too short to hide most of it shows no characters at all.
 */
export function maskToken(token: string): string {
  const secret = token.startsWith(TOKEN_PREFIX) ? token.slice(TOKEN_PREFIX.length) : token
  return `${TOKEN_PREFIX}…${secret.length >= 12 ? secret.slice(-4) : ''}`
}
