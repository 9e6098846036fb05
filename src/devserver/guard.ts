import type {IncomingHttpHeaders} from 'node:http'
import {isIP} from 'node:net'
import {isLoopbackHost} from '../contract/vocabulary.js'
import {ApiError, forbidden} from './errors.js'

/**
 * What keeps web pages away from the dev server (contract section 4). A page the browser shows
 * can send requests to 127.0.0.1, and through DNS rebinding can even read the answers, with its
 * own host name in `Host`. So the server answers only requests whose `Host` names the address
 * it listens on; and the token-less `/_dev/` hooks also refuse a foreign `Origin` and any body
 * that is not `application/json` (which a page cannot send cross-site without a preflight).
 */

const WILDCARDS = new Set(['0.0.0.0', '::', ''])

/** A check of the `Host` header for a server listening on `host`:`port`. */
export function hostCheck(host: string, port: number): (header: string | undefined) => boolean {
  const listening = host.replace(/^\[|\]$/g, '').toLowerCase()
  const wildcard = WILDCARDS.has(listening)
  const loopback = wildcard || isLoopbackHost(listening)
  return (header) => {
    if (header === undefined) return false
    let url: URL
    try {
      url = new URL(`http://${header}`)
    } catch {
      return false
    }
    if (url.host !== header.toLowerCase() || Number(url.port || '80') !== port) return false
    const name = url.hostname.replace(/^\[|\]$/g, '')
    if (name === listening) return true
    if (loopback && name === 'localhost') return true
    // on every address: any IP literal of this machine (a rebound name is never an IP literal)
    return wildcard && isIP(name) !== 0
  }
}

export function hostRefused(header: string | undefined, url: string): ApiError {
  return forbidden(`the Host header ${JSON.stringify(header ?? '')} does not name this server; use ${url}`)
}

/** A `/_dev/` request from a web page, or with a body that is not JSON: the error to answer, if any. */
export function hookRefusal(headers: IncomingHttpHeaders, rawBody: string): ApiError | undefined {
  const origin = headers.origin
  if (origin !== undefined && origin.toLowerCase() !== `http://${headers.host ?? ''}`.toLowerCase()) {
    return forbidden(`/_dev/ hooks refuse requests from other origins (Origin ${JSON.stringify(origin)})`)
  }
  const type = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  if (rawBody !== '' && type !== 'application/json') {
    const message = `/_dev/ hooks take JSON bodies: send Content-Type: application/json (got ${JSON.stringify(type || 'none')})`
    return new ApiError('invalid_request', message, {}, 415)
  }
  return undefined
}
