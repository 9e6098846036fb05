import {randomBytes} from 'node:crypto'
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import {authenticate} from './auth.js'
import type {ApiRouter, RequestContext, Services} from './context.js'
import {ApiError, codeForStatus, envelope, notFound} from './errors.js'
import type {FaultAction} from './faults.js'
import {hookRefusal, hostRefused} from './guard.js'
import type {Persistence} from './persistence.js'
import {HTML_TYPE, errorReply, json, type Reply} from './reply.js'
import {redactTarget} from './request-log.js'
import {HOOKS_PREFIX} from './options.js'
import type {RequestBodies} from './schema.js'

/**
 * The request pipeline: read the body, refuse a foreign Host (and, for /_dev/, a foreign Origin
 * or a body that is not JSON), apply an injected fault, route, authenticate, rate-limit, check
 * an operation's body against the OpenAPI document, run the handler, write the change to `--data`
 * (507 and undone when it cannot be written), answer. Handlers
 * never touch the socket.
 */

export const MAX_BODY_BYTES = 5 * 1024 * 1024

export interface HttpServerDeps {
  router: ApiRouter
  services: Services
  bodies: RequestBodies
  /** whether a request's Host header names this server */
  hostAllowed: (host: string | undefined) => boolean
  persistence: Persistence | undefined
  log: ((line: string) => void) | undefined
  /** each API answer the server made itself (no fault injected), as sent */
  onAnswer: ((answer: Answered) => void) | undefined
}

/** An API answer as the dev server sent it (DevServerOptions.onAnswer). */
export interface Answered {
  method: string
  /** the path, without the query */
  path: string
  status: number
  contentType: string
  body: string
}

export interface HttpServer {
  server: Server
  close(): Promise<void>
}

interface Outcome {
  reply: Reply
  persist: boolean
}

export function createHttpServer(deps: HttpServerDeps): HttpServer {
  const {router, services, bodies, hostAllowed, persistence, log, onAnswer} = deps
  const sleepers = new Set<() => void>()
  let closing: Promise<void> | undefined

  /** Resolves true after `ms`, or false at once when the server closes first. */
  const sleep = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      const cancel = (): void => {
        clearTimeout(timer)
        sleepers.delete(cancel)
        resolve(false)
      }
      const timer = setTimeout(() => {
        sleepers.delete(cancel)
        resolve(true)
      }, ms)
      sleepers.add(cancel)
    })

  async function dispatch(
    req: IncomingMessage,
    method: string,
    path: string,
    query: URLSearchParams,
    rawBody: string | undefined,
  ): Promise<Outcome> {
    try {
      if (rawBody === undefined) throw new ApiError('invalid_request', `request body too large (limit ${MAX_BODY_BYTES} bytes)`, {}, 413)
      const match = router.match(method, path)
      if (match === undefined) throw notFound(`no route for ${method} ${path}`)
      const {handler, params} = match
      const read = (): RequestContext => {
        const body = handler.operationId === undefined ? {} : bodies.read(handler.operationId, rawBody)
        return {method, path, query, params, headers: req.headers, rawBody, body, services}
      }
      if (!handler.auth) return {reply: await handler.run(read()), persist: handler.persist}
      const principal = authenticate(services.store, req.headers.authorization, services.now())
      services.limiter.check(principal.token.hash)
      return {reply: await handler.run({...read(), principal}), persist: handler.persist}
    } catch (error) {
      if (error instanceof ApiError) return {reply: errorReply(error), persist: false}
      log?.(`internal error on ${method} ${path}: ${(error as Error).stack ?? String(error)}`)
      return {reply: json(envelope(codeForStatus(500), `internal error: ${(error as Error).message}`), 500), persist: false}
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = services.now()
    const method = req.method ?? 'GET'
    const target = req.url ?? '/'
    const shown = redactTarget(target)
    const q = target.indexOf('?')
    const path = q === -1 ? target : target.slice(0, q)
    const query = new URLSearchParams(q === -1 ? '' : target.slice(q + 1))
    const isHook = path === HOOKS_PREFIX || path.startsWith(`${HOOKS_PREFIX}/`)
    const requestId = `req_${randomBytes(8).toString('hex')}`
    const rawBody = await readBody(req)
    const logLine = (status: number | null, note = ''): void => {
      log?.(`${method} ${shown} ${status ?? 'dropped'} ${Math.round(services.now() - started)}ms${note}`)
    }

    // before anything is logged or done: not this server's name, or a web page at the hooks
    const refusal = !hostAllowed(req.headers.host)
      ? hostRefused(req.headers.host, services.baseUrl())
      : isHook
        ? hookRefusal(req.headers, rawBody ?? '')
        : undefined
    if (refusal !== undefined) {
      send(res, errorReply(refusal), requestId)
      return logLine(refusal.status, ' [refused]')
    }

    const entry = isHook ? undefined : services.requests.start(method, shown, req.headers.authorization !== undefined, started)
    const finish = (status: number | null, fault: FaultAction | undefined): void => {
      if (entry !== undefined) entry.status = status
      logLine(status, fault === undefined ? '' : ` [fault: ${fault.type}]`)
    }
    const fault = isHook ? undefined : services.faults.pick(method, path)
    if (entry !== undefined && fault !== undefined) entry.fault = fault.type
    if (fault?.type === 'status') {
      const reply = faultReply(fault)
      send(res, reply, requestId)
      return finish(reply.status, fault)
    }
    if (fault?.type === 'drop-before') {
      req.socket.destroy()
      return finish(null, fault)
    }
    if (fault?.type === 'latency' && !(await sleep(fault.ms))) {
      req.socket.destroy()
      return finish(null, fault)
    }

    const dispatched = await dispatch(req, method, path, query, rawBody)
    // a change is written before it is answered; one that cannot be is undone and refused
    const failedWrite = dispatched.persist && dispatched.reply.status < 400 ? persistence?.commit() : undefined
    const reply = failedWrite === undefined ? dispatched.reply : storageFailure(failedWrite)
    if (fault?.type === 'drop-after') {
      req.socket.destroy()
      return finish(null, fault)
    }
    if (fault?.type === 'truncate') sendHalf(res, reply, requestId)
    else send(res, reply, requestId)
    if (fault === undefined && !isHook) onAnswer?.({method, path, status: reply.status, contentType: reply.contentType, body: reply.body})
    finish(reply.status, fault)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log?.(`request failed: ${(error as Error).message}`)
      req.socket.destroy()
    })
  })

  return {
    server,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        for (const cancel of sleepers) cancel()
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
}

/** The body as text, or undefined when it is larger than MAX_BODY_BYTES (read and discarded). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** The answer to a change the `--data` file could not take (./persistence.ts undid it in memory). */
function storageFailure(error: Error): Reply {
  const why = (error as NodeJS.ErrnoException).code ?? error.message
  return json(envelope(codeForStatus(507), `the change could not be written to the --data file (${why}), so it was not made`), 507)
}

/** The answer an injected `status` fault gives instead of doing the work. */
function faultReply(fault: Extract<FaultAction, {type: 'status'}>): Reply {
  if (fault.body !== undefined) {
    return {status: fault.status, contentType: fault.contentType ?? HTML_TYPE, headers: fault.headers ?? {}, body: fault.body}
  }
  const code = fault.code ?? codeForStatus(fault.status)
  const reply = json(envelope(code, fault.message ?? `injected fault: HTTP ${fault.status}`), fault.status, fault.headers ?? {})
  return fault.contentType === undefined ? reply : {...reply, contentType: fault.contentType}
}

function headersFor(reply: Reply, requestId: string): Record<string, string | number> {
  const headers: Record<string, string | number> = {'content-type': reply.contentType, 'x-request-id': requestId}
  for (const [name, value] of Object.entries(reply.headers)) headers[name.toLowerCase()] = value
  headers['content-length'] = Buffer.byteLength(reply.body)
  return headers
}

function send(res: ServerResponse, reply: Reply, requestId: string): void {
  res.writeHead(reply.status, headersFor(reply, requestId))
  res.end(reply.body)
}

/** Headers announcing the whole body, half of it, then the connection is cut. */
function sendHalf(res: ServerResponse, reply: Reply, requestId: string): void {
  const body = Buffer.from(reply.body)
  res.writeHead(reply.status, headersFor(reply, requestId))
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy())
}
