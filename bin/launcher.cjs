'use strict'
// amctl's launcher: what bin/run.cjs loads at every run, beyond ordinary Node loading, each piece
// with what it buys (docs/performance.md, "The price list"). Kept small: it is parsed at every
// start, `--version` and help included. What the build does to the bundle (lazy stand-ins, undici
// by its parts, the patches of dependencies) is in bin/build/, which no run loads.
//
//   loadBundle        dist/amctl.cjs with a code cache in the user's cache directory
//   help              help drawn at build time (dist/help/), printed without the bundle
//   writeStdout, whenStdoutMade   stdout written without making process.stdout
//   notBuilt          the one line a checkout without a build gets

const {
  closeSync,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} = require('node:fs')
const {dirname, join} = require('node:path')

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
 * measured 5.5–9.3 ms of CPU slower than this on Node 22 and 24.)
 *
 * Bench rows: every command that loads the bundle (17–24 ms of CPU each: compiling what a command
 * runs takes longer than running it). AMCTL_CODE_CACHE=off loads without a cache (for measuring).
 * Undefined when there is no bundle (notBuilt).
 */
function loadBundle(file, argv = [], env = process.env) {
  const Module = require('node:module')
  const off = env.AMCTL_CODE_CACHE === 'off'
  const vm = require('node:vm')
  let source
  try {
    source = readFileSync(file, 'utf8')
  } catch (error) {
    // not built: bin/run.cjs says so (notBuilt)
    if (error.code === 'ENOENT') return undefined
    throw error
  }
  const mark = source.lastIndexOf(BUILD_MARK)
  const build = mark < 0 ? undefined : source.slice(mark + BUILD_MARK.length).trim()
  const dir = join(cacheDir(env), 'code-cache')
  // V8 rejects a cache made under other flags. A request through a proxy on Node 20 sets
  // --liftoff-only when undici loads (setLiftoffOnly), so its cache, made at exit, is named for
  // that flag, and the next run of the command sets the flag before compiling to use it.
  const base = build && `amctl-${build}-${cacheSlug(argv)}`
  const named = (liftoff) => `${base}${liftoff ? '-liftoff' : ''}-node${process.versions.node}-${process.arch}.bin`
  let liftoff = false
  let cached
  if (!off && base) {
    // (a cache that is damaged or not this user's alone is never handed to V8: rewritten below)
    cached = openCache(readOwnFile(dir, named(true)))
    if (cached) {
      liftoff = true
      setLiftoffOnly()
    } else cached = openCache(readOwnFile(dir, named(false)))
  }
  const script = new vm.Script(Module.wrap(source), {filename: file, cachedData: cached})
  const module = new Module(file, undefined)
  module.filename = file
  // (oclif's own require() of the bundle gets this instance)
  require.cache[file] = module
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
    writeOwnFile(
      dir,
      named(liftoff),
      sealCache(script.createCachedData()),
      KEPT_CACHES,
      (f) => f.startsWith('amctl-') && f.endsWith('.bin'),
    )
  }
  return {exports: module.exports, save}
}

// How the caches (the code cache, a terminal's help) are kept, in a directory another local user
// must not be able to plant anything in (issue 26): a directory is used only when it is a real
// directory (not a link), owned by the user running amctl and not writable by others, and so is
// its parent (the cache directory itself); files are created exclusively, never through a link,
// readable and writable by the user alone, and read back only when they still are exactly that
// (lstat/fstat). A directory that fails any of this, or cannot be made or written (a read-only
// home, a full disk, /proc), is skipped silently: it costs the speed, nothing else. The check
// itself is src/core/own-file.ts (dist/own-file.cjs), which the completion cache of recent IDs
// is read through too: said once.
const {O_WRONLY, O_CREAT, O_EXCL} = require('node:fs').constants
// (no O_NOFOLLOW on Windows, where neither uid nor mode bits apply either)
const O_NOFOLLOW = require('node:fs').constants.O_NOFOLLOW ?? 0

/** dist/own-file.cjs, loaded when a cache is first used (a checkout not built yet has none: notBuilt says so). */
let ownFileModule
const ownFile = () => {
  ownFileModule ??= require(join(__dirname, '..', 'dist', 'own-file.cjs'))
  return ownFileModule
}

/** Whether `dir` and its parent are real directories of this user's that others cannot write (own-file's privateDirs). */
function privateDir(dir) {
  return ownFile().privateDirs([dirname(dir), dir])
}

/**
 * Makes `dir` (and any missing parent) with mode 0700; a directory that exists is left as it is.
 * Hand-written instead of `mkdirSync(dir, {recursive: true})`, as src/core/fs-atomic.ts's
 * ensurePrivateDir is, for the same reason: Node's recursive mkdir never returns when mkdir
 * answers ENOENT under a parent that exists, as /proc does (`AMCTL_CACHE_DIR=/proc/nope/amctl`
 * spun at full CPU forever). Throws when it cannot.
 */
function makeDir(dir) {
  try {
    mkdirSync(dir, {mode: 0o700})
  } catch (error) {
    if (error.code === 'EEXIST') return
    const parent = dirname(dir)
    // ENOENT under a parent that exists: this file system cannot hold the directory
    if (error.code !== 'ENOENT' || parent === dir || lstatSync(parent, {throwIfNoEntry: false}) !== undefined) throw error
    makeDir(parent)
    mkdirSync(dir, {mode: 0o700})
  }
}

/**
 * The content of dir/name if the directory is private (privateDir) and the file is a regular
 * file of this user's that nobody else can write, not a link and with no other name (own-file's
 * readPrivateFile): else undefined. V8 runs what a code cache holds, and help prints what its
 * cache holds: nothing another user could have put there is ever read.
 */
function readOwnFile(dir, name) {
  try {
    return privateDir(dir) ? ownFile().readPrivateFile(join(dir, name)) : undefined
  } catch {
    return undefined
  }
}

/**
 * Writes `data` to dir/name atomically (a temporary file created exclusively, never through a
 * link, mode 0600, then renamed over the name), then removes the oldest of the directory's files
 * that `ours` names, so that `kept` stay. Nothing when the directory cannot be made or is not
 * private (privateDir).
 */
function writeOwnFile(dir, name, data, kept, ours) {
  const tmp = join(dir, `${name}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)
  let fd
  try {
    makeDir(dir)
    if (!privateDir(dir)) return
    fd = openSync(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
    for (let written = 0; written < data.length; ) written += writeSync(fd, data, written)
    closeSync(fd)
    fd = undefined
    renameSync(tmp, join(dir, name))
    const others = readdirSync(dir)
      .filter((f) => ours(f) && f !== name)
      .map((f) => ({f, at: lstatSync(join(dir, f)).mtimeMs}))
      .sort((a, b) => b.at - a.at)
    for (const {f} of others.slice(kept - 1)) rmSync(join(dir, f), {force: true})
  } catch {
    // not writable here: without it
    if (fd !== undefined) closeSync(fd)
    rmSync(tmp, {force: true})
  }
}

// A code cache file: what V8 made, twice. V8 trusts the bytes it is given (a cache with bytes
// flipped in the middle crashed every later run: "Fatal error", exit 133), so the loader checks
// them first: a file whose two halves differ is damaged (what another user could do is kept out
// above). Comparing them is one memcmp (Buffer#equals) over bytes just read: cheaper than summing
// them in JavaScript (1.0-1.5 ms of CPU) or WebAssembly, or loading node:crypto or node:zlib for
// a hash, at twice the disk (docs/performance.md, "The price list").

/** What V8 made, as a cache file. */
function sealCache(data) {
  return Buffer.concat([data, data])
}

/** The bytes to hand V8, when `file` is a whole cache file; else undefined. */
function openCache(file) {
  if (file === undefined || file.length === 0 || file.length % 2 !== 0) return undefined
  const data = file.subarray(0, file.length / 2)
  return data.equals(file.subarray(file.length / 2)) ? data : undefined
}

/**
 * What a checkout without a build says (a build that failed, `npm ci --ignore-scripts`): one
 * error line naming the command that builds it, and exit 1, instead of Node's stack trace.
 */
function notBuilt(root) {
  process.stderr.write(
    `error: amctl is not built: ${join(root, 'dist', 'amctl.cjs')} is missing; run \`npm run build\` in ${root} (internal)\n`,
  )
  process.exitCode = 1
}

/**
 * Writes `text` to stdout through its file descriptor, without making process.stdout (which,
 * for a pipe, loads net and the stream modules: ~3 ms). A reader that went away (EPIPE) ends
 * amctl at once with exit 0 (contract 1.4); a non-blocking stdout that is full (EAGAIN) gets the
 * rest through process.stdout, which waits for it to drain. A stdout that cannot be written (a
 * full disk, a terminal gone) is one error line and exit 1, no stack (stdoutFailed).
 */
function writeStdout(text) {
  const bytes = Buffer.from(text, 'utf8')
  let written = 0
  while (written < bytes.length) {
    try {
      written += writeSync(1, bytes, written)
    } catch (error) {
      if (error.code === 'EPIPE') process.exit(0)
      if (error.code !== 'EAGAIN') return stdoutFailed(error)
      process.stdout.on('error', (e) => {
        if (e.code === 'EPIPE') process.exit(0)
        stdoutFailed(e)
      })
      process.stdout.write(bytes.subarray(written))
      return
    }
  }
}

/**
 * The error line of a stdout that cannot be written, worded as src/output/io.ts words it for a
 * command (outputError): this runs without the bundle, so the few lines are said again here.
 */
function stdoutFailed(error) {
  const words = error.code
    ? `${new RegExp(`^${error.code}: ([^,]+)`).exec(error.message)?.[1] ?? error.message} (${error.code})`
    : error.message
  process.stderr.write(`error: cannot write to stdout: ${words} (output_error)\n`)
  process.exitCode = 1
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
// change nothing there (test/bin/launcher.test.ts shows it). AMCTL_HELP_CACHE=off: help drawn
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
 * Bench rows: `--help`, `runs list --help` (18–28 ms of CPU: no bundle, no oclif), and on a
 * terminal 11–15 ms.
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
  const cached = readOwnFile(dir, name)
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

// The symbol through which the bundle's undici tells the loader it is about to set --liftoff-only
// (bin/build/undici.cjs puts setLiftoffOnly into the bundle).
const BEFORE_V8_FLAGS = Symbol.for('amctl.beforeV8Flags')

/**
 * --liftoff-only (bin/build/undici.cjs), on Node 20 only: there it spares the wait at exit for
 * V8's background optimization of undici's WebAssembly (82 ms of CPU a request through a proxy);
 * on Node 22 and 24 it cost 9–10 ms instead (docs/performance.md, "The price list"). In the
 * bundle, when undici loads, the loader is told first (BEFORE_V8_FLAGS: the code cache it makes
 * is then one for this flag); the loader sets it itself before compiling the bundle when its
 * cache was made with it. (Self-contained: the build puts its text into the bundle.)
 */
function setLiftoffOnly(key) {
  if (Number(process.versions.node.split('.')[0]) >= 22) return
  const before = key && process[Symbol.for(key)]
  if (typeof before === 'function') before()
  require('node:v8').setFlagsFromString('--liftoff-only')
}

module.exports = {
  cacheDir,
  cacheSlug,
  loadBundle,
  notBuilt,
  writeStdout,
  whenStdoutMade,
  oclifOptions,
  help,
  helpPackage,
  HELP_DIR,
  HELP_META,
  HELP_MANIFEST,
  HELP_ARG,
  MAX_HELP_ARGV,
  helpFile,
  HELP_ENV,
  BUILD_MARK,
  BEFORE_V8_FLAGS,
  setLiftoffOnly,
  // (for tests)
  sealCache,
  openCache,
}
