import type {Method} from '../../contract/routes.js'
import {API_PREFIX, DEVICE_CODE_PARAM} from '../../contract/vocabulary.js'
import type {Clock} from '../clock.js'
import {type AmctlError, BadResponseError, isAmctlError, NetworkError, OutcomeUnknownError} from '../errors.js'
import {type AttemptFailure, classifyFailure} from './failure.js'
import {type Expect, parseBody, statusError} from './response.js'
import {MAX_RETRIES, parseRetryAfter, retryDelayMs, shouldRetry} from './retry.js'
import type {RawResponse, Transport} from './attempt.js'

export type {Method} from '../../contract/routes.js'
export {MAX_BODY_BYTES} from './attempt.js'

const MAX_REDIRECTS = 5

export interface ClientOptions {
  /** Server root, already validated (no trailing slash); `/api/v1` is appended here. */
  baseUrl: string
  /** Resolves the bearer token; called only when a request needs one. */
  token?: () => Promise<string>
  /** Awaited before a request is sent: a local check that must pass first (the --jq expression). */
  beforeSend?: () => Promise<void>
  /** Per-attempt timeout. */
  timeoutMs: number
  userAgent: string
  /** Verbose log sink (stderr); absent = quiet. */
  log?: (line: string) => void
  /** how attempts reach the server: the run's world's (the network, through its environment's proxies; a test's fake API) */
  transport: Transport
  /** the run's clock: the back-off between retries, a Retry-After date, the times --verbose shows */
  clock: Clock
  random?: () => number
}

export interface RequestSpec {
  method: Method
  /** Relative to /api/v1, starting with `/`, already encoded; may carry a query string. */
  path: string
  /** Serialized as JSON when defined. */
  body?: unknown
  headers?: Record<string, string>
  /** false for the one unauthenticated endpoint (POST /cli/token). */
  auth?: boolean
  /** 'object' (default): a JSON object is required. 'any': JSON or text, as it came. */
  expect?: Expect
  /**
   * The caller gave up (a wait's Ctrl-C): the attempt in flight is destroyed, no retry follows,
   * and the request rejects with `signal.reason`. Nothing of it outlives the caller.
   */
  signal?: AbortSignal
}

export interface HttpResponse<T = unknown> {
  status: number
  statusText: string
  headers: Record<string, string>
  contentType: string
  data: T
  requestId?: string
}

// query members whose values are secrets: the device code (its name from the contract vocabulary)
const SECRET_PARAMS = new RegExp(`([?&](?:${DEVICE_CODE_PARAM}|token|access_token)=)[^&#]*`, 'gi')

/** Hides secret query values (the device code) in anything logged or shown. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]')
}

/**
 * The HTTP client of contract 1.6: one request at a time through the transport, with the retry
 * policy by method, same-origin redirects, and the answer read by ./response.ts. Failures are
 * AmctlErrors; what they mean to a person (hints) is the presenter's business.
 */
export class HttpClient {
  readonly baseUrl: string
  private readonly origin: string
  private readonly opts: ClientOptions

  constructor(opts: ClientOptions) {
    this.opts = opts
    this.baseUrl = opts.baseUrl
    this.origin = new URL(opts.baseUrl).origin
  }

  /** Full URL of an API path. */
  url(path: string): string {
    return `${this.baseUrl}${API_PREFIX}${path}`
  }

  /** Sends a request and returns its data, which is a JSON object unless `expect: 'any'`. */
  async json<T = Record<string, unknown>>(spec: RequestSpec): Promise<T> {
    return (await this.send<T>(spec)).data
  }

  /** Sends a request with the retry policy of the contract; throws an AmctlError on failure. */
  async send<T = unknown>(spec: RequestSpec): Promise<HttpResponse<T>> {
    await this.opts.beforeSend?.()
    let url = this.url(spec.path)
    let method = spec.method
    const headers = await this.headers(spec)
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body)
    let redirects = 0

    const {signal} = spec
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted()
      let raw: RawResponse
      const started = this.opts.clock.now()
      this.log(() => `→ ${method} ${redactUrl(url)}${headers.authorization ? ' authorization: Bearer [redacted]' : ''}`)
      try {
        raw = await this.opts.transport.send({url, method, headers, body, timeoutMs: this.opts.timeoutMs, signal})
      } catch (error) {
        signal?.throwIfAborted()
        if (isAmctlError(error)) throw error
        const failed = classifyFailure(error, this.opts.timeoutMs)
        this.log(() => `✗ ${method} ${redactUrl(url)} ${failed.message} ${this.since(started)} attempt ${attempt}`)
        if (!failed.permanent && attempt <= MAX_RETRIES && shouldRetry(method, failed.failure)) {
          await this.wait(attempt, undefined, failed.message, signal)
          continue
        }
        throw failureError(method, url, failed)
      }
      const requestId = raw.headers['x-request-id']
      this.log(
        () =>
          `← ${raw.status} ${method} ${redactUrl(url)} ${this.since(started)} attempt ${attempt}${requestId ? ` request-id ${requestId}` : ''}`,
      )

      if (raw.status >= 300 && raw.status < 400 && raw.headers.location !== undefined) {
        ;({url, method} = this.redirectTarget(url, method, raw, ++redirects))
        attempt--
        continue
      }
      if (raw.status >= 400 || raw.status < 200) {
        if (attempt <= MAX_RETRIES && shouldRetry(method, {kind: 'status', status: raw.status})) {
          await this.wait(attempt, parseRetryAfter(raw.headers['retry-after'], this.opts.clock.wall()), `HTTP ${raw.status}`, signal)
          continue
        }
        throw statusError(raw)
      }
      const data = parseBody(raw, spec.expect ?? 'object', `${spec.method} ${redactUrl(spec.path)}`) as T
      const contentType = raw.headers['content-type'] ?? ''
      return {status: raw.status, statusText: raw.statusText, headers: raw.headers, contentType, data, requestId}
    }
  }

  private async headers(spec: RequestSpec): Promise<Record<string, string>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.opts.userAgent,
      ...lowerKeys(spec.headers ?? {}),
    }
    if (spec.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json'
    if (spec.auth !== false && this.opts.token) headers.authorization = `Bearer ${await this.opts.token()}`
    return headers
  }

  /** Where a redirect leads: only within the API's origin, so the token never follows it elsewhere. */
  private redirectTarget(url: string, method: Method, raw: RawResponse, count: number): {url: string; method: Method} {
    let target: URL
    try {
      target = new URL(raw.headers.location, url)
    } catch {
      throw new BadResponseError(
        `the server answered ${raw.status} with a Location that is not a URL: ${JSON.stringify(raw.headers.location.slice(0, 200))}`,
        {
          status: raw.status,
        },
      )
    }
    if (target.origin !== this.origin) {
      throw new BadResponseError(`the server redirected to ${target.origin}, another origin; amctl does not follow it with your token`, {
        status: raw.status,
      })
    }
    const keepsMethod = raw.status === 307 || raw.status === 308
    if (!keepsMethod && method !== 'GET') {
      throw new BadResponseError(`the server answered ${method} with a ${raw.status} redirect; not following it`, {status: raw.status})
    }
    if (count > MAX_REDIRECTS) throw new BadResponseError(`more than ${MAX_REDIRECTS} redirects`, {status: raw.status})
    return {url: target.href, method}
  }

  private async wait(retry: number, retryAfterMs: number | undefined, why: string, signal: AbortSignal | undefined): Promise<void> {
    const waitMs = retryDelayMs(retry, retryAfterMs, this.opts.random)
    this.log(() => `… ${why}: retry ${retry} of ${MAX_RETRIES} in ${waitMs} ms`)
    await this.opts.clock.sleep(waitMs, signal)
  }

  /** The time since `started` (the clock's), for --verbose. */
  private since(started: number): string {
    return `${Math.round(this.opts.clock.now() - started)} ms`
  }

  /** A --verbose line, made only when someone reads it (every page of --all would make two). */
  private log(line: () => string): void {
    if (this.opts.log) this.opts.log(line())
  }
}

/** A request that got no answer: outcome unknown for a POST that was sent (exit 9), else a network error (exit 1). */
function failureError(method: Method, url: string, failed: AttemptFailure): AmctlError {
  const where = `${method} ${redactUrl(url)}`
  if (method === 'POST' && failed.sent) {
    return new OutcomeUnknownError(`${where} was sent but no answer came (${failed.message})`, failed.cause)
  }
  const what = failed.failure.kind === 'timeout' ? failed.message : `could not reach the server: ${failed.message}`
  return new NetworkError(`${where}: ${what}`, failed.cause)
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
}
