import {API_PREFIX, DEVICE_CODE_PARAM, TOKEN_EXPIRY_DAYS} from '../../contract/vocabulary.js'
import type {CreatedToken, Me} from '../../contract/types.js'
import {mintToken} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {invalid} from '../errors.js'
import {json} from '../reply.js'
import {describeValue, parseObjectBody, requireString} from '../validate.js'
import {orgRef} from '../views.js'

/** Authentication area: `GET /me`, `POST /tokens`, `POST /cli/token` (the device flow). */

const DAY_MS = 86_400_000

export function registerIdentity(router: ApiRouter): void {
  router.authed('GET', `${API_PREFIX}/me`, ({principal, services}) => {
    const {user} = principal
    const me: Me = {id: user.id, email: user.email, name: user.name, orgs: services.store.orgsOf(user.id).map(orgRef)}
    return json(me)
  })

  router.authed('POST', `${API_PREFIX}/tokens`, ({principal, services, rawBody}) => {
    const body = parseObjectBody(rawBody)
    const name = requireString(body, 'name')
    const days = expiryDays(body.expiresIn)
    const expiresAt = new Date(Date.now() + days * DAY_MS).toISOString()
    const {token, record} = mintToken(services.store, principal.user.id, name, expiresAt)
    const created: CreatedToken = {id: record.id, name, token, expiresAt, createdAt: record.createdAt}
    return json(created)
  })

  router.open('POST', `${API_PREFIX}/cli/token`, ({query, rawBody, services}) => {
    parseObjectBody(rawBody)
    const deviceCode = query.get(DEVICE_CODE_PARAM)
    if (deviceCode === null) return json(services.device.start(`${services.baseUrl()}/device`))
    return json(services.device.poll(deviceCode))
  })
}

function expiryDays(value: unknown): number {
  const match = typeof value === 'string' ? /^(\d{1,4})d$/.exec(value) : null
  const days = match === null ? 0 : Number(match[1])
  if (days < 1 || days > TOKEN_EXPIRY_DAYS.max) {
    throw invalid(`expiresIn must be "<N>d" with N from 1 to ${TOKEN_EXPIRY_DAYS.max}, got ${value === undefined ? 'nothing' : describeValue(value)}`)
  }
  return days
}
