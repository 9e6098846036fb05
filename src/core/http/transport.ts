import type {Dispatcher} from 'undici'
import {isLoopbackHost} from '../../contract/vocabulary.js'
import {type Attempt, AttemptTimeout, headerRecord, type RawResponse, readText, refusal, settle, type Transport} from './attempt.js'
import {closeDispatcher, dispatcherFor} from './dispatcher.js'
import {closeAgents, sendWithNodeHttp} from './node-http.js'

export {type Attempt, AttemptTimeout, MAX_BODY_BYTES, type RawResponse, type Transport} from './attempt.js'

/**
 * The network: one attempt of one request sent, given up at the timeout, the body read up to a
 * size limit. No retries, no interpretation of the status: that is the client's loop.
 *
 * Two ways, one behaviour (the same refusals, timeouts, size limit and error codes):
 *   - node:http (./node-http.ts) for every request that needs no proxy: a loopback host, or no
 *     HTTPS_PROXY / HTTP_PROXY set;
 *   - undici (./dispatcher.ts, loaded only then) when a proxy variable is set and the host is not
 *     loopback: its EnvHttpProxyAgent honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY on every Node
 *     version amctl runs on (node:http's own proxy support starts at Node 22).
 */

const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY']

/** Whether a request to `url` goes through undici: a proxy may apply (loopback hosts never take one). */
export function throughUndici(url: URL, env: NodeJS.ProcessEnv): boolean {
  return !isLoopbackHost(url.hostname) && PROXY_VARIABLES.some((name) => env[name])
}

/**
 * The network as a run's environment (`env`: its proxy variables) reaches it; the keep-alive
 * agents behind it are the process's (contract 1.6), and `close` ends their connections.
 */
export function networkTransport(env: NodeJS.ProcessEnv): Transport {
  return {
    send: (attempt) => sendAttempt(attempt, env),
    close: closeConnections,
  }
}

/** Sends one attempt the way `env` says (see networkTransport). */
async function sendAttempt(attempt: Attempt, env: NodeJS.ProcessEnv): Promise<RawResponse> {
  const refused = refusal(attempt)
  if (refused) throw refused
  const url = new URL(attempt.url)
  if (throughUndici(url, env)) return sendWithUndici(url, attempt, env)
  return sendWithNodeHttp(url, attempt)
}

/** Ends every kept-alive connection, so that no idle socket keeps the process alive. */
async function closeConnections(): Promise<void> {
  closeAgents()
  await closeDispatcher()
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
function endOnTimeout<T>(pending: Promise<T>, signal: AbortSignal, caller: AbortSignal | undefined): Promise<T> {
  pending.catch(() => {}) // it may still fail after the attempt was given up
  return new Promise<T>((resolve, reject) => {
    let grace: NodeJS.Timeout | undefined
    const onAbort = (): void => {
      grace = setTimeout(() => reject(new AttemptTimeout(false)), ABORT_GRACE_MS)
    }
    // the caller giving up ends the attempt at once, whether or not undici acts on it
    const onGiveUp = (): void => reject(caller?.reason)
    signal.addEventListener('abort', onAbort, {once: true})
    if (caller?.aborted) onGiveUp()
    caller?.addEventListener('abort', onGiveUp, {once: true})
    pending.then(resolve, reject).finally(() => {
      clearTimeout(grace)
      signal.removeEventListener('abort', onAbort)
      caller?.removeEventListener('abort', onGiveUp)
    })
  })
}

/**
 * One attempt through undici: through `given` when a test hands one in (the undici way against a
 * loopback server of the test's), else through the process's dispatcher for the URL and `env`.
 */
export async function sendWithUndici(url: URL, attempt: Attempt, env: NodeJS.ProcessEnv, given?: Dispatcher): Promise<RawResponse> {
  const refused = refusal(attempt)
  if (refused) throw refused
  const dispatcher = given ?? (await dispatcherFor(url.origin, env))
  // undici looks at an idle connection for one check phase before writing on it, which comes
  // before the next poll and timers phases when the request is made right after an answer was
  // read: settle lets both run first (a close or reset read, an expired keep-alive timer fired)
  await settle()
  // the timeout starts here, as node:http's does (./node-http.ts): nothing is awaited between
  // the timer and the request handed to undici with endOnTimeout listening. An abort that came
  // earlier (the timer firing while undici was loaded, or between settle's turns, on a busy
  // machine) went unseen, and undici, given an aborted signal, merely records it until the
  // request has a connection: through a proxy that drops every CONNECT, never.
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), attempt.timeoutMs)
  try {
    const pending = dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: attempt.method as Dispatcher.HttpMethod,
      headers: attempt.headers,
      body: attempt.body,
      signal: attempt.signal ? AbortSignal.any([controller.signal, attempt.signal]) : controller.signal,
    })
    const res = await endOnTimeout(pending, controller.signal, attempt.signal)
    const text = await readText(res.body, res.statusCode, res.headers['content-length'])
    // undici starts an idle connection's keep-alive timer a few turns after the answer was read:
    // before the answer is handed on, so that a busy stretch of the caller's counts as idle time
    await settle()
    const raw = Object.entries(res.headers).flatMap(([key, value]) =>
      Array.isArray(value) ? value.flatMap((v) => [key, v]) : value === undefined ? [] : [key, value],
    )
    return {status: res.statusCode, statusText: res.statusText ?? '', headers: headerRecord(raw), text}
  } catch (error) {
    // the request given up is still queued in the shared agent, which would go on trying to
    // connect: a fresh agent serves the next attempt (closeDispatcher waits a bounded time for
    // the old one to be destroyed)
    if (error instanceof AttemptTimeout && !error.sent && !given) await closeDispatcher()
    throw error
  } finally {
    clearTimeout(timer)
  }
}
