import type {Dispatcher} from 'undici'
import {setTimeout as delay} from 'node:timers/promises'
import {API_PREFIX} from '../../api/types.js'
import {
  AmctlError,
  ApiError,
  BadResponseError,
  NetworkError,
  OutcomeUnknownError,
  oneLine,
} from '../errors.js'
import {closeDispatcher, getDispatcher} from './dispatcher.js'
import {MAX_RETRIES, parseRetryAfter, retryDelayMs, shouldRetry, type Failure} from './retry.js'

export const MAX_BODY_BYTES = 8 * 1024 * 1024
const MAX_REDIRECTS = 5
const SNIPPET = 200

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ClientOptions {
  /** Server root, already validated (no trailing slash); `/api/v1` is appended here. */
  baseUrl: string
  /** Resolves the bearer token; called only when a request needs one. */
  token?: () => Promise<string>
  /** Per-attempt timeout. */
  timeoutMs: number
  userAgent: string
  /** Verbose log sink (stderr); absent = quiet. */
  log?: (line: string) => void
  dispatcher?: Dispatcher
  sleep?: (ms: number) => Promise<unknown>
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
  expect?: 'object' | 'any'
  /** Names the resource for a 404 message, e.g. `eval set "es_1"`. */
  resource?: {kind: string; id: string; label?: string}
}

export interface HttpResponse<T = unknown> {
  status: number
  headers: Record<string, string>
  contentType: string
  data: T
  requestId?: string
}

interface RawResponse {
  status: number
  headers: Record<string, string>
  text: string
}

/** Why one attempt failed before a response was read. */
interface AttemptFailure {
  failure: Failure
  /** false when the request provably never left (connect-phase failure) */
  sent: boolean
  /** true for failures retrying cannot fix (DNS name unknown, TLS certificate) */
  permanent: boolean
  message: string
  cause: unknown
}

/** The abort reason of a per-attempt timeout. */
class AttemptTimeout extends Error {
  override name = 'AttemptTimeout'
  /** false when the request never got a connection, so nothing was written */
  constructor(readonly sent = true) {
    super('timeout')
  }
}

/** How long undici gets to act on a timeout's abort before the attempt is ended without it. */
const ABORT_GRACE_MS = 100

/**
 * undici acts on an abort only once the request has a connection; while it is still waiting for
 * one (a proxy that drops every CONNECT and is asked again at once, a connect that is never
 * answered) the abort is merely recorded, and the request would outlive the timeout. So when
 * the abort is not acted on promptly, the attempt ends here, as a timeout before anything was
 * written.
 */
function endOnTimeout<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  pending.catch(() => {}) // it may still fail after the attempt was given up
  return new Promise<T>((resolve, reject) => {
    let grace: NodeJS.Timeout | undefined
    const onAbort = (): void => {
      grace = setTimeout(() => reject(new AttemptTimeout(false)), ABORT_GRACE_MS)
    }
    signal.addEventListener('abort', onAbort, {once: true})
    pending.then(resolve, reject).finally(() => {
      clearTimeout(grace)
      signal.removeEventListener('abort', onAbort)
    })
  })
}

/** Connect-phase error codes: nothing was written to the server. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])
const PERMANENT = new Set([
  'ENOTFOUND',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

function errorCode(error: unknown): string | undefined {
  let e: unknown = error
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as {code?: unknown}).code
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code
    // undici wraps some socket errors; AggregateError holds one per address tried
    const next = (e as {cause?: unknown; errors?: unknown[]}).cause ?? (e as {errors?: unknown[]}).errors?.[0]
    if (!next) return typeof code === 'string' ? code : undefined
    e = next
  }
  return undefined
}

function snippet(text: string): string {
  return oneLine(text).slice(0, SNIPPET)
}

function headerMap(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

/** Hides secret query values (the device code) in anything logged or shown. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:deviceCode|token|access_token)=)[^&#]*/gi, '$1[redacted]')
}

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
    let url = this.url(spec.path)
    let method = spec.method
    const headers = await this.headers(spec)
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body)
    let redirects = 0

    for (let attempt = 1; ; attempt++) {
      let raw: RawResponse
      const started = performance.now()
      try {
        raw = await this.attempt(url, method, headers, body)
      } catch (error) {
        if (error instanceof AmctlError) throw error
        const failed = this.classify(error)
        this.logLine(`✗ ${method} ${redactUrl(url)} ${failed.message} ${ms(started)} attempt ${attempt}`)
        if (!failed.permanent && attempt <= MAX_RETRIES && shouldRetry(method, failed.failure)) {
          await this.wait(attempt, undefined, failed.message)
          continue
        }
        throw this.failureError(method, url, failed)
      }
      const requestId = raw.headers['x-request-id']
      this.logLine(
        `← ${raw.status} ${method} ${redactUrl(url)} ${ms(started)} attempt ${attempt}${requestId ? ` request-id ${requestId}` : ''}`,
      )

      if (raw.status >= 300 && raw.status < 400 && raw.headers.location) {
        const next = this.redirectTarget(url, method, raw, ++redirects)
        url = next.url
        method = next.method
        attempt--
        continue
      }

      if (raw.status >= 400 || raw.status < 200) {
        const failure: Failure = {kind: 'status', status: raw.status}
        if (attempt <= MAX_RETRIES && shouldRetry(method, failure)) {
          await this.wait(attempt, parseRetryAfter(raw.headers['retry-after']), `HTTP ${raw.status}`)
          continue
        }
        throw this.statusError(raw, spec, requestId)
      }
      return this.parse<T>(raw, spec, requestId)
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

  private async attempt(url: string, method: Method, headers: Record<string, string>, body: string | undefined): Promise<RawResponse> {
    this.logLine(`→ ${method} ${redactUrl(url)}${headers.authorization ? ' authorization: Bearer [redacted]' : ''}`)
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new AttemptTimeout()), this.opts.timeoutMs)
    try {
      const {origin, pathname, search} = new URL(url)
      const pending = (this.opts.dispatcher ?? getDispatcher()).request({
        origin,
        path: pathname + search,
        method,
        headers,
        body,
        signal: controller.signal,
      })
      const res = await endOnTimeout(pending, controller.signal)
      const text = await readText(res.body, res.statusCode, res.headers['content-length'])
      return {status: res.statusCode, headers: headerMap(res.headers), text}
    } catch (error) {
      // the request given up is still queued in the shared agent, which would go on trying to
      // connect: a fresh agent serves the next attempt
      if (error instanceof AttemptTimeout && !error.sent && !this.opts.dispatcher) await closeDispatcher()
      throw error
    } finally {
      clearTimeout(timer)
    }
  }

  private classify(error: unknown): AttemptFailure {
    if (error instanceof AttemptTimeout && !error.sent) {
      // like a connect timeout: nothing was written, so a GET is retried and a POST fails (exit 1)
      return {
        failure: {kind: 'network', refused: false},
        sent: false,
        permanent: false,
        message: `no connection within ${this.opts.timeoutMs / 1000} s`,
        cause: error,
      }
    }
    if (error instanceof AttemptTimeout) {
      return {
        failure: {kind: 'timeout'},
        sent: true,
        permanent: false,
        message: `no answer within ${this.opts.timeoutMs / 1000} s`,
        cause: error,
      }
    }
    const code = errorCode(error)
    const sent = code === undefined || !NOT_SENT.has(code)
    const base = error instanceof Error ? error.message : String(error)
    const message = code && !base.includes(code) ? `${base} (${code})` : base
    return {
      failure: {kind: 'network', refused: code === 'ECONNREFUSED'},
      sent,
      permanent: code !== undefined && PERMANENT.has(code),
      message: oneLine(message || 'connection failed'),
      cause: error,
    }
  }

  private failureError(method: Method, url: string, failed: AttemptFailure): AmctlError {
    const where = `${method} ${redactUrl(url)}`
    if (method === 'POST' && failed.sent) {
      return new OutcomeUnknownError(`${where} was sent but no answer came (${failed.message})`, failed.cause)
    }
    const what = failed.failure.kind === 'timeout' ? failed.message : `could not reach the server: ${failed.message}`
    return new NetworkError(`${where}: ${what}`, failed.cause)
  }

  private redirectTarget(url: string, method: Method, raw: RawResponse, count: number): {url: string; method: Method} {
    const target = new URL(raw.headers.location, url)
    if (target.origin !== this.origin) {
      throw new BadResponseError(
        `the server redirected to ${target.origin}, another origin; amctl does not follow it with your token`,
        {status: raw.status},
      )
    }
    const keepsMethod = raw.status === 307 || raw.status === 308
    if (!keepsMethod && method !== 'GET') {
      throw new BadResponseError(`the server answered ${method} with a ${raw.status} redirect; not following it`, {
        status: raw.status,
      })
    }
    if (count > MAX_REDIRECTS) throw new BadResponseError(`more than ${MAX_REDIRECTS} redirects`, {status: raw.status})
    return {url: target.href, method}
  }

  private statusError(raw: RawResponse, spec: RequestSpec, requestId: string | undefined): AmctlError {
    const envelope = parseEnvelope(raw.text)
    if (!envelope) {
      return new BadResponseError(
        `HTTP ${raw.status} with a body that is not the error envelope: ${snippet(raw.text) || '(empty)'}`,
        {status: raw.status, requestId},
      )
    }
    let {message} = envelope
    let hint: string | undefined
    if (raw.status === 401 || envelope.code === 'unauthorized') hint = 'run `amctl auth login`'
    if (envelope.code === 'not_found' && spec.resource) {
      // name the kind and ID; keep the server's words when it did not name the ID itself
      const {kind, id, label} = spec.resource
      const named = label ?? `${kind} "${id}"`
      // keep a message that names what is missing (it may be the organization, not the resource)
      const namesSomething = message.includes(id) || /"[^"]+"/.test(message)
      if (!namesSomething) message = `${named} not found: ${message}`
    }
    return new ApiError(message, {code: envelope.code, status: raw.status, requestId, hint})
  }

  private parse<T>(raw: RawResponse, spec: RequestSpec, requestId: string | undefined): HttpResponse<T> {
    const contentType = raw.headers['content-type'] ?? ''
    const isJson = /[/+]json\b/i.test(contentType)
    const result = {status: raw.status, headers: raw.headers, contentType, requestId}
    const bad = (what: string) => new BadResponseError(`${what} (${spec.method} ${redactUrl(spec.path)})`, {requestId})
    if (spec.expect === 'any') {
      // JSON as JSON, anything else as text; a body labelled JSON that does not parse is broken
      if (!isJson || raw.text.trim() === '') return {...result, data: raw.text as T}
      try {
        return {...result, data: JSON.parse(raw.text) as T}
      } catch (error) {
        throw bad(`the response says it is JSON but is not valid JSON (${(error as Error).message}): ${snippet(raw.text)}`)
      }
    }
    if (raw.status === 204) return {...result, data: {} as T}
    if (raw.text.trim() === '') throw bad(`HTTP ${raw.status} with an empty body where a JSON object was expected`)
    if (!isJson) {
      throw bad(`expected a JSON response, got ${contentType || 'no content type'}: ${snippet(raw.text)}`)
    }
    let data: unknown
    try {
      data = JSON.parse(raw.text)
    } catch (error) {
      throw bad(`the response is not valid JSON (${(error as Error).message}): ${snippet(raw.text)}`)
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw bad(`expected a JSON object, got ${Array.isArray(data) ? 'an array' : JSON.stringify(data)?.slice(0, 40)}`)
    }
    return {...result, data: data as T}
  }

  private async wait(retry: number, retryAfterMs: number | undefined, why: string): Promise<void> {
    const waitMs = retryDelayMs(retry, retryAfterMs, this.opts.random)
    this.logLine(`… ${why}: retry ${retry} of ${MAX_RETRIES} in ${waitMs} ms`)
    await (this.opts.sleep ?? delay)(waitMs)
  }

  private logLine(line: string): void {
    this.opts.log?.(line)
  }
}

function ms(started: number): string {
  return `${Math.round(performance.now() - started)} ms`
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
}

/** `{"error":{"code":string,"message":string}}` or undefined. */
export function parseEnvelope(text: string): {code: string; message: string} | undefined {
  try {
    const parsed = JSON.parse(text) as {error?: {code?: unknown; message?: unknown}}
    const error = parsed?.error
    if (error && typeof error.code === 'string' && typeof error.message === 'string') {
      return {code: error.code, message: error.message}
    }
  } catch {
    // not JSON
  }
  return undefined
}

async function readText(
  body: AsyncIterable<Buffer> & {destroy(err?: Error): unknown},
  status: number,
  contentLength: string | string[] | undefined,
): Promise<string> {
  const tooBig = () =>
    new BadResponseError(`the response body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB; refusing to read it`, {
      status: status >= 300 ? status : undefined,
    })
  if (typeof contentLength === 'string' && Number(contentLength) > MAX_BODY_BYTES) {
    body.destroy()
    throw tooBig()
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) {
      body.destroy()
      throw tooBig()
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks, size).toString('utf8')
}
