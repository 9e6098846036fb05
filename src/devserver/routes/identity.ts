import {DEVICE_CODE_PARAM, TOKEN_EXPIRY_DAYS, expiryDays} from '../../contract/vocabulary.js'
import type {CreatedToken, Me} from '../../contract/types.js'
import {mintToken} from '../auth.js'
import type {ApiRouter} from '../context.js'
import {invalid} from '../errors.js'
import {json} from '../reply.js'
import {describeValue} from '../validate.js'
import {orgRef} from '../views.js'

/** Authentication area: `GET /me`, `POST /tokens`, `POST /cli/token` (the device flow). */

const DAY_MS = 86_400_000

export function registerIdentity(router: ApiRouter): void {
  router.operation('getMe', ({principal, services}) => {
    const {user} = principal
    const me: Me = {id: user.id, email: user.email, name: user.name, orgs: services.store.orgsOf(user.id).map(orgRef)}
    return json(me)
  })

  router.operation('createToken', ({principal, services, body}) => {
    // the document states the form (`<N>d`); the bounds are the vocabulary's
    const days = expiryDays(body.expiresIn)
    if (days === undefined) {
      const {min, max} = TOKEN_EXPIRY_DAYS
      throw invalid(`expiresIn must be <N>d with N from ${min} to ${max} (days), got ${describeValue(body.expiresIn)}`)
    }
    const expiresAt = new Date(services.now() + days * DAY_MS).toISOString()
    const {token, record} = mintToken(services.store, principal.user.id, body.name, expiresAt, services.now())
    const created: CreatedToken = {id: record.id, name: body.name, token, expiresAt, createdAt: record.createdAt}
    return json(created)
  })

  router.openOperation('createCliToken', ({query, services}) => {
    const deviceCode = query.get(DEVICE_CODE_PARAM)
    if (deviceCode === null) return json(services.device.start(`${services.baseUrl()}/device`))
    return json(services.device.poll(deviceCode))
  })
}
