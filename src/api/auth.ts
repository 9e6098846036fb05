import type {CliTokenDeviceStart, CliTokenGranted, CliTokenPoll, CreatedToken, CreateTokenBody, Me} from '../contract/types.js'
import {DEVICE_CODE_PARAM} from '../contract/vocabulary.js'
import {BadResponseError} from '../core/errors.js'
import type {HttpClient} from '../core/http/client.js'
import {call} from './request.js'

/** `GET /me`: who the token belongs to; the CLI relies on `email` and `orgs` (contract 1.1). */
export async function getMe(client: HttpClient): Promise<Me> {
  const me: Me = await call(client, 'getMe', {})
  if (typeof me.email !== 'string' || !Array.isArray(me.orgs)) {
    throw new BadResponseError('GET /me did not answer the "email" and "orgs" amctl relies on')
  }
  return me
}

export type CliTokenAnswer = Partial<CliTokenGranted & CliTokenDeviceStart & CliTokenPoll> & Record<string, unknown>

/** `POST /cli/token` with `{}` and no Authorization header: a token, or a device flow to follow. */
export function startCliLogin(client: HttpClient): Promise<CliTokenAnswer> {
  return call(client, 'createCliToken', {}, {body: {}, auth: false})
}

/** `POST /cli/token?deviceCode=…` with `{}`: pending, denied, expired, or the token. */
export function pollCliLogin(client: HttpClient, deviceCode: string): Promise<CliTokenAnswer> {
  return call(client, 'createCliToken', {}, {query: {[DEVICE_CODE_PARAM]: deviceCode}, body: {}, auth: false})
}

/** `POST /tokens`: a new personal access token, shown once. */
export function createToken(client: HttpClient, body: CreateTokenBody): Promise<CreatedToken> {
  return call(client, 'createToken', {}, {body})
}
