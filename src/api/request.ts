import {type OperationId, type ParamsOf, type ResponseOf, ROUTES} from '../contract/routes.js'
import {type ErrorContext, inNotFound} from '../core/errors.js'
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
 * JSON answer, typed as the document describes it (`ResponseOf`). A 404 gets the resource asked for as its context (the error presenter leaves it
 * out when the server's message already names what is missing: it may be the organization).
 */
export async function call<Id extends OperationId>(
  client: HttpClient,
  id: Id,
  params: ParamsOf<Id>,
  opts: CallOptions = {},
): Promise<ResponseOf<Id>> {
  const path = operationPath(id, params, opts.query)
  try {
    return await client.json<ResponseOf<Id>>({method: ROUTES[id].method, path, body: opts.body, auth: opts.auth})
  } catch (error) {
    throw opts.resource ? namingResource(error, opts.resource, (params as {org?: string}).org) : error
  }
}

/**
 * The context of a 404 met by a request about `resource`: `eval set "es_1" not found`. A
 * message naming the resource, or the organization `org` of its path (which may be what is
 * missing), already says what is missing (src/output/present.ts errorText).
 */
export function resourceContext({kind, id, label}: Resource, org?: string): ErrorContext {
  return {text: `${label ?? `${kind} "${id}"`} not found`, names: org === undefined ? [kind, id] : [kind, id, 'organization', org]}
}

/** `error` with the context of `resource` when it is a 404 (see inNotFound). */
export function namingResource(error: unknown, resource: Resource, org?: string): unknown {
  return inNotFound(error, resourceContext(resource, org))
}
