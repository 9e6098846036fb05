import type {IncomingHttpHeaders} from 'node:http'
import type {DeviceFlow} from './device-flow.js'
import type {Faults} from './faults.js'
import type {RateLimiter} from './rate-limit.js'
import type {Reply} from './reply.js'
import type {RequestLog} from './request-log.js'
import {Router} from './router.js'
import type {TokenRecord, UserRecord} from './state.js'
import type {Store} from './store.js'

export {APPROVE_MODES, type ApproveMode} from './options.js'

/** Everything a handler can reach. */
export interface Services {
  store: Store
  device: DeviceFlow
  faults: Faults
  requests: RequestLog
  limiter: RateLimiter
  /** base URL of the running server (no trailing slash) */
  baseUrl: () => string
}

export interface RequestContext {
  method: string
  /** path without the query string */
  path: string
  query: URLSearchParams
  params: Record<string, string>
  headers: IncomingHttpHeaders
  rawBody: string
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

type Result = Reply | Promise<Reply>

/**
 * A route's handler. `persist`: whether a success changes the stored state (and so is written
 * to `--data`); by default every method but GET does.
 */
export type Handler = {persist: boolean} & ({auth: false; run: (ctx: RequestContext) => Result} | {auth: true; run: (ctx: AuthedContext) => Result})

export interface RouteOptions {
  persist?: boolean
}

/** Routes that need a bearer token (`authed`) and routes that do not (`open`). */
export class ApiRouter extends Router<Handler> {
  authed(method: string, pattern: string, run: (ctx: AuthedContext) => Result, options: RouteOptions = {}): this {
    return this.add(method, pattern, {auth: true, run, persist: options.persist ?? method !== 'GET'})
  }

  open(method: string, pattern: string, run: (ctx: RequestContext) => Result, options: RouteOptions = {}): this {
    return this.add(method, pattern, {auth: false, run, persist: options.persist ?? method !== 'GET'})
  }
}
