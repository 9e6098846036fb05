import {type OperationId, type ParamsOf, type QueryOf, type ResponseOf, ROUTES} from '../contract/routes.js'
import {type ErrorContext, inNotFound} from '../core/errors.js'
import type {HttpClient} from '../core/http/client.js'
import {getPage, type PageOptions, pages} from '../core/http/paginate.js'
import {routePath, withQuery} from '../core/http/path.js'

/** What a request is about, so a 404 can name it: `eval set "es_1" not found: …`. */
export interface Resource {
  kind: string
  id: string
  /** replaces `<kind> "<id>"` */
  label?: string
}

export interface CallOptions<Id extends OperationId = OperationId> {
  /** the query parameters the operation documents */
  query?: QueryOf<Id>
  body?: unknown
  /** false for the one unauthenticated endpoint (POST /cli/token) */
  auth?: boolean
  resource?: Resource
  /** cancels the request in flight and its retries (Ctrl-C, SIGTERM): it rejects with the signal's reason */
  signal?: AbortSignal
}

/** The path (with its query) of an operation, as sent. */
export function operationPath<Id extends OperationId>(id: Id, params: ParamsOf<Id>, query?: QueryOf<Id>): string {
  return withQuery(routePath(id, params), (query ?? {}) as Record<string, string | number | undefined>)
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
  opts: CallOptions<Id> = {},
): Promise<ResponseOf<Id>> {
  const path = operationPath(id, params, opts.query)
  return about(
    client.json<ResponseOf<Id>>({method: ROUTES[id].method, path, body: opts.body, auth: opts.auth, signal: opts.signal}),
    opts.resource,
    params,
  )
}

/** What `answer` gives, or its failure, a 404 with the context of `resource` when one is given. */
async function about<T>(answer: Promise<T>, resource: Resource | undefined, params: object): Promise<T> {
  try {
    return await answer
  } catch (error) {
    throw resource ? namingResource(error, resource, orgOf(params)) : error
  }
}

/** The operations that answer a list: a JSON object whose `items` is an array (`{"items":[…],"nextCursor":…}`). */
export type ListOperationId = {[Id in OperationId]: ResponseOf<Id> extends {items: unknown[]} ? Id : never}[OperationId]

/** The list operations that page: they take the `cursor` a page's `nextCursor` gives. */
export type PagedOperationId = {
  [Id in ListOperationId]: [QueryOf<Id>] extends [never] ? never : 'cursor' extends keyof QueryOf<Id> ? Id : never
}[ListOperationId]

/** One item of what list operation `Id` answers (`Run` for `listRuns`). */
export type ItemOf<Id extends ListOperationId> = ResponseOf<Id>['items'][number]

/** How one page is asked for: the operation's query (`limit`, `cursor`…), and what a 404 is about. */
export interface PageCallOptions<Id extends ListOperationId> {
  query?: QueryOf<Id>
  resource?: Resource
  signal?: AbortSignal
}

/**
 * Sends list operation `id` (a GET) and returns the page it answers, typed as the document
 * describes it; an answer whose `items` is not an array is `bad_response`. As `call`, a 404 gets
 * `resource` as its context.
 */
export async function callPage<Id extends ListOperationId>(
  client: HttpClient,
  id: Id,
  params: ParamsOf<Id>,
  opts: PageCallOptions<Id> = {},
): Promise<ResponseOf<Id>> {
  const page = getPage(client, operationPath(id, params, opts.query), undefined, opts.signal) as Promise<ResponseOf<Id>>
  return about(page, opts.resource, params)
}

/** How the pages of an operation are walked: its query (a `cursor` to start from), and src/core/http/paginate.ts's options. */
export interface PagesCallOptions<Id extends PagedOperationId>
  extends PageCallOptions<Id>,
    Pick<PageOptions, 'what' | 'again' | 'laterLimit'> {}

/**
 * Every page of paged operation `id`, one request per iteration (src/core/http/paginate.ts
 * `pages`), from `query.cursor` or the start, the rest of `query` sent with each page. A 404 on
 * the first page gets `resource` as its context; on a later one, the page's.
 */
export async function* callPages<Id extends PagedOperationId>(
  client: HttpClient,
  id: Id,
  params: ParamsOf<Id>,
  opts: PagesCallOptions<Id> = {},
): AsyncGenerator<ResponseOf<Id>> {
  // (limit and cursor are the pager's: it sends them after the rest of the query, on each page)
  const {cursor, limit, ...rest} = (opts.query ?? {}) as {cursor?: string; limit?: number}
  const path = operationPath(id, params, rest as QueryOf<Id>)
  const walk = {cursor, limit, laterLimit: opts.laterLimit, what: opts.what, again: opts.again, signal: opts.signal}
  try {
    yield* pages(client, path, walk) as AsyncGenerator<ResponseOf<Id>>
  } catch (error) {
    throw opts.resource ? namingResource(error, opts.resource, orgOf(params)) : error
  }
}

/** The organization of an operation's path, when it has one (it may be what a 404 is about). */
function orgOf(params: object): string | undefined {
  return (params as {org?: string}).org
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
