'use strict'
// Build time: undici by its parts, --liftoff-only when it loads, and undici apart from the bundle
// (dist/undici.cjs). Pieces: slim-undici, liftoff, undici-apart.

const {join} = require('node:path')
const {BEFORE_V8_FLAGS, setLiftoffOnly} = require('../launcher.cjs')

const ROOT = join(__dirname, '..', '..')

/**
 * undici by its parts. Its index also loads fetch, WebSocket, EventSource, cookies, the mock
 * agents and every request API, and through globalThis.Headers Node's own copy of undici; amctl
 * uses Agent (and, for remote hosts, EnvHttpProxyAgent) with request() (proxies tunnel with
 * connect()). The bundle's `undici` is those parts (lib/dispatcher/*, lib/api/*: undici's
 * internals, hence the exact version pin), put together the way undici's index does, with
 * EnvHttpProxyAgent (and with it the proxy and SOCKS agents) loaded on first use.
 * Bench rows: a request through a proxy (42 / 45 ms of CPU on Node 20 / 24).
 *
 * And V8's baseline WebAssembly compiler only (--liftoff-only), set when undici loads, on Node 20
 * (setLiftoffOnly in bin/launcher.cjs): undici parses HTTP with WebAssembly; V8 would optimize it
 * again in the background, and Node 20 waits for that before exiting. Baseline code is plenty.
 */
const UNDICI_PARTS = {
  Agent: 'undici/lib/dispatcher/agent.js',
  EnvHttpProxyAgent: 'undici/lib/dispatcher/env-http-proxy-agent.js',
}
const UNDICI_API = {request: 'undici/lib/api/api-request.js', connect: 'undici/lib/api/api-connect.js'}

function slimUndici(without) {
  const slim = !without.has('slim-undici')
  const liftoff = !without.has('liftoff')
  return {
    name: 'slim-undici',
    setup(b) {
      b.onResolve({filter: /^undici$/}, (args) =>
        args.namespace === 'slim-undici' ? undefined : {path: 'undici', namespace: 'slim-undici'},
      )
      b.onLoad({filter: /.*/, namespace: 'slim-undici'}, () => ({
        contents: `${liftoff ? `${setLiftoffOnly.toString()}\nsetLiftoffOnly(${JSON.stringify(BEFORE_V8_FLAGS.description)})\n` : ''}${slim ? slimUndiciSource() : "module.exports = require('undici')"}`,
        loader: 'js',
        resolveDir: ROOT,
      }))
    },
  }
}

function slimUndiciSource() {
  const text = JSON.stringify
  return `const Dispatcher = require('undici/lib/dispatcher/dispatcher.js')
// what undici's index does: every dispatcher gets the request APIs
${Object.entries(UNDICI_API)
  .map(([name, path]) => `Dispatcher.prototype.${name} = require(${text(path)})`)
  .join('\n')}
${Object.entries(UNDICI_PARTS)
  .map(([name, path]) => `Object.defineProperty(exports, ${text(name)}, {enumerable: true, get: () => require(${text(path)})})`)
  .join('\n')}`
}

/**
 * undici apart from the bundle: dist/undici.cjs, built on its own (bin/build.js, with the undici
 * pieces above), which the bundle requires when a request needs undici (a proxy: src/core/http/
 * dispatcher.ts) and no other run reads. In the bundle, undici made every request without a proxy
 * 1.0–2.6 ms of CPU slower (its functions in every command's code cache); apart, a request through
 * a proxy pays 7.5–8.5 ms for reading it without a code cache (docs/performance.md, "The price list").
 */
const undiciApart = {
  name: 'undici-apart',
  setup(b) {
    b.onResolve({filter: /^undici$/}, () => ({path: './undici.cjs', external: true}))
  },
}

module.exports = {UNDICI_PARTS, UNDICI_API, slimUndici, slimUndiciSource, undiciApart}
