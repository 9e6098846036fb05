'use strict'
// Build time: lazy stand-ins. Built-ins and packages whose load-time work most commands never use
// get a stand-in in the bundle that loads the real module on first use. `without` (a set of piece
// names, bench/ablate.mjs) leaves one out: lazy:<built-in or package>. What they buy, together and
// each (docs/performance.md, "The price list"), is measured by `node bench/ablate.mjs --only
// lazy-stand-ins` (all of them) and `--only lazy:<name>`; the "Bench rows" below say where.

const {existsSync, readFileSync} = require('node:fs')
const {dirname, join} = require('node:path')

const ROOT = join(__dirname, '..', '..')

/**
 * Built-ins that the bundle requires at load time but uses only on some paths; the bundle gets a
 * stand-in that loads the real module on first use. Its keys and its __esModule are the real
 * module's (read here, at build time), so copying them or asking for a default export (esbuild's
 * and tsc's interop) does not load it.
 *   child_process  @oclif/core runs a shell only to ask Windows which one (it loads net and its
 *                  streams). Bench rows: every row but --version (~1 ms).
 *   perf_hooks     @oclif/core's Performance marks only with DEBUG=oclif:perf (ten internal
 *                  modules, ~1.5 ms of CPU). Bench rows: every row but --version.
 *   readline       @oclif/core's parser reads stdin with it only for a flag read from stdin.
 *                  Bench rows: `config list`, `auth token`, `runs list`, `orgs summary`.
 *   assert         undici asserts its invariants on every request; the real module (~2.5 ms of
 *                  CPU: its AssertionError pulls in the inspector of values) is loaded only when
 *                  an assertion fails or another of its functions is called, so a passing
 *                  `assert(value)` stays a test of `value`. Bench rows: `runs list --json`,
 *                  `orgs summary --json`.
 *   fs/promises    @oclif/core's TypeScript path lookup and file checks of flags, amctl's --input
 *                  files: all on some paths only (oclif's JSON reads are synchronous: EDITS).
 *                  Bench rows: every row but --version and help (~1 ms).
 *   timers/promises  amctl's clock sleeps only to retry or poll. Bench rows: the same.
 * (tty had a stand-in too, measured to buy nothing: bench/ablate.mjs.)
 */
const LAZY_BUILTINS = ['child_process', 'perf_hooks', 'readline', 'assert', 'fs/promises', 'timers/promises']

function lazyBuiltins(without) {
  const names = LAZY_BUILTINS.filter((n) => !without.has(`lazy:${n}`))
  const filter = new RegExp(`^(node:)?(${names.join('|')})$`)
  return {
    name: 'lazy-builtins',
    setup(b) {
      b.onResolve({filter}, (args) => ({path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin'}))
      b.onLoad({filter: /.*/, namespace: 'lazy-builtin'}, (args) => ({contents: lazyBuiltinSource(args.path), loader: 'js'}))
    },
  }
}

function lazyBuiltinSource(name) {
  const real = require(`node:${name}`)
  const keys = Reflect.ownKeys(real).filter((k) => typeof k === 'string')
  const hidden = keys.filter((k) => !Object.getOwnPropertyDescriptor(real, k).enumerable)
  // a callable module (assert): a call whose first argument is truthy passes without the module
  const target = typeof real === 'function' ? '(...args) => { if (!(args.length > 0 && args[0])) return load()(...args) }' : '{}'
  // (a require() of a variable: esbuild leaves it to Node instead of resolving it to this stand-in)
  return `let real
const name = 'node:${name}'
const load = () => (real ??= require(name))
const keys = ${JSON.stringify(keys)}
const hidden = ${JSON.stringify(hidden)}
module.exports = new Proxy(${target}, {
  get: (_, key) => (key === '__esModule' ? undefined : load()[key]),
  set: (_, key, value) => Reflect.set(load(), key, value),
  has: (_, key) => key in load(),
  ownKeys: () => [...keys],
  getOwnPropertyDescriptor: (_, key) => (keys.includes(key) ? {configurable: true, enumerable: !hidden.includes(key), writable: true, value: undefined} : undefined),
})`
}

/**
 * Packages whose module top level does work most commands never need: the bundle evaluates them
 * when one of their functions is first called. Only the copy at the top of node_modules is
 * replaced (a dependency may use another major of the same package). Every export must be a
 * function (called through a wrapper) or be listed in `eager` (taken from a cheaper module); the
 * build fails otherwise.
 */
const LAZY_PACKAGES = {
  // builds an Intl.Segmenter and compiles Unicode-property regexes (\p{RGI_Emoji}) when loaded,
  // ~12 ms, for a function amctl's tables call only on non-ASCII text.
  // Bench rows: `config list`, `auth token`, `runs list` (every command that renders).
  'string-width': {},
  // oclif's Config.load asks it whether this is WSL (is-wsl answers that), which loads
  // child_process, PowerShell helpers and fs/promises for functions only Windows paths use.
  // Bench rows: every row but --version (~1.5 ms).
  'wsl-utils': {eager: {isWsl: 'is-wsl'}},
  // oclif's command discovery by file pattern, unused with the explicit COMMANDS map (fdir,
  // picomatch). Bench rows: every row but --version (~1 ms).
  tinyglobby: {},
  // oclif's logger, which makes a debugger at every start and for every command: with DEBUG
  // unset every debugger is off, so a silent one is made instead and debug, supports-color and
  // tty (with net and stream) are not loaded. With DEBUG set, the real ones.
  // Bench rows: every row but --version (~2 ms).
  debug: {quiet: true},
  // oclif's theme asks it about colour only when a theme sets a colour (amctl sets none); loading
  // it asks tty, which loads net and stream. Bench rows: every row but --version (~1.5 ms).
  'supports-color': {},
  // oclif's template engine: amctl's help fills its two placeholders itself (src/base/help/
  // help.ts), so ejs runs only for another template. Bench rows: every row but --version and
  // help (~0.5 ms; its first compile of a template costs far more).
  ejs: {},
  // the frames of oclif's spinners (a 30 KB object), for a spinner amctl never starts.
  // Bench rows: the same.
  'cli-spinners': {},
  // oclif matches plugin names with it, and lilconfig finds a config file outside package.json:
  // amctl has no plugins and its package.json holds the oclif config. Bench rows: the same.
  minimatch: {},
  lilconfig: {},
  // oclif wraps help and error messages with it (which loads string-width, strip-ansi and
  // ansi-styles, whose styles are built at load). Bench rows: `config list`, `auth token`.
  'wrap-ansi': {},
}

function lazyPackages(without) {
  const names = Object.keys(LAZY_PACKAGES).filter((n) => !without.has(`lazy:${n}`))
  const filter = new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`)
  const root = ROOT
  return {
    name: 'lazy-packages',
    setup(b) {
      b.onResolve({filter}, async (args) => {
        // the stand-in's own import of the package resolves as usual
        if (args.pluginData?.real) return undefined
        const resolved = await b.resolve(args.path, {kind: args.kind, resolveDir: args.resolveDir, pluginData: {real: true}})
        const top = await b.resolve(args.path, {kind: 'require-call', resolveDir: root, pluginData: {real: true}})
        if (resolved.errors.length > 0 || resolved.path !== top.path) return undefined
        return {path: args.path, namespace: 'lazy-package'}
      })
      b.onLoad({filter: /.*/, namespace: 'lazy-package'}, async (args) => ({
        contents: await lazyPackageSource(args.path),
        loader: 'js',
        resolveDir: root,
        pluginData: {real: true},
      }))
      // the stand-in's imports: the real package, resolved as if from the project root
      b.onResolve({filter: /.*/, namespace: 'lazy-package'}, async (args) => {
        const r = await b.resolve(args.path, {kind: args.kind, resolveDir: root, pluginData: {real: true}})
        return r.errors.length > 0 ? {errors: r.errors} : {path: r.path, namespace: 'file'}
      })
    },
  }
}

/** The stand-in's source: each export of the real module, by its shape at build time. */
async function lazyPackageSource(name) {
  const {eager = {}} = LAZY_PACKAGES[name]
  const file = require.resolve(name, {paths: [ROOT]})
  const load = `let real\nconst load = () => (real ??= require(${JSON.stringify(name)}))`
  if (isCommonJS(file)) {
    // every property a getter of the real module's, the module itself callable if it is
    const real = require(file)
    const callable = typeof real === 'function'
    const keys = Object.keys(real).filter((k) => !(callable && k === 'prototype'))
    const call = LAZY_PACKAGES[name].quiet ? QUIET_DEBUG : 'function (...args) { return load().apply(this, args) }'
    return `${load}
const standIn = ${callable ? call : '{}'}
for (const key of ${JSON.stringify(keys)}) Object.defineProperty(standIn, key, {get: () => load()[key], set: (value) => { load()[key] = value }, enumerable: true, configurable: true})
${real.__esModule ? "Object.defineProperty(standIn, '__esModule', {value: true})\n" : ''}module.exports = standIn`
  }
  // an ES module: live bindings cannot wait, so every export must be a function (or eager)
  const real = await import(require('node:url').pathToFileURL(file).href)
  const lines = [load]
  for (const key of Object.keys(real)) {
    if (eager[key]) lines.push(`export {default as ${key}} from ${JSON.stringify(eager[key])}`)
    else if (typeof real[key] !== 'function') throw new Error(`bin/build/lazy.cjs: ${name} exports ${key}, which is not a function`)
    else if (key === 'default') lines.push('export default function (...args) { return load().default.apply(this, args) }')
    else lines.push(`export function ${key}(...args) { return load().${key}.apply(this, args) }`)
  }
  return lines.join('\n')
}

// debug's createDebug(namespace) with DEBUG unset: a debugger that is off, as debug's own would be
const QUIET_DEBUG = `function createDebug(namespace) {
  if (process.env.DEBUG) return load()(namespace)
  const off = () => {}
  return Object.assign(off, {
    namespace,
    enabled: false,
    useColors: false,
    color: 0,
    diff: 0,
    log: () => {},
    destroy: () => false,
    extend: (sub, delimiter = ':') => createDebug(namespace + delimiter + sub),
  })
}`

function isCommonJS(file) {
  if (file.endsWith('.cjs')) return true
  if (file.endsWith('.mjs')) return false
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type !== 'module'
    if (dirname(dir) === dir) return true
  }
}

module.exports = {LAZY_BUILTINS, LAZY_PACKAGES, lazyBuiltins, lazyBuiltinSource, lazyPackages, lazyPackageSource}
