// The bundle's undici is its Agent and EnvHttpProxyAgent alone, loaded by path (bin/startup.cjs)
import {Agent, type Dispatcher, EnvHttpProxyAgent} from 'undici'
import {isLoopbackHost} from '../../contract/vocabulary.js'

/**
 * The process's keep-alive dispatchers (contract 1.6): remote hosts through
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY (undici's EnvHttpProxyAgent); loopback hosts directly,
 * whatever those variables say, as Go's (and so gh's) proxy rules do: a token sent over http:
 * to this machine never leaves it. Tests swap both with `setDispatcher`.
 */
let override: Dispatcher | undefined
let proxied: EnvHttpProxyAgent | undefined
let direct: Agent | undefined

const OPTIONS = {keepAliveTimeout: 10_000, connect: {timeout: 10_000}}

export function dispatcherFor(origin: string): Dispatcher {
  if (override) return override
  if (isLoopbackHost(new URL(origin).hostname)) {
    direct ??= new Agent(OPTIONS)
    return direct
  }
  proxied ??= new EnvHttpProxyAgent(OPTIONS)
  return proxied
}

/** For tests: route every request through `dispatcher` (undefined restores the default). */
export function setDispatcher(dispatcher: Dispatcher | undefined): void {
  override = dispatcher
}

/** Closes the shared agents so no idle socket keeps the process alive. */
export async function closeDispatcher(): Promise<void> {
  const agents = [proxied, direct]
  proxied = undefined
  direct = undefined
  await Promise.all(agents.map((agent) => agent?.destroy().catch(() => {})))
}
