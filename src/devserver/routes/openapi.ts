import {openapiDocument} from '../../api/openapi.js'
import {API_PREFIX} from '../../api/types.js'
import type {ApiRouter} from '../context.js'
import {json} from '../reply.js'

/** The API's own description, served without authentication. */

export function registerOpenApi(router: ApiRouter): void {
  const reply = json(openapiDocument)
  router.open('GET', `${API_PREFIX}/openapi.json`, () => reply)
}
