import {BadResponseError} from '../errors.js'

/**
 * What the two ways of sending one attempt share (./transport.ts picks the way): the attempt and
 * its answer, the timeout, the answer read up to a size limit, and the requests amctl refuses to
 * send whichever way it sends them.
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

/** How long a connection may take to open (TCP, and TLS for https), as undici's default: then UND_ERR_CONNECT_TIMEOUT. */
export const CONNECT_TIMEOUT_MS = 10_000

/**
 * Keep-alive, the same both ways (./node-http.ts, ./dispatcher.ts): an idle connection is used
 * again for at most KEEP_ALIVE_MS (undici's default), or for the `Keep-Alive: timeout=` the server
 * announced less KEEP_ALIVE_MARGIN_MS when that is shorter (node:http's margin). Many servers
 * close idle connections without announcing when (load balancers, Go, gunicorn, uvicorn: 2 to
 * 60 s); a request written just as the server closes the connection is reset, and a POST so lost
 * cannot be told from one the server took (exit 9). 4 s keeps the connection over the pages of
 * `--all` and drops it between the polls of a wait (5 s apart by default).
 */
export const KEEP_ALIVE_MS = 4_000
export const KEEP_ALIVE_MARGIN_MS = 1_000

/**
 * Two turns of the event loop, taken before a request is handed to a keep-alive pool, so that the
 * pool knows what this machine already knows of its idle connections: a close or a reset the
 * server sent while the event loop was busy (judging a large step takes seconds of CPU) is read
 * in a poll phase, and a connection past its keep-alive is dropped by its timer in a timers
 * phase. Without them the pool hands out the dead connection, the request written on it is
 * reset, and a POST the server never received is reported as "sent, no answer" (exit 9: issue 37
 * item 11). Two, because one is not enough from where requests are made: after an answer is read
 * (a poll phase), a setImmediate runs in the same turn's check phase, before the next poll.
 *
 * What is left is a server that closes the connection at the very moment the request is written
 * (within a round trip): nothing tells that request from one the server read before closing, so
 * amctl never sends a POST again once any byte of it was written (contract 1.6); KEEP_ALIVE_MS
 * keeps that moment rare. A GET so reset is retried by the client's loop as any connection error.
 */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)))
}

export interface Attempt {
  url: string
  method: string
  /** lower-case names */
  headers: Record<string, string>
  body: string | undefined
  timeoutMs: number
  /** CONNECT_TIMEOUT_MS unless a test says otherwise (node:http; undici's agents have their own) */
  connectTimeoutMs?: number
  /** the caller gave up (a wait's Ctrl-C): the request is destroyed at once and rejects with `signal.reason` */
  signal?: AbortSignal
}

/**
 * How attempts reach a server, as a command's world hands it down (src/base/world.ts): the
 * network (./transport.ts), or in a test the fake API (test/helpers/fake-api.ts), which answers
 * through the same refusals and size limit (`refusal`, `readText`).
 */
export interface Transport {
  /**
   * Sends one attempt; throws what ./failure.ts reads (a refusal, a network error with its
   * code), an AttemptTimeout, or a BadResponseError for an oversized body.
   */
  send(attempt: Attempt): Promise<RawResponse>
  /** Ends kept-alive connections, so that no idle socket keeps the process alive. */
  close(): Promise<void>
}

/** The abort reason of a per-attempt timeout. */
export class AttemptTimeout extends Error {
  override name = 'AttemptTimeout'
  /** false when the request never got a connection, so nothing was written */
  constructor(readonly sent = true) {
    super('timeout')
  }
}

/** An error with the code undici gives the same failure, so that ./failure.ts reads both ways alike. */
export function coded(name: string, code: string, message: string): Error {
  return Object.assign(new Error(message), {name, code})
}

// (undici checks the length only where it sends one)
const sendsLength = (method: string) => !['GET', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT'].includes(method)
// RFC 9110 token characters (a header name), and what a header value may not hold
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/

/**
 * The requests amctl does not send, whichever way it sends them: what undici, its HTTP client
 * until node:http took over the requests without a proxy, refuses (lib/core/request.js of the
 * pinned version), with undici's codes and messages. node:http would send most of them, and the
 * contract's rule built on undici's refusal would change with the way: a header amctl cannot
 * send fails the request before anything is written (exit 1, never 9, not retried). Written
 * here because neither client exports its checks.
 */
export function refusal({method, headers, body}: Pick<Attempt, 'method' | 'headers' | 'body'>): Error | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) return coded('InvalidArgumentError', 'UND_ERR_INVALID_ARG', 'invalid header key')
    if (BAD_VALUE.test(value)) return coded('InvalidArgumentError', 'UND_ERR_INVALID_ARG', `invalid ${name} header`)
    if (name === 'transfer-encoding' || name === 'keep-alive' || name === 'upgrade') {
      return coded('InvalidArgumentError', 'UND_ERR_INVALID_ARG', `invalid ${name} header`)
    }
    if (name === 'connection' && !value.split(',').every((token) => TOKEN.test(token.trim()))) {
      return coded('InvalidArgumentError', 'UND_ERR_INVALID_ARG', 'invalid connection header')
    }
    if (name === 'expect') return coded('NotSupportedError', 'UND_ERR_NOT_SUPPORTED', 'expect header not supported')
    if (name === 'content-length') {
      if (!/^\d+$/.test(value)) return coded('InvalidArgumentError', 'UND_ERR_INVALID_ARG', 'invalid content-length header')
      const length = body === undefined ? 0 : Buffer.byteLength(body)
      if (sendsLength(method) && length > 0 && Number(value) !== length) {
        return coded(
          'RequestContentLengthMismatchError',
          'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
          'Request body length does not match content-length header',
        )
      }
    }
  }
  return undefined
}

/** Response headers by lower-case name, repeated ones joined with ", " in the order they came. */
export function headerRecord(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i].toLowerCase()
    out[key] = key in out ? `${out[key]}, ${raw[i + 1]}` : raw[i + 1]
  }
  return out
}

/** The answer's body as text, refused (BadResponseError) beyond MAX_BODY_BYTES. */
export async function readText(
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
