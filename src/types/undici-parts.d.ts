// The two pieces of undici amctl uses, imported by path instead of through undici's index:
// the index also loads fetch, WebSocket, EventSource and cookies, and the cookies module
// touches globalThis.Headers, which makes Node load its own internal undici as well — about
// 60 ms of start-up for code amctl never calls. Pinned by undici ^7 (package.json).
declare module 'undici/lib/api/api-request.js' {
  import type {Dispatcher} from 'undici'
  function request(this: Dispatcher, opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>
  export default request
}

declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  import type {EnvHttpProxyAgent} from 'undici'
  const EnvHttpProxyAgentClass: typeof EnvHttpProxyAgent
  export default EnvHttpProxyAgentClass
}
