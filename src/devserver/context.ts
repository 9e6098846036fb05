import type {IncomingHttpHeaders} from 'node:http'
import {type BodyOf, OPERATION_IDS, ROUTES, type OperationId} from '../contract/routes.js'
import type {JsonObject} from '../contract/types.js'
import {DEV_ROUTES, type DevOperationId} from './dev-routes.js'
import type {DeviceFlow} from './device-flow.js'
import type {Faults} from './faults.js'
import {documentOperations, routePattern} from './openapi.js'
import type {RateLimiter} from './rate-limit.js'
import {json, type Reply} from './reply.js'
import type {RequestLog} from './request-log.js'
import {Router} from './router.js'
import type {OutcomePlans} from './outcome-plans.js'
import {HOOKS_PREFIX} from './options.js'
import {API_PREFIX} from '../contract/vocabulary.js'
import {envelope} from './errors.js'
import type {RunLifecycle} from './runs.js'
import type {TokenRecord, UserRecord} from './state.js'
import type {Store} from './store.js'

/** Everything a handler can reach. */
export interface Services {
  store: Store
  device: DeviceFlow
  faults: Faults
  requests: RequestLog
  limiter: RateLimiter
  /** the run lifecycle: the time now, and how long a launched run takes */
  runs: RunLifecycle
  /** the outcomes planned for the next launched runs (`/_dev/orgs/:org/outcomes`) */
  outcomes: OutcomePlans
  /** base URL of the running server (no trailing slash) */
  baseUrl: () => string
  /** the server's clock: the time of day, epoch ms (DevServerOptions.now) */
  now: () => number
}

export interface RequestContext {
  method: string
  /** path without the query string */
  path: string
  query: URLSearchParams
  params: Record<string, string>
  headers: IncomingHttpHeaders
  rawBody: string
  /** an operation's body, parsed and checked against the OpenAPI document (`{}` elsewhere) */
  body: JsonObject
  services: Services
}

/** The user a valid token authenticates as, and that token. */
export interface Principal {
  user: UserRecord
  token: TokenRecord
}

export interface AuthedContext extends RequestContext {
  principal: Principal
}

export type OperationContext<Id extends OperationId> = AuthedContext & {body: BodyOf<Id>}
export type OpenOperationContext<Id extends OperationId> = RequestContext & {body: BodyOf<Id>}

type Result = Reply | Promise<Reply>

/**
 * A route's handler. `persist`: whether a success changes the stored state (and so is written
 * to `--data`); by default every method but GET does. `operationId`: the API operation it
 * answers, whose request body the server checks against the document before running it.
 */
export type Handler = {
  persist: boolean
  operationId?: OperationId | DevOperationId
  /** the stand-in of a documented operation nothing registered: it answers 501 (`ApiRouter.unimplemented`) */
  unimplemented?: OperationId
} & ({auth: false; run: (ctx: RequestContext) => Result} | {auth: true; run: (ctx: AuthedContext) => Result})

export interface RouteOptions {
  persist?: boolean
}

/** Whether the document lets an operation be called without a token (`security: []`). */
function isOpen(id: OperationId): boolean {
  const found = documentOperations.find(({operation}) => operation.operationId === id)
  if (found === undefined) throw new Error(`operation ${id} is not in the OpenAPI document`)
  return Array.isArray(found.operation.security) && found.operation.security.length === 0
}

/**
 * Routes of the API's operations (by operationId: method and path come from src/contract/routes.ts,
 * whether they need a token from the document), and other routes that need a bearer token
 * (`authed`) or not (`open`).
 */
export class ApiRouter extends Router<Handler> {
  /** An operation that needs a bearer token. */
  operation<Id extends OperationId>(id: Id, run: (ctx: OperationContext<Id>) => Result, options: RouteOptions = {}): this {
    if (isOpen(id)) throw new Error(`operation ${id} needs no token in the OpenAPI document: register it with openOperation`)
    const {method, path} = ROUTES[id]
    const persist = options.persist ?? method !== 'GET'
    return this.add(method, routePattern(path), {auth: true, operationId: id, run: run as (ctx: AuthedContext) => Result, persist})
  }

  /** An operation the document lets anyone call (`security: []`). */
  openOperation<Id extends OperationId>(id: Id, run: (ctx: OpenOperationContext<Id>) => Result, options: RouteOptions = {}): this {
    if (!isOpen(id)) throw new Error(`operation ${id} needs a token in the OpenAPI document: register it with operation`)
    const {method, path} = ROUTES[id]
    const persist = options.persist ?? method !== 'GET'
    return this.add(method, routePattern(path), {auth: false, operationId: id, run: run as (ctx: RequestContext) => Result, persist})
  }

  /** A test hook under /_dev/ (no token): method and path from the hooks' document, its body checked against it. */
  hook(id: DevOperationId, run: (ctx: RequestContext) => Result, options: RouteOptions = {}): this {
    const {method, path} = DEV_ROUTES[id]
    const persist = options.persist ?? method !== 'GET'
    return this.add(method, `${HOOKS_PREFIX}${path}`, {auth: false, operationId: id, run, persist})
  }

  /**
   * Every operation of the document that nothing registered answers 501 `not_implemented`, naming
   * the operation and where its handler goes: never a 404, which a test expecting "not found"
   * would take for the handler's answer. Called once, after every area registered.
   */
  unimplemented(): this {
    const handled = new Set(this.list().map(({handler}) => handler.operationId))
    for (const id of OPERATION_IDS.filter((operation) => !handled.has(operation))) {
      const {method, path} = ROUTES[id]
      const message = `the dev server has no handler for ${id} (${method} ${API_PREFIX}${path}): register one with router.operation('${id}', …) in src/devserver/routes/`
      const run = (): Reply => json(envelope('not_implemented', message), 501)
      this.add(method, routePattern(path), {auth: false, unimplemented: id, run, persist: false})
    }
    return this
  }

  authed(method: string, pattern: string, run: (ctx: AuthedContext) => Result, options: RouteOptions = {}): this {
    return this.add(method, pattern, {auth: true, run, persist: options.persist ?? method !== 'GET'})
  }

  open(method: string, pattern: string, run: (ctx: RequestContext) => Result, options: RouteOptions = {}): this {
    return this.add(method, pattern, {auth: false, run, persist: options.persist ?? method !== 'GET'})
  }
}
