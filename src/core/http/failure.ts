import {oneLine} from '../errors.js'
import {AttemptTimeout} from './attempt.js'
import type {Failure} from './retry.js'

/**
 * What a failed attempt means for the request (contract 1.6): was it sent (a POST that was sent
 * and got no answer has an unknown outcome, exit 9), can retrying help, and how to say it.
 */
export interface AttemptFailure {
  failure: Failure
  /** false when the request provably never reached the server (connect-phase failure) */
  sent: boolean
  /** true for failures retrying cannot fix (DNS name unknown, TLS certificate, a refused proxy) */
  permanent: boolean
  message: string
  cause: unknown
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
  // undici refused the request itself before writing it: a header it cannot send, `Expect:
  // 100-continue` (not supported), a Content-Length that is not the body's; a refused proxy TLS
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_PRX_TLS',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])
const PERMANENT = new Set([
  'ENOTFOUND',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

/** A proxy that answered CONNECT with anything but 200: the request never reached the server. */
const PROXY_REFUSED = /Proxy response \((\d{3})\) !== 200/

export function errorCode(error: unknown): string | undefined {
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

export function classifyFailure(error: unknown, timeoutMs: number): AttemptFailure {
  if (error instanceof AttemptTimeout) {
    // before a connection: like a connect timeout, nothing was written (a GET is retried, a POST exits 1)
    return error.sent
      ? {failure: {kind: 'timeout'}, sent: true, permanent: false, message: `no answer within ${timeoutMs / 1000} s`, cause: error}
      : {
          failure: {kind: 'network', refused: false},
          sent: false,
          permanent: false,
          message: `no connection within ${timeoutMs / 1000} s`,
          cause: error,
        }
  }
  const base = error instanceof Error ? error.message : String(error)
  const proxy = PROXY_REFUSED.exec(base)
  if (proxy) {
    return {
      failure: {kind: 'network', refused: false},
      sent: false,
      permanent: proxy[1] === '407',
      message: `the proxy refused the connection (HTTP ${proxy[1]}${proxy[1] === '407' ? ': it needs credentials' : ''})`,
      cause: error,
    }
  }
  const code = errorCode(error)
  const message = code && !base.includes(code) ? `${base} (${code})` : base
  return {
    failure: {kind: 'network', refused: code === 'ECONNREFUSED'},
    sent: code === undefined || !NOT_SENT.has(code),
    permanent: code !== undefined && PERMANENT.has(code),
    message: oneLine(message || 'connection failed'),
    cause: error,
  }
}
