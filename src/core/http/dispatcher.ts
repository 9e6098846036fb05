import type {Dispatcher, EnvHttpProxyAgent} from 'undici'
import api from 'undici/lib/api/index.js'
import DispatcherClass from 'undici/lib/dispatcher/dispatcher.js'
import EnvHttpProxyAgentClass from 'undici/lib/dispatcher/env-http-proxy-agent.js'

// What undici's index does: every dispatcher gets request(), connect() (proxies tunnel with it) …
Object.assign(DispatcherClass.prototype, api)

/**
 * One keep-alive dispatcher per process, honouring HTTPS_PROXY / HTTP_PROXY / NO_PROXY.
 * Tests swap it (undici's MockAgent, or nock's global dispatcher) with `setDispatcher`.
 */
let override: Dispatcher | undefined
let shared: EnvHttpProxyAgent | undefined

export function getDispatcher(): Dispatcher {
  if (override) return override
  shared ??= new EnvHttpProxyAgentClass({keepAliveTimeout: 10_000, connect: {timeout: 10_000}})
  return shared
}

/** For tests: route every request through `dispatcher` (undefined restores the default). */
export function setDispatcher(dispatcher: Dispatcher | undefined): void {
  override = dispatcher
}

/** Closes the shared agent so no idle socket keeps the process alive. */
export async function closeDispatcher(): Promise<void> {
  const agent = shared
  shared = undefined
  if (agent) await agent.destroy().catch(() => {})
}
