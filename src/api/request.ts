import type {JsonObject} from '../contract/types.js'
import {type OperationId, type ParamsOf, ROUTES} from '../contract/routes.js'
import {ApiError, isAmctlError} from '../core/errors.js'
import type {HttpClient} from '../core/http/client.js'
import {routePath, withQuery} from '../core/http/path.js'

/** What a request is about, so a 404 can name it: `eval set "es_1" not found: …`. */
export interface Resource {
  kind: string
  id: string
  /** replaces `<kind> "<id>"` */
  label?: string
}

export interface CallOptions {
  query?: Record<string, string | number | undefined>
  body?: unknown
  /** false for the one unauthenticated endpoint (POST /cli/token) */
  auth?: boolean
  resource?: Resource
}

/** The path (with its query) of an operation, as sent. */
export function operationPath<Id extends OperationId>(id: Id, params: ParamsOf<Id>, query: CallOptions['query'] = {}): string {
  return withQuery(routePath(id, params), query)
}

/**
 * Sends operation `id` of the API (method and path from src/contract/routes.ts) and returns its
 * JSON object. A 404 names the resource asked for, unless the server's message already names
 * what is missing (it may be the organization, not the resource).
 */
export async function call<Id extends OperationId, T = JsonObject>(
  client: HttpClient,
  id: Id,
  params: ParamsOf<Id>,
  opts: CallOptions = {},
): Promise<T> {
  const path = operationPath(id, params, opts.query)
  try {
    return await client.json<T>({method: ROUTES[id].method, path, body: opts.body, auth: opts.auth})
  } catch (error) {
    throw opts.resource ? namingResource(error, opts.resource) : error
  }
}

export function namingResource(error: unknown, resource: Resource): unknown {
  if (!isAmctlError(error) || error.code !== 'not_found' || error.status === undefined) return error
  const {kind, id, label} = resource
  if (error.message.includes(id) || /"[^"]+"/.test(error.message)) return error
  return new ApiError(`${label ?? `${kind} "${id}"`} not found: ${error.message}`, {
    code: error.code,
    status: error.status,
    requestId: error.requestId,
  })
}
