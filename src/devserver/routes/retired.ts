import {RETIRED_ROUTES} from '../../api/openapi.js'
import {API_PREFIX} from '../../api/types.js'
import type {ApiRouter} from '../context.js'
import {forbidden} from '../errors.js'

/** Retired routes: any method, with or without the organization prefix, answers 403 with the upgrade message. */

export function registerRetired(router: ApiRouter): void {
  for (const {segment, message} of RETIRED_ROUTES) {
    const retired = (): never => {
      throw forbidden(message)
    }
    router.authed('*', `${API_PREFIX}/orgs/:org/${segment}/*`, retired, {persist: false})
    router.authed('*', `${API_PREFIX}/${segment}/*`, retired, {persist: false})
  }
}
