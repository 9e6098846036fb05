import type {Agent, Dispatcher, EnvHttpProxyAgent} from 'undici'
import {isLoopbackHost} from '../../contract/vocabulary.js'
import {CONNECT_TIMEOUT_MS, KEEP_ALIVE_MARGIN_MS, KEEP_ALIVE_MS} from './attempt.js'

/**
 * undici's keep-alive dispatchers (contract 1.6), for the requests ./transport.ts sends through
 * undici: remote hosts through HTTPS_PROXY / HTTP_PROXY / NO_PROXY (undici's EnvHttpProxyAgent);
 * loopback hosts directly, whatever those variables say, as Go's (and so gh's) proxy rules do: a
 * token sent over http: to this machine never leaves it. undici itself is loaded on the first
 * use (dist/undici.cjs, apart from the bundle).
 */
let undici: typeof import('undici') | undefined
let proxied: EnvHttpProxyAgent | undefined
let direct: Agent | undefined

/**
 * Keep-alive as node:http's way has it (./attempt.ts KEEP_ALIVE_MS): at most KEEP_ALIVE_MS idle,
 * or the server's `Keep-Alive: timeout=` less KEEP_ALIVE_MARGIN_MS when shorter (undici would take
 * a longer announced one up to 10 minutes, and subtract 2 s).
 */
const OPTIONS = {
  keepAliveTimeout: KEEP_ALIVE_MS,
  keepAliveMaxTimeout: KEEP_ALIVE_MS,
  keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
  connect: {timeout: CONNECT_TIMEOUT_MS},
}

/**
 * The dispatcher of a request to `origin`; `env` is the run's environment, whose proxy variables
 * the proxying agent takes (made once per process, with the first remote request's).
 */
export async function dispatcherFor(origin: string, env: NodeJS.ProcessEnv): Promise<Dispatcher> {
  undici ??= await import('undici')
  if (isLoopbackHost(new URL(origin).hostname)) {
    direct ??= new undici.Agent(OPTIONS)
    return direct
  }
  proxied ??= new undici.EnvHttpProxyAgent({...OPTIONS, ...proxyOptions(env)})
  return proxied
}

/**
 * The proxy variables of `env`, read as EnvHttpProxyAgent reads them from process.env when not
 * given them (the lower-case name first; an empty value is no proxy), so that it never looks there.
 */
export function proxyOptions(env: NodeJS.ProcessEnv): {httpProxy: string; httpsProxy: string; noProxy: string} {
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  }
}

/**
 * How long closing the agents waits for undici to say they are destroyed. destroy() ends their
 * sockets at once and settles when every one has closed; should it never settle, neither the
 * attempt that timed out (./transport.ts) nor the end of the command waits for it longer.
 */
const CLOSE_WAIT_MS = 100

/** Closes the shared agents so no idle socket keeps the process alive (waiting at most CLOSE_WAIT_MS). */
export async function closeDispatcher(): Promise<void> {
  const agents = [proxied, direct]
  proxied = undefined
  direct = undefined
  const destroyed = Promise.all(agents.map((agent) => agent?.destroy().catch(() => {})))
  let timer: NodeJS.Timeout | undefined
  // (not unref'd: it ends when destroy settles, and a process whose every handle is gone must
  // still finish the command, not exit in the middle of it)
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_WAIT_MS)
  })
  await Promise.race([destroyed, waited])
  clearTimeout(timer)
}
