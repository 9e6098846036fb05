'use strict'
// amctl's start-up machinery: everything amctl does beyond ordinary Node loading, in one place,
// each piece with the `npm run bench` row it buys. test/bin/startup.test.ts fails loudly when a
// Node or dependency update breaks one; the dependencies whose internals are used here are pinned
// to exact versions in package.json. `node bench/ablate.mjs` measures each piece by building
// without it (docs/performance.md has the figures).
//
// At run time (bin/run.cjs):
//   loadBundle        dist/amctl.cjs with a code cache in the user's cache directory
// At build time (bin/build.js, esbuild):
//   BUILD_OPTIONS     no import() left in the bundle (Node 20 and the code cache)
//   plugins()         lazy stand-ins for built-ins and packages whose load-time work most
//                     commands never use; undici by its parts, and --liftoff-only when it loads;
//                     source edits of dependencies (EDITS)
// Each build-time piece has a name; `node bin/build.js --without NAME,…` leaves it out.

const {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} = require('node:fs')
const {dirname, join} = require('node:path')

// The class of this very module, node:module's Module, without loading node:module (~0.2 ms:
// its ES-module loader and source maps). Bench rows: every row but --version and help.
const MODULE_CLASS = module.constructor

// ---------------------------------------------------------------------------------------------
// Run time

/**
 * The user's cache directory for amctl, as oclif's `config.cacheDir` finds it (autocomplete
 * keeps its files there too): AMCTL_CACHE_DIR, else ~/Library/Caches/amctl on macOS, else
 * $XDG_CACHE_HOME/amctl, %LOCALAPPDATA%\amctl on Windows, ~/.cache/amctl.
 */
function cacheDir(env = process.env) {
  if (env.AMCTL_CACHE_DIR) return env.AMCTL_CACHE_DIR
  const home = env.HOME || env.USERPROFILE || require('node:os').homedir()
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'amctl')
  const base = env.XDG_CACHE_HOME || (process.platform === 'win32' && env.LOCALAPPDATA) || join(home, '.cache')
  return join(base, 'amctl')
}

// The last line of the bundle names its content (bin/build.js writes it): the code cache's key.
// V8 checks a cache only against the source's length, the V8 version and flags, so two builds
// of the same length must never share one.
const BUILD_MARK = '//# amctl-build '
// cache files kept in the directory (the most recently written): a few commands of this build
// and of another install side by side
const KEPT_CACHES = 24

/**
 * Which cache a run uses: its command's words ("runs-list"), or "help" for any help. A cache
 * holds the functions the run that made it compiled; one per command keeps each warm for its
 * command (a shared one would hold only the first command's, ~3 ms of config list's start).
 */
function cacheSlug(argv) {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) return 'help'
  const words = []
  for (const arg of argv) {
    if (!/^[a-z][a-z-]{0,31}$/.test(arg) || words.length === 2) break
    words.push(arg)
  }
  return words.join('-') || 'other'
}

/**
 * Loads dist/amctl.cjs, the whole CLI in one CommonJS file (bin/build.js), so that it is not
 * parsed and compiled again on every run.
 *
 * The bundle is compiled with vm.Script and a V8 code cache in <cache dir>/code-cache, named by
 * the bundle's build mark, the command (cacheSlug) and the Node version, on every Node version.
 * V8 rejects a cache that does not fit; a missing or rejected one is written (atomically) once
 * the command has run, so it holds the functions the command compiled too. A cache that cannot
 * be written (read-only home, full disk) costs nothing but the speed. The module is registered
 * in require's cache, so oclif's own require() of the bundle gets this instance.
 * (Node >= 22.1 has `module.enableCompileCache()`, which keeps only what was compiled eagerly:
 * measured 7–9 ms slower than this on Node 22 and 24 for `config list` and `runs list --help`.)
 *
 * Bench rows: every row but --version and help (~15 ms each: compiling what a command runs
 * takes longer than running it). AMCTL_CODE_CACHE=off loads without a cache (for measuring).
 */
function loadBundle(file, argv = [], env = process.env) {
  const Module = typeof MODULE_CLASS?.createRequire === 'function' ? MODULE_CLASS : require('node:module')
  const off = env.AMCTL_CODE_CACHE === 'off'
  const vm = require('node:vm')
  // esbuild writes ASCII only (bin/build.js escapes what is left): latin1 needs no UTF-8 decoding
  const source = readFileSync(file, 'latin1')
  const mark = source.lastIndexOf(BUILD_MARK)
  const build = mark < 0 ? undefined : source.slice(mark + BUILD_MARK.length).trim()
  const dir = join(cacheDir(env), 'code-cache')
  // V8 rejects a cache made under other flags. An API command sets --liftoff-only when undici
  // loads (below), so its cache, made at exit, is named for that flag, and the next run of the
  // command sets the flag before compiling to use it: its cache then holds undici and all.
  const base = build && `amctl-${build}-${cacheSlug(argv)}`
  const named = (liftoff) => `${base}${liftoff ? '-liftoff' : ''}-node${process.versions.node}-${process.arch}.bin`
  let liftoff = false
  let cached
  if (!off && base) {
    cached = readOwnFile(join(dir, named(true)))
    if (cached) {
      liftoff = true
      setLiftoffOnly()
    } else cached = readOwnFile(join(dir, named(false)))
  }
  const script = new vm.Script(Module.wrap(source), {filename: file, cachedData: cached})
  const module = new Module(file, undefined)
  module.filename = file
  module.paths = Module._nodeModulePaths(dirname(file))
  Module._cache[file] = module
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(file), module, file, dirname(file))
  module.loaded = true
  let pending = !off && base !== undefined && (cached === undefined || script.cachedDataRejected === true)
  // undici is about to set --liftoff-only: a cache made from now on is one for that flag
  process[BEFORE_V8_FLAGS] = () => {
    if (liftoff) return
    liftoff = true
    pending = !off && base !== undefined
  }
  const save = () => {
    if (!pending) return
    pending = false
    // (two installs of amctl side by side keep theirs: the most recently written stay)
    writeOwnFile(dir, named(liftoff), script.createCachedData(), KEPT_CACHES, (f) => f.startsWith('amctl-') && f.endsWith('.bin'))
  }
  return {exports: module.exports, save}
}

/**
 * The file's content if it exists and only its owner, the user running amctl, can write it (V8
 * runs what a code cache holds: one planted by someone else is never used); else undefined.
 */
function readOwnFile(path) {
  let fd
  try {
    fd = openSync(path, 'r')
    const stat = fstatSync(fd)
    if (typeof process.getuid === 'function' && (stat.uid !== process.getuid() || (stat.mode & 0o022) !== 0)) return undefined
    return readFileSync(fd)
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * Writes `data` to dir/name atomically, readable and writable by the user alone (readOwnFile
 * reads it back), then removes the oldest of the directory's files that `ours` names, so that
 * `kept` stay. A directory that cannot be written (read-only home, full disk) costs nothing
 * but the speed.
 */
function writeOwnFile(dir, name, data, kept, ours) {
  try {
    mkdirSync(dir, {recursive: true, mode: 0o700})
    const tmp = join(dir, `${name}.${process.pid}.tmp`)
    writeFileSync(tmp, data, {mode: 0o600})
    renameSync(tmp, join(dir, name))
    const others = readdirSync(dir)
      .filter((f) => ours(f) && f !== name)
      .map((f) => ({f, at: statSync(join(dir, f)).mtimeMs}))
      .sort((a, b) => b.at - a.at)
    for (const {f} of others.slice(kept - 1)) rmSync(join(dir, f), {force: true})
  } catch {
    // a read-only or full directory: without it
  }
}

/**
 * Writes `text` to stdout through its file descriptor, without making process.stdout (which,
 * for a pipe, loads net and the stream modules: ~3 ms). A reader that went away (EPIPE) ends
 * amctl at once with exit 0 (contract 1.4); a non-blocking stdout that is full (EAGAIN) gets the
 * rest through process.stdout, which waits for it to drain.
 */
function writeStdout(text) {
  const bytes = Buffer.from(text, 'utf8')
  let written = 0
  while (written < bytes.length) {
    try {
      written += writeSync(1, bytes, written)
    } catch (error) {
      if (error.code === 'EPIPE') process.exit(0)
      process.stdout.on('error', (e) => {
        if (e.code === 'EPIPE') process.exit(0)
        throw e
      })
      process.stdout.write(bytes.subarray(written))
      return
    }
  }
}

/**
 * Calls attach(process.stdout) when process.stdout is made, by whoever makes it first, without
 * making it: a command's output to a pipe or a file is written to the descriptor directly
 * (src/output/io.ts), and most runs never need the stream (for a pipe, net, the stream modules
 * and a socket: ~3 ms). Returns a function saying whether it was made.
 * Bench rows: `config list`, `auth token`.
 */
function whenStdoutMade(attach) {
  let made = false
  const own = Object.getOwnPropertyDescriptor(process, 'stdout')
  if (!own?.get || !own.configurable) {
    attach(process.stdout)
    return () => true
  }
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      // Node's own getter again (it keeps the stream), with the stream made and attached
      Object.defineProperty(process, 'stdout', own)
      const stream = process.stdout
      made = true
      attach(stream)
      return stream
    },
  })
  return () => made
}

/** The options bin/run.cjs gives oclif (and the build's help drawing too): its package.json, no user plugins. */
function oclifOptions(root, pjson) {
  return {root, pjson, userPlugins: false}
}

// The build's help (renderHelp below), in dist/help/: a file per argv that asks for help
// (helpFile), help.json (the build's id, the members of package.json it was drawn from) and
// manifest.json (the manifest it was drawn from).
const HELP_DIR = 'help'
const HELP_META = 'help.json'
const HELP_MANIFEST = 'manifest.json'

/** The file of dist/help/ that holds the help of `argv` (words and flags joined by '_'). */
function helpFile(argv) {
  return `${argv.join('_') || '_'}.txt`
}

// Variables that change what help prints, or what goes with it, when stdout is not a terminal:
// the width (OCLIF_COLUMNS), colour forced on (FORCE_COLOR: any value, to keep the rule
// simple), oclif's debug output and warnings (DEBUG, AMCTL_DEBUG). COLUMNS, NO_COLOR and TERM
// change nothing there (test/bin/startup.test.ts shows it). AMCTL_HELP_CACHE=off: help drawn
// at run time (for measuring and for the tests that compare the two).
const HELP_ENV = ['OCLIF_COLUMNS', 'FORCE_COLOR', 'DEBUG', 'AMCTL_DEBUG']
// a help argv is at most a few words and one help flag
const HELP_ARG = /^(-h|--help|[a-z][a-z0-9-]{0,63})$/
const MAX_HELP_ARGV = 6
// cache files of the terminal's help kept in the directory (the most recently written)
const KEPT_HELP = 64

/** What stdout is: 'piped' (a pipe, socket, file or /dev/null), 'terminal', or 'other'. */
function stdoutKind() {
  let stat
  try {
    stat = fstatSync(1)
  } catch {
    return 'other'
  }
  if (stat.isFIFO() || stat.isSocket() || stat.isFile()) return 'piped'
  if (!stat.isCharacterDevice()) return 'other'
  try {
    if (stat.rdev === statSync('/dev/null').rdev) return 'piped'
  } catch {
    // no /dev/null: ask the terminal
  }
  return process.stdout.isTTY ? 'terminal' : 'other'
}

/** package.json's members that help depends on, as dist/help/help.json records them. */
function helpPackage(pjson) {
  return JSON.stringify({name: pjson.name, version: pjson.version, description: pjson.description, oclif: pjson.oclif})
}

/**
 * dist/help/help.json, if the help was drawn from this package.json and this manifest; else
 * undefined. (A manifest regenerated after the build, or a package.json edited, leaves it out.)
 */
function readBuiltHelp(root, pjson) {
  const dir = join(root, 'dist', HELP_DIR)
  try {
    const built = JSON.parse(readFileSync(join(dir, HELP_META), 'utf8'))
    if (built.package !== helpPackage(pjson)) return undefined
    const manifest = readFileSync(join(root, 'oclif.manifest.json'))
    return manifest.equals(readFileSync(join(dir, HELP_MANIFEST))) ? built : undefined
  } catch {
    return undefined
  }
}

/**
 * Help without the bundle. Every help oclif draws for amctl was drawn once at build time, byte
 * for byte, with stdout not a terminal (dist/help/, by renderHelp), for every argv that asks
 * for it (`--help`, `runs list -h`, `help runs list`, `runs`). When this argv is one of them:
 *   - stdout not a terminal, none of HELP_ENV set: {text}, that help, and nothing else runs;
 *   - stdout a terminal: {text} from a cache of the terminal's help in <cache dir>/help, named
 *     by the build, the argv, the terminal's width and whether oclif would use colour (the same
 *     supports-color and ansis, in dist/help-colour.cjs); when that file is missing,
 *     {record}: bin/run.cjs lets oclif draw the help and gives record() the exit code, which
 *     keeps what was written. Not with a user's theme.json (colours of their own);
 *   - otherwise undefined: oclif draws it, as without any of this.
 * (`stdout`: what stdout is, for tests.)
 * Bench rows: `--help`, `runs list --help` (~45–53 ms: no bundle, no oclif).
 */
function help(argv, root, pjson, env = process.env, stdout = stdoutKind) {
  if (process.platform === 'win32' || env.AMCTL_HELP_CACHE === 'off' || argv.length > MAX_HELP_ARGV) return undefined
  if (!argv.every((arg) => HELP_ARG.test(arg)) || HELP_ENV.some((name) => env[name] !== undefined)) return undefined
  // (one stat, which throws nothing, for any other command's argv)
  const file = join(root, 'dist', HELP_DIR, helpFile(argv))
  if (!existsSync(file)) return undefined
  let text
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  const kind = stdout()
  if (kind === 'other') return undefined
  const built = readBuiltHelp(root, pjson)
  if (built === undefined) return undefined
  if (kind === 'piped') return {text}
  return terminalHelp(argv, root, pjson, built, env)
}

/** The terminal's help from its cache, or {record} to fill it (see help()). */
function terminalHelp(argv, root, pjson, built, env) {
  // a theme colours help its own way: oclif draws it every time
  const home = env.HOME || require('node:os').homedir()
  const config = env.AMCTL_CONFIG_DIR || join(env.XDG_CONFIG_HOME || join(home, '.config'), 'amctl')
  if (pjson.oclif?.theme || existsSync(join(config, 'theme.json'))) return undefined
  const colour = require(join(root, 'dist', 'help-colour.cjs')).colour()
  const dir = join(cacheDir(env), 'help')
  const name = `${built.id}-${argv.join('_') || 'root'}-${process.stdout.columns}-${colour}.txt`
  const cached = readOwnFile(join(dir, name))
  if (cached) return {text: cached.toString('utf8')}
  // oclif draws it: what it writes to stdout is kept
  const chunks = []
  const write = process.stdout.write
  process.stdout.write = function (chunk, ...rest) {
    chunks.push(Buffer.from(chunk))
    return write.call(this, chunk, ...rest)
  }
  const record = (exitCode) => {
    process.stdout.write = write
    if (exitCode !== 0 || chunks.length === 0) return
    writeOwnFile(dir, name, Buffer.concat(chunks), KEPT_HELP, (f) => f.endsWith('.txt'))
  }
  return {record}
}

// ---------------------------------------------------------------------------------------------
// Build time

/** esbuild options the bundle needs (see the comment at the top). */
const BUILD_OPTIONS = {
  // Node 20 loses the vm dynamic-import callback of functions restored from a code cache ("A
  // dynamic import callback was not specified"): esbuild turns every import() into require().
  // None of the bundle's import() loads an ES module: the jq engine, the keychain module and
  // oclif's loading of the bundle itself are CommonJS.
  supported: {'dynamic-import': false},
}

const BEFORE_V8_FLAGS = Symbol.for('amctl.beforeV8Flags')

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
  const root = join(__dirname, '..')
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
  const file = require.resolve(name, {paths: [join(__dirname, '..')]})
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
    else if (typeof real[key] !== 'function') throw new Error(`bin/startup.cjs: ${name} exports ${key}, which is not a function`)
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

/**
 * undici by its parts. Its index also loads fetch, WebSocket, EventSource, cookies, the mock
 * agents and every request API, and through globalThis.Headers Node's own copy of undici; amctl
 * uses Agent (and, for remote hosts, EnvHttpProxyAgent) with request() (proxies tunnel with
 * connect()). The bundle's `undici` is those parts (lib/dispatcher/*, lib/api/*: undici's
 * internals, hence the exact version pin), put together the way undici's index does, with
 * EnvHttpProxyAgent (and with it the proxy and SOCKS agents) loaded on first use.
 * Bench rows: `runs list --json --limit 50`, `orgs summary --json` (~6 ms).
 *
 * And V8's baseline WebAssembly compiler only (--liftoff-only), set when undici loads: undici
 * parses HTTP with WebAssembly; V8 would optimize it again in the background, and Node waits
 * for that before exiting (~80 ms of CPU and wall time after every API command's output).
 * Baseline code is plenty. Bench rows: the same.
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
        resolveDir: join(__dirname, '..'),
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
 * --liftoff-only (see slimUndici). In the bundle, when undici loads, the loader is told first
 * (BEFORE_V8_FLAGS: the code cache it makes is then one for this flag); the loader sets it
 * itself before compiling the bundle when its cache was made with it.
 */
function setLiftoffOnly(key) {
  const before = key && process[Symbol.for(key)]
  if (typeof before === 'function') before()
  require('node:v8').setFlagsFromString('--liftoff-only')
}

/**
 * Source edits of dependencies, each where a dependency does costly work amctl never needs. An
 * edit applies to every bundled copy of the package at that exact version; the build fails when
 * its text is not found in one of them, or when no such copy is bundled.
 */
const EDITS = [
  // Plugin.load sorts the commands with localeCompare: its first call loads ICU's collation
  // data, ~6 ms of every start. amctl's command IDs are lowercase ASCII words joined by ':' and
  // '-', which compare the same by code unit. (@oclif/core is pinned to this exact version.)
  // Bench rows: every row but --version.
  {
    package: '@oclif/core',
    version: '4.14.0',
    file: 'lib/config/plugin.js',
    from: '.sort((a, b) => a.id.localeCompare(b.id));',
    to: '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));',
  },
  // undici's client loads its HTTP/2 half at once, and with it node:http2, tls and crypto
  // (~8 ms); amctl never negotiates HTTP/2 (undici's allowH2 is off), so it loads on first use.
  // Bench rows: `runs list --json --limit 50`, `orgs summary --json`.
  {
    package: 'undici',
    version: '7.30.2',
    file: 'lib/dispatcher/client.js',
    from: "const connectH2 = require('./client-h2.js')",
    to: "const connectH2 = (...args) => require('./client-h2.js')(...args)",
  },
  // undici's util loads node:http (and its eight internal modules) at once, for one comparison
  // when it destroys a stream, which amctl's requests do only when they fail; it loads there.
  // Bench rows: `runs list --json --limit 50`, `orgs summary --json`.
  {
    package: 'undici',
    version: '7.30.2',
    file: 'lib/core/util.js',
    from: "const { IncomingMessage } = require('node:http')",
    to: "const lazyHttp = () => require('node:http')",
  },
  {
    package: 'undici',
    version: '7.30.2',
    file: 'lib/core/util.js',
    from: 'Object.getPrototypeOf(stream).constructor === IncomingMessage',
    to: 'Object.getPrototypeOf(stream).constructor === lazyHttp().IncomingMessage',
  },
  // oclif reads package.json, the manifest and the theme file with fs/promises' readFile, on
  // libuv's thread pool (which starts for it: ~1 ms) and a turn of the event loop each; a
  // command's start has nothing to overlap them with. Read synchronously, in the same async
  // function (a missing file still rejects). Bench rows: every row but --version and help.
  {
    package: '@oclif/core',
    version: '4.14.0',
    file: 'lib/util/fs.js',
    from: "    const contents = await (0, promises_1.readFile)(path, 'utf8');",
    to: "    const contents = (0, node_fs_1.readFileSync)(path, 'utf8');",
  },
  // oclif measures the terminal when its screen module loads, which makes process.stdout and
  // process.stderr (net and the stream modules for a pipe), for widths only help and error
  // messages use: measured on first use. Bench rows: `config list`, `auth token` (~2 ms).
  {
    package: '@oclif/core',
    version: '4.14.0',
    file: 'lib/screen.js',
    from: 'exports.stdtermwidth = columns || termwidth(process.stdout);\nexports.errtermwidth = columns || termwidth(process.stderr);',
    to: "let std;\nlet err;\nObject.defineProperty(exports, 'stdtermwidth', { enumerable: true, get: () => (std ??= columns || termwidth(process.stdout)) });\nObject.defineProperty(exports, 'errtermwidth', { enumerable: true, get: () => (err ??= columns || termwidth(process.stderr)) });",
  },
  // oclif's ux makes its spinner (or a plain action) when it loads, asking whether stderr is a
  // terminal, which makes process.stderr: on first use instead (amctl never starts one; oclif
  // stops it when a command fails). Bench rows: every row but --version and help.
  {
    package: '@oclif/core',
    version: '4.14.0',
    file: 'lib/ux/index.js',
    from: `const ACTION_TYPE = (Boolean(process.stderr.isTTY) &&
    !process.env.CI &&
    !['dumb', 'emacs-color'].includes(process.env.TERM) &&
    'spinner') ||
    'simple';
exports.action = ACTION_TYPE === 'spinner' ? new spinner_1.default() : new simple_1.default();
exports.ux = {
    action: exports.action,`,
    to: `let action;
const makeAction = () => (action ??= (Boolean(process.stderr.isTTY) &&
    !process.env.CI &&
    !['dumb', 'emacs-color'].includes(process.env.TERM) &&
    'spinner') === 'spinner' ? new spinner_1.default() : new simple_1.default());
Object.defineProperty(exports, 'action', { enumerable: true, get: makeAction });
exports.ux = {
    get action() {
        return makeAction();
    },`,
  },
  // oclif's Config asks for the user's shell at every start: without SHELL (a clean environment,
  // a service) it reads the password database (os.userInfo), for a value only help on Windows and
  // autocomplete use. Elsewhere than Windows it is found on first use, the same way (getShell).
  // Bench rows: every row but --version and help (~0.2 ms).
  {
    package: '@oclif/core',
    version: '4.14.0',
    file: 'lib/config/config.js',
    from: '        this.shell = await (0, os_1.getShell)();',
    to: `        if (this.platform === 'win32')
            this.shell = await (0, os_1.getShell)();
        else {
            let shell;
            Object.defineProperty(this, 'shell', {
                configurable: true,
                enumerable: true,
                get: () => (shell ??= ((SHELL) => (SHELL ? (SHELL.split('/').at(-1) ?? 'unknown') : 'unknown'))(process.env.SHELL ?? (0, node_os_1.userInfo)().shell?.split(node_path_1.sep)?.pop())),
                set: (value) => {
                    shell = value;
                },
            });
        }`,
  },
  // oclif's Command module makes process.stdout when it loads, to swallow a broken pipe:
  // bin/run.cjs ends amctl then (exit 0, contract 1.4), on the stream whenever it is made.
  // Bench rows: `config list`, `auth token`.
  {
    package: '@oclif/core',
    version: '4.14.0',
    file: 'lib/command.js',
    from: "process.stdout.on('error', (err) => {\n    if (err && err.code === 'EPIPE')\n        return;\n    throw err;\n});",
    to: '',
  },
  // ansis (oclif's colours) asks when it loads whether stdout is a terminal, which makes
  // process.stdout: a pipe, a socket or a file is none, as fstat tells without the stream.
  // Bench rows: `config list`, `auth token`.
  {
    package: 'ansis',
    version: '3.17.0',
    file: 'index.js',
    from: '(l?r.isatty(1):!!s.stdout?.isTTY)',
    to: '(l?r.isatty(1):(()=>{try{const f=require("node:fs").fstatSync(1);return!(f.isFIFO()||f.isSocket()||f.isFile())}catch{return!0}})()&&!!s.stdout?.isTTY)',
  },
  // string-width 4 (oclif's help wraps every section with it) replaces emoji first, and the
  // first match compiles emoji-regex's pattern, ~3 ms; printable ASCII is as wide as it is long.
  // Bench row: `runs list --help`.
  {
    package: 'string-width',
    version: '4.2.3',
    file: 'index.js',
    from: "\tstring = string.replace(emojiRegex(), '  ');",
    to: "\tif (/^[\\x20-\\x7E]*$/.test(string)) {\n\t\treturn string.length;\n\t}\n\n\tstring = string.replace(emojiRegex(), '  ');",
  },
]

function dependencyEdits(without, here) {
  const edits = EDITS.filter((e) => here(e) && !without.has(`edit:${e.package}`))
  const applied = new Set()
  const files = edits.map((e) => `${e.package}/${e.file}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('/', '[\\\\/]'))
  return {
    name: 'dependency-edits',
    setup(b) {
      b.onLoad({filter: new RegExp(`[\\\\/]node_modules[\\\\/](${files.join('|')})$`)}, (args) => {
        const here = edits.filter((e) => args.path.endsWith(join('node_modules', e.package, e.file)))
        const pkg = JSON.parse(readFileSync(join(args.path.slice(0, -here[0].file.length), 'package.json'), 'utf8'))
        if (pkg.version !== here[0].version) return undefined
        let source = readFileSync(args.path, 'utf8')
        for (const edit of here) {
          if (!source.includes(edit.from)) throw new Error(`bin/startup.cjs: ${args.path} no longer contains ${edit.from}`)
          applied.add(edit)
          source = source.replace(edit.from, edit.to)
        }
        return {contents: source, loader: 'js'}
      })
      b.onEnd((result) => {
        if (result.errors.length > 0) return
        for (const edit of edits) if (!applied.has(edit)) throw new Error(`bin/startup.cjs: no ${edit.package}@${edit.version} was bundled`)
      })
    },
  }
}

/**
 * Every help the launcher may print without the bundle (help() above), drawn by oclif through
 * the bundle as bin/run.cjs has it drawn, stdout not a terminal: for the root ([], --help, -h,
 * help), each command, topic and help topic (`<words> --help`, `<words> -h`, `help <words>`),
 * and each topic that is not a command (`<words>`), the argvs oclif answers with help. An argv
 * whose run writes to stderr, fails or exits non-zero is left out (oclif runs it). Returns
 * {package, help: {argv joined by ' ': text}}, for dist/help/. Runs in a process of its own
 * (bin/build.js), with a clean environment.
 */
async function renderHelp(bundle, root) {
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  // (before oclif adds to it)
  const drawnFrom = helpPackage(pjson)
  const options = oclifOptions(root, pjson)
  const cli = require(bundle)
  const {commands, topics, helpTopics} = await cli.loadHelpSubjects(options)
  const forms = [[], ['--help'], ['-h'], ['help']]
  for (const subject of new Set([...commands, ...topics, ...helpTopics])) {
    const words = subject.split(' ')
    forms.push([...words, '--help'], [...words, '-h'])
    if (words[0] !== 'help') forms.push(['help', ...words])
    if (topics.includes(subject) && !commands.includes(subject)) forms.push(words)
  }
  const help = {}
  const {write: out} = process.stdout
  const {write: err} = process.stderr
  for (const form of forms) {
    // (an argv help() would never look up: a word it does not take)
    if (form.length > MAX_HELP_ARGV || !form.every((arg) => HELP_ARG.test(arg))) continue
    let stdout = ''
    let stderr = ''
    process.stdout.write = (chunk) => {
      stdout += chunk
      return true
    }
    process.stderr.write = (chunk) => {
      stderr += chunk
      return true
    }
    process.exitCode = undefined
    let failed = false
    try {
      await cli.run(form, options)
    } catch {
      failed = true
    } finally {
      process.stdout.write = out
      process.stderr.write = err
    }
    if (failed || stderr !== '' || (process.exitCode ?? 0) !== 0 || stdout === '') continue
    help[form.join(' ')] = stdout
  }
  process.exitCode = undefined
  await cli.flush()
  return {package: drawnFrom, help}
}

/**
 * dist/help-colour.cjs: whether oclif colours help on this terminal, as its colorize() decides
 * (supports-color for stdout and stderr, then ansis), with the copies of both that the bundle's
 * @oclif/core has (bin/build.js resolves them from its directory).
 */
const HELP_COLOUR_SOURCE = `const supportsColor = require('supports-color')
const ansis = require('ansis')
exports.colour = () => (supportsColor.stdout && supportsColor.stderr && ansis.isSupported() ? 1 : 0)`

/** The directory of an installed package (whatever its "exports" allow). */
function packageDir(name) {
  let dir = dirname(require.resolve(name))
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name) {
    const up = dirname(dir)
    if (up === dir) throw new Error(`no package.json of ${name}`)
    dir = up
  }
  return dir
}

/**
 * undici apart from the bundle: dist/undici.cjs, built on its own (bin/build.js, with the undici
 * pieces above), which the bundle requires when a request needs undici (a proxy: src/core/http/
 * dispatcher.ts) and no other run reads. Without it the bundle is 1.1 MB instead of 0.74, a
 * third of it undici, read by every command. Bench rows: `runs list --json` (~1–2 ms of CPU).
 */
const undiciApart = {
  name: 'undici-apart',
  setup(b) {
    b.onResolve({filter: /^undici$/}, () => ({path: './undici.cjs', external: true}))
  },
}

/**
 * The esbuild plugins of the pieces above, for dist/amctl.cjs (`bundle` 'amctl') or
 * dist/undici.cjs ('undici'). `without`: names of pieces to leave out, for measuring what each
 * buys (bench/ablate.mjs): lazy:<built-in or package>, slim-undici, liftoff, edit:<package>,
 * undici-apart (undici in the bundle, with its pieces, and no dist/undici.cjs).
 */
function plugins(without = new Set(), bundle = 'amctl') {
  const undiciHere = bundle === 'undici' || without.has('undici-apart')
  return [
    lazyBuiltins(without),
    ...(bundle === 'amctl' ? [lazyPackages(without)] : []),
    undiciHere ? slimUndici(without) : undiciApart,
    // (each edit where its package is bundled)
    dependencyEdits(without, (edit) => (edit.package === 'undici' ? undiciHere : bundle === 'amctl')),
  ]
}

/** Every name `plugins()` accepts in `without`. */
function pieceNames() {
  // (one name per package: `edit:undici` leaves out every edit of undici)
  return [
    ...LAZY_BUILTINS.map((n) => `lazy:${n}`),
    ...Object.keys(LAZY_PACKAGES).map((n) => `lazy:${n}`),
    'slim-undici',
    'liftoff',
    'undici-apart',
    ...new Set(EDITS.map((e) => `edit:${e.package}`)),
  ]
}

module.exports = {
  cacheDir,
  cacheSlug,
  loadBundle,
  writeStdout,
  whenStdoutMade,
  oclifOptions,
  help,
  helpPackage,
  HELP_DIR,
  HELP_META,
  HELP_MANIFEST,
  helpFile,
  HELP_ENV,
  renderHelp,
  HELP_COLOUR_SOURCE,
  BUILD_MARK,
  BUILD_OPTIONS,
  LAZY_BUILTINS,
  LAZY_PACKAGES,
  UNDICI_PARTS,
  UNDICI_API,
  plugins,
  pieceNames,
  EDITS,
  packageDir,
  lazyBuiltinSource,
  lazyPackageSource,
  slimUndiciSource,
}
