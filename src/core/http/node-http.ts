import type {Agent as HttpAgent, IncomingMessage} from 'node:http'
import type {Socket} from 'node:net'
import {
  type Attempt,
  AttemptTimeout,
  CONNECT_TIMEOUT_MS,
  coded,
  headerRecord,
  KEEP_ALIVE_MS,
  type RawResponse,
  readText,
  settle,
} from './attempt.js'

/**
 * One attempt through node:http (node:https), the way amctl sends every request that needs no
 * proxy: Node's own HTTP parser is already there, where undici starts by compiling its
 * WebAssembly one (23–34 ms of one request's command, bench/). One keep-alive agent per
 * protocol and process (contract 1.6); node:http and node:https are loaded on the first request.
 */

/**
 * `timeout` is the longest an idle connection is kept (KEEP_ALIVE_MS): node:http takes a server's
 * shorter `Keep-Alive: timeout=` (less a second) only below it, and without it keeps an idle
 * connection until the server closes it. The timeout also applies to a connection in use, where
 * it only emits an event nobody listens to: the attempt's own timer ends a slow answer.
 * `scheduling: 'fifo'`: the agent skips the connections already destroyed at the head of its
 * free list, and in this order a destroyed one is never behind the one handed out (with 'lifo'
 * it takes the last without looking). `keepAliveMsecs` is TCP's keep-alive probe, not the idle time.
 */
const KEEP_ALIVE = {keepAlive: true, keepAliveMsecs: 10_000, timeout: KEEP_ALIVE_MS, scheduling: 'fifo'} as const

interface Way {
  agent: HttpAgent
  lib: Pick<typeof import('node:http'), 'request'>
}
// per protocol: the module's request() and the process's agent, made on the first request
let ways: {'http:'?: Way; 'https:'?: Way} = {}

async function wayFor(protocol: 'http:' | 'https:'): Promise<Way> {
  const known = ways[protocol]
  if (known) return known
  const lib = protocol === 'https:' ? (await import('node:https')).default : (await import('node:http')).default
  const way = {agent: new lib.Agent(KEEP_ALIVE), lib}
  ways[protocol] = way
  return way
}

/** Ends the agents' kept-alive connections (they keep no process alive: Node unrefs idle sockets). */
export function closeAgents(): void {
  for (const way of Object.values(ways)) way.agent.destroy()
  ways = {}
}

/**
 * Sends one attempt; throws what node:http throws (codes as undici's for the same failure:
 * ECONNREFUSED, ENOTFOUND, ECONNRESET, the TLS ones), an AttemptTimeout (sent once the
 * connection was made: the request is written as soon as it is), or a BadResponseError for an
 * oversized body.
 */
export async function sendWithNodeHttp(url: URL, attempt: Attempt): Promise<RawResponse> {
  const protocol = url.protocol === 'https:' ? 'https:' : 'http:'
  const {agent, lib} = await wayFor(protocol)
  // (see settle: the agent must not hand out a connection the server closed while we were busy)
  await settle()
  return new Promise<RawResponse>((resolve, reject) => {
    let connected = false
    let done = false
    const finish = (error: unknown, response?: RawResponse) => {
      if (done) return
      done = true
      clearTimeout(timer)
      if (error === undefined) resolve(response as RawResponse)
      else {
        req.destroy()
        reject(error)
      }
    }
    const timer = setTimeout(() => finish(new AttemptTimeout(connected)), attempt.timeoutMs)
    const req = lib.request(url, {method: attempt.method, headers: attempt.headers, agent})
    const {signal} = attempt
    if (signal) {
      const onAbort = (): void => finish(signal.reason)
      if (signal.aborted) onAbort()
      else {
        signal.addEventListener('abort', onAbort, {once: true})
        req.once('close', () => signal.removeEventListener('abort', onAbort))
      }
    }
    req.on('socket', (socket: Socket) => {
      // a kept-alive connection is ready at once; a new one once connected (and, for https,
      // secured), within the connect timeout, as undici's
      if (!socket.connecting) {
        connected = true
        return
      }
      const ms = attempt.connectTimeoutMs ?? CONNECT_TIMEOUT_MS
      const slow = setTimeout(() => {
        const where = `${url.hostname}:${url.port || (protocol === 'https:' ? 443 : 80)}`
        finish(
          coded('ConnectTimeoutError', 'UND_ERR_CONNECT_TIMEOUT', `Connect Timeout Error (attempted address: ${where}, timeout: ${ms}ms)`),
        )
      }, ms)
      socket.once(protocol === 'https:' ? 'secureConnect' : 'connect', () => {
        connected = true
        clearTimeout(slow)
      })
      socket.once('close', () => clearTimeout(slow))
    })
    req.on('error', (error) => finish(error))
    req.on('response', (res: IncomingMessage) => {
      readText(res, res.statusCode ?? 0, res.headers['content-length']).then(
        (text) =>
          finish(undefined, {
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: headerRecord(res.rawHeaders),
            text,
          }),
        (error: unknown) => {
          res.destroy()
          finish(error)
        },
      )
    })
    req.end(attempt.body)
  })
}
