import type {Dispatcher} from 'undici'
import {BadResponseError} from '../errors.js'
import {closeDispatcher, dispatcherFor} from './dispatcher.js'

/**
 * One attempt of one request: send it through undici, give up at the timeout, read the body up
 * to a size limit. No retries, no interpretation of the status: that is the client's loop.
 */

/**
 * The largest answer amctl reads (a hostile server cannot fill its memory): room for a page of
 * 80,000 runs with every member (~17 MB), which a TTY table draws in about a second.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024

export interface RawResponse {
  status: number
  statusText: string
  headers: Record<string, string>
  text: string
}

export interface Attempt {
  url: string
  method: string
  headers: Record<string, string>
  body: string | undefined
  timeoutMs: number
  /** tests inject one; otherwise the process's shared dispatcher for the URL */
  dispatcher?: Dispatcher
}

/** The abort reason of a per-attempt timeout. */
export class AttemptTimeout extends Error {
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
 * written (undici#3897).
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

/** Sends one attempt; throws what undici throws, an AttemptTimeout, or a BadResponseError for an oversized body. */
export async function sendAttempt(attempt: Attempt): Promise<RawResponse> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), attempt.timeoutMs)
  const {origin, pathname, search} = new URL(attempt.url)
  try {
    const pending = (attempt.dispatcher ?? dispatcherFor(origin)).request({
      origin,
      path: pathname + search,
      method: attempt.method as Dispatcher.HttpMethod,
      headers: attempt.headers,
      body: attempt.body,
      signal: controller.signal,
    })
    const res = await endOnTimeout(pending, controller.signal)
    const text = await readText(res.body, res.statusCode, res.headers['content-length'])
    return {status: res.statusCode, statusText: res.statusText ?? '', headers: headerMap(res.headers), text}
  } catch (error) {
    // the request given up is still queued in the shared agent, which would go on trying to
    // connect: a fresh agent serves the next attempt
    if (error instanceof AttemptTimeout && !error.sent && !attempt.dispatcher) await closeDispatcher()
    throw error
  } finally {
    clearTimeout(timer)
  }
}

function headerMap(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
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
