// Types for modules that ship none, or that amctl imports by path.
//
// The pieces of undici amctl uses, imported by path instead of through undici's index: the
// index also loads fetch, WebSocket, EventSource and cookies, and the cookies module touches
// globalThis.Headers, which makes Node load its own internal undici as well — tens of
// milliseconds of start-up for code amctl never calls. Pinned by undici ^7 (package.json).
declare module 'undici/lib/dispatcher/dispatcher.js' {
  import type {Dispatcher} from 'undici'
  const DispatcherClass: typeof Dispatcher
  export default DispatcherClass
}

declare module 'undici/lib/api/index.js' {
  const api: Record<'request' | 'stream' | 'pipeline' | 'connect' | 'upgrade', (...args: never[]) => unknown>
  export default api
}

declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import type {EnvHttpProxyAgent} from 'undici'
  const EnvHttpProxyAgentClass: typeof EnvHttpProxyAgent
  export default EnvHttpProxyAgentClass
}

declare module 'undici/lib/dispatcher/agent.js' {
  import type {Agent} from 'undici'
  const AgentClass: typeof Agent
  export default AgentClass
}

// marked-man ships no types: a marked extension (options, renderer and tokenizer overrides)
declare module 'marked-man' {
  import type {MarkedExtension} from 'marked'
  const markedMan: MarkedExtension & Record<string, unknown>
  export default markedMan
}
