import type {ApiRouter} from '../context.js'
import {openapiDocument} from '../openapi.js'
import {json} from '../reply.js'

/** The API's own description, served without authentication. */

export function registerOpenApi(router: ApiRouter): void {
  const reply = json(openapiDocument)
  router.openOperation('getOpenApi', () => reply)
}
