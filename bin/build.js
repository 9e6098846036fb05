#!/usr/bin/env node
// Builds dist/ from src/ with esbuild. Type checking is tsc's job (`npm run typecheck`).
//
// dist/amctl.cjs   the whole CLI as one CommonJS bundle: @oclif/core, every command (as the
//                  COMMANDS map of oclif's "explicit" command discovery, each command's module
//                  evaluated only when oclif asks for that command), oclif's help and
//                  autocomplete commands, the help class, and behind dynamic import() —
//                  evaluated only when a command needs them — chalk and the local control
//                  plane. One file instead of hundreds of modules to resolve, and CommonJS so
//                  bin/run.cjs can load it with a code cache (bin/launcher.cjs). Its last line
//                  is its build mark: a hash of its content.
// dist/undici.cjs  undici, for requests through a proxy (its import('undici') requires it).
// dist/help/, help-colour.cjs  every help, drawn once (bin/build/help.cjs), printed by bin/launcher.cjs.
// dist/jq-worker.cjs, jq.cjs, jq.wasm  the jq engine of --jq (jq-wasm: jq compiled to
//                  WebAssembly), apart from the bundle so that no other command reads or compiles
//                  it: src/output/jq.ts starts jq-worker.cjs (copied from src/output/) as a worker
//                  thread, which requires ./jq.cjs (jq-wasm) and compiles jq.wasm beside it.
// dist/complete.cjs  shell completion's answers (`amctl __complete`, bin/run.cjs), apart from the
//                  bundle: a Tab loads neither oclif nor the commands.
// dist/own-file.cjs  the check of a cache file before it is read (src/core/own-file.ts), which
//                  bin/launcher.cjs loads for the code cache and a terminal's help.
// dist/xml.cjs    the XML library of --junit (fast-xml-builder), apart from the bundle in the same
//                  way: the bundle's import('fast-xml-builder') requires ./xml.cjs.
// dist/stats.cjs  the statistics library of --baseline history (jstat: Student's t quantile), apart
//                  from the bundle in the same way: import('jstat') requires ./stats.cjs.
// dist/schema.cjs the JSON Schema validator (ajv) of `evals comment`, which checks a wait's --json
//                  before rendering it, apart from the bundle in the same way.
// dist/<module>.js a few modules that scripts and tests load by path (ESM, each self-contained).
//
// Nothing machine-specific goes into dist/ (the code cache lives in the user's cache directory),
// so the same sources build the same dist/.

import {build} from 'esbuild'
import {spawnSync} from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {tmpdir} from 'node:os'
import {createHash} from 'node:crypto'
import {createRequire} from 'node:module'
import {dirname, join, relative, sep} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const launcher = require('./launcher.cjs')
const {BUILD_OPTIONS, packageDir, pieceNames, plugins} = require('./build/plugins.cjs')
const {HELP_COLOUR_SOURCE} = require('./build/help.cjs')
const src = join(root, 'src')
const finalDist = join(root, 'dist')
// Everything is built into a directory of this build's own and then swapped in whole, so two
// builds at once never see or leave a half-written dist/ (a failed build leaves dist/ as it was).
const dist = join(root, `dist.${process.pid}.tmp`)
process.on('exit', () => rmSync(dist, {recursive: true, force: true}))
const analyze = process.argv.includes('--analyze')
// --sourcemap: dist/amctl.cjs.map beside the bundle (bench/profile.mjs attributes time with it)
const sourcemap = process.argv.includes('--sourcemap')
// --without NAME,…: leave out pieces of the start-up machinery (bin/build/), to measure them
const withoutAt = process.argv.indexOf('--without')
const without = new Set(withoutAt < 0 ? [] : process.argv[withoutAt + 1].split(','))
for (const name of without) {
  if (![...pieceNames(), 'minify-whitespace', 'ascii'].includes(name)) throw new Error(`--without: unknown piece ${name}`)
}

// command files: src/commands/<topic>/<verb>.ts; a topic's `shared/` folder holds its helpers
function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return name === 'shared' ? [] : files(path)
      return path.endsWith('.ts') ? [path] : []
    })
}

// The bundle's exports, each a getter that evaluates its module on first use: bin/run.cjs reads
// `run` (oclif's) and `stdoutWritten`, the help class for help only, the hook for an unknown command only,
// and in the COMMANDS map (oclif's "explicit" command discovery: src/commands/runs/list.ts is
// "runs:list") the one command it runs; the manifest describes the others. So `--help` evaluates
// no command and `config list` neither the help nor another command.
const commands = files(join(src, 'commands')).map((file) => ({
  // (a topic's index.ts is the topic's own command, as oclif has it: autocomplete/index.ts is "autocomplete")
  id: relative(join(src, 'commands'), file)
    .replace(/\.ts$/, '')
    .split(sep)
    .filter((part, i, parts) => !(part === 'index' && i === parts.length - 1 && i > 0))
    .join(':'),
  expr: `require('./${relative(src, file).split(sep).join('/').replace(/\.ts$/, '.js')}').default`,
}))
const entry = `module.exports = {
  get run() { return require('@oclif/core/run').run },
  get stdoutWritten() { return require('./output/io.js').stdoutWritten },
  get commandNotFound() { return require('./base/fallback.js').commandNotFound },
  get reportFailure() { return require('./base/failure.js').reportFailure },
  get systemWorld() { return require('./base/world.js').systemWorld },
  get AmctlHelp() { return require('./base/help/help.js').default },
  get loadHelpSubjects() { return require('./base/help/subjects.js').loadHelpSubjects },
  COMMANDS: {
${commands.map((g) => `    get '${g.id}'() { return ${g.expr} },`).join('\n')}
  },
}`

// the local control plane (`amctl dev server`): dist/devserver.cjs, apart from the bundle so that
// no other command reads it (a quarter of the CLI's code, with ajv and the OpenAPI document)
const devServer = {
  name: 'dev-server',
  setup(b) {
    b.onResolve({filter: /[\\/]devserver[\\/]index\.js$/}, () => ({path: './devserver.cjs', external: true}))
  },
}

/**
 * A package the bundle imports with import() but that ships as its own file of dist/, read only
 * by the commands that need it: the bundle's import(PACKAGE) becomes require('./FILE').
 */
const apart = (name, pkg, file) => ({
  name,
  setup(b) {
    b.onResolve({filter: new RegExp(`^${pkg}$`)}, () => ({path: pkg, namespace: name}))
    b.onLoad({filter: /.*/, namespace: name}, () => ({contents: `module.exports = require('./${file}')`, loader: 'js'}))
    b.onResolve({filter: new RegExp(`^\\./${file.replace('.', '\\.')}$`), namespace: name}, (args) => ({path: args.path, external: true}))
  },
})
// the baseline file's JSON scanner (jsonc-parser): its ES module build, which esbuild follows (the
// package's main is a UMD module that requires its parts through a factory's own `require`)
const jsoncModule = {
  name: 'jsonc-esm',
  setup(b) {
    b.onResolve({filter: /^jsonc-parser$/}, () => ({path: require.resolve('jsonc-parser/lib/esm/main.js')}))
  },
}
// the JUnit report's XML library, only with --junit
const xmlBuilder = apart('xml-builder', 'fast-xml-builder', 'xml.cjs')
// the history gate's t quantile (jstat), only by a wait with --baseline history
const statsLibrary = apart('stats-library', 'jstat', 'stats.cjs')
// the JSON Schema validator, only by `evals comment`
const schemaLibrary = apart('schema-library', 'ajv', 'schema.cjs')

const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  // the keychain module is native: resolved at run time, or not at all. The rest are optional
  // requires inside @oclif/core for running TypeScript sources in development; never used here.
  external: ['@napi-rs/keyring', 'typescript', 'ts-node', 'tsx', '@swc/core'],
}

rmSync(dist, {recursive: true, force: true})
const cli = await build({
  ...shared,
  stdin: {contents: entry, resolveDir: src, sourcefile: 'amctl.ts', loader: 'ts'},
  outfile: join(dist, 'amctl.cjs'),
  format: 'cjs',
  plugins: [...plugins(without, 'amctl'), jsoncModule, xmlBuilder, statsLibrary, schemaLibrary, devServer],
  ...BUILD_OPTIONS,
  // indentation, line breaks and comments are a third of the bundle; names stay (shortening them
  // too measured nothing: a run loads the code cache, not the text). What a run gains by it is
  // within the noise (docs/performance.md, "The price list"): it is kept for a package a third
  // smaller, at the cost of one line.
  minifyWhitespace: !without.has('minify-whitespace'),
  sourcemap: sourcemap ? 'external' : false,
})
// undici, apart from the bundle (bin/build/undici.cjs): only a request through a proxy reads it
const undici = without.has('undici-apart')
  ? undefined
  : await build({
      ...shared,
      stdin: {contents: "module.exports = require('undici')", resolveDir: root, sourcefile: 'undici.cjs', loader: 'js'},
      outfile: join(dist, 'undici.cjs'),
      format: 'cjs',
      plugins: plugins(without, 'undici'),
      ...BUILD_OPTIONS,
      minifyWhitespace: true,
    })
const devserver = await build({
  ...shared,
  entryPoints: [join(src, 'devserver', 'index.ts')],
  outfile: join(dist, 'devserver.cjs'),
  format: 'cjs',
})
// shell completion (bin/run.cjs answers `amctl __complete` with it): the manifest, the config and
// the completion cache, without the CLI; no request is ever sent from it
const completion = await build({
  ...shared,
  entryPoints: [join(src, 'commands', 'autocomplete', 'shared', 'main.ts')],
  outfile: join(dist, 'complete.cjs'),
  format: 'cjs',
})
// the check of a cache file before it is read (src/core/own-file.ts): bin/launcher.cjs loads it
// for the code cache and a terminal's help; the bundle and complete.cjs hold their own copy
const ownFile = await build({
  ...shared,
  entryPoints: [join(src, 'core', 'own-file.ts')],
  outfile: join(dist, 'own-file.cjs'),
  format: 'cjs',
  minifyWhitespace: true,
})
const loose = await build({
  ...shared,
  entryPoints: ['devserver/seed.ts', 'core/fs-atomic.ts', 'core/auth/file-store.ts'].map((p) => join(src, p)),
  outdir: dist,
  outbase: src,
  format: 'esm',
  banner: {js: "import {createRequire as __amctlRequire} from 'node:module';const require = __amctlRequire(import.meta.url);"},
})
// the jq engine: jq-wasm's loader, given the WebAssembly beside it unless the caller instantiates
// it (its own default looks in node_modules/jq-wasm, which a bundle does not have at hand)
const jq = await build({
  ...shared,
  stdin: {
    contents: [
      "const {readFileSync} = require('node:fs')",
      "const {join} = require('node:path')",
      "const {loadJq} = require('jq-wasm')",
      "exports.loadJq = (options) => loadJq(options ?? {wasmBinary: readFileSync(join(__dirname, 'jq.wasm'))})",
    ].join('\n'),
    resolveDir: root,
    sourcefile: 'jq-engine.cjs',
    loader: 'js',
  },
  outfile: join(dist, 'jq.cjs'),
  format: 'cjs',
  // third-party code read only when --jq is given: a third of the size, less to parse
  minify: true,
})
// the XML library of --junit (fast-xml-builder), apart from the bundle like the jq engine
const xml = await build({
  ...shared,
  stdin: {
    // the builder class itself: the bundle's import() takes module.exports as the default export
    contents: "const m = require('fast-xml-builder')\nmodule.exports = m.default ?? m",
    resolveDir: root,
    sourcefile: 'xml-builder.cjs',
    loader: 'js',
  },
  outfile: join(dist, 'xml.cjs'),
  format: 'cjs',
  minify: true,
})
// the statistics library of --baseline history (jstat), apart from the bundle like the XML library
const stats = await build({
  ...shared,
  stdin: {contents: "module.exports = require('jstat')", resolveDir: root, sourcefile: 'stats.cjs', loader: 'js'},
  outfile: join(dist, 'stats.cjs'),
  format: 'cjs',
  minify: true,
})
// the JSON Schema validator of `evals comment` (ajv), apart from the bundle like the XML library
await build({
  ...shared,
  stdin: {contents: "module.exports = require('ajv')", resolveDir: root, sourcefile: 'schema.cjs', loader: 'js'},
  outfile: join(dist, 'schema.cjs'),
  format: 'cjs',
  minify: true,
})
{
  const Ajv = require(join(dist, 'schema.cjs'))
  if (new Ajv().compile({type: 'number'})('x') !== false) throw new Error('dist/schema.cjs does not check JSON')
}
if (Math.abs(require(join(dist, 'stats.cjs')).studentt.inv(0.95, 19) - 1.7291) > 1e-3)
  throw new Error('dist/stats.cjs does not give t quantiles')
const XMLBuilder = require(join(dist, 'xml.cjs'))
if (new XMLBuilder({}).build({a: 'x<'}) !== '<a>x&lt;</a>') throw new Error('dist/xml.cjs does not build XML')
copyFileSync(require.resolve('jq-wasm/jq.wasm'), join(dist, 'jq.wasm'))
chmodSync(join(dist, 'jq.wasm'), 0o644)
copyFileSync(join(src, 'output', 'jq-worker.cjs'), join(dist, 'jq-worker.cjs'))
chmodSync(join(dist, 'jq-worker.cjs'), 0o644)
const engine = await require(join(dist, 'jq.cjs')).loadJq()
if (engine.raw('{"a":[1,"x"]}', '.a[]', ['-r']).stdout !== '1\nx') throw new Error('dist/jq.cjs does not run jq')

// The bundle pure ASCII. esbuild escapes strings but copies some regex literals verbatim (ansis's
// /[\x1b\x9b]…/ holds a raw U+009B), and one character beyond ASCII makes Node decode the whole
// bundle into a two-byte string at every run: twice the memory, and about 1 ms more for every
// command that loads it, on Node 20 and 24 (docs/performance.md, "Where 3 ms of runs list went").
// Escaped per UTF-16 code unit, as JavaScript reads them (a surrogate pair becomes two escapes).
// `--without ascii` leaves it out (bench/ablate.mjs).
const bundlePath = join(dist, 'amctl.cjs')
const bundled = readFileSync(bundlePath, 'utf8')
const ascii = without.has('ascii') ? bundled : bundled.replace(/[^\0-\x7F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
// the build mark, the key of the user's code cache: what the bundle holds, not when it was built
const mark = createHash('sha256').update(ascii).digest('hex').slice(0, 16)
writeFileSync(bundlePath, `${ascii}${launcher.BUILD_MARK}${mark}\n`)

// The manifest, made here from the commands just built (so that the CLI, its help and its manifest
// agree with src/ after a build alone), and help without the bundle (bin/launcher.cjs): every help
// oclif draws, drawn once here with stdout not a terminal, into dist/help/ (with a copy of the
// manifest it was drawn from); and dist/help-colour.cjs, which says whether oclif would colour a
// terminal's help
const colour = await build({
  ...shared,
  stdin: {contents: HELP_COLOUR_SOURCE, resolveDir: packageDir('@oclif/core'), sourcefile: 'help-colour.cjs', loader: 'js'},
  outfile: join(dist, 'help-colour.cjs'),
  format: 'cjs',
  // read on a terminal's every help: less to parse
  minify: true,
})
const drawn = drawHelp()
const help = drawn.help
if (help) {
  const id = createHash('sha256').update(mark).update(JSON.stringify(help)).digest('hex').slice(0, 16)
  const dir = join(dist, launcher.HELP_DIR)
  mkdirSync(dir)
  for (const [argv, text] of Object.entries(help.help))
    writeFileSync(join(dir, launcher.helpFile(argv === '' ? [] : argv.split(' '))), text)
  writeFileSync(join(dir, launcher.HELP_META), `${JSON.stringify({id, package: help.package})}\n`)
  writeFileSync(join(dir, launcher.HELP_MANIFEST), drawn.manifest)
}

/**
 * oclif.manifest.json (the commands' flags, args and help, which oclif reads instead of loading
 * every command) and every help, made from the bundle just built, in a process of its own with a
 * clean environment (PATH and an empty HOME) and stdout a pipe. It runs in a root of its own, this
 * package.json beside this build's dist/, so that oclif finds this build's bundle. A manifest that
 * cannot be made fails the build; help that cannot be drawn (anything said on stderr) is left to
 * oclif at run time, with a warning. Returns {manifest (its text), help}.
 */
function drawHelp() {
  const scratch = mkdtempSync(join(tmpdir(), 'amctl-build-help-'))
  try {
    copyFileSync(join(root, 'package.json'), join(scratch, 'package.json'))
    symlinkSync(dist, join(scratch, 'dist'))
    mkdirSync(join(scratch, 'home'))
    const out = join(scratch, 'help.json')
    const script = `const build = require(${JSON.stringify(join(root, 'bin', 'build', 'help.cjs'))})
build.writeManifest(${JSON.stringify(scratch)})
  .then(() => build.renderHelp(${JSON.stringify(join(scratch, 'dist', 'amctl.cjs'))}, ${JSON.stringify(scratch)}))
  .then((help) => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(help)))`
    const drawn = spawnSync(process.execPath, ['-e', script], {
      env: {PATH: process.env.PATH, HOME: join(scratch, 'home')},
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    })
    const manifestFile = join(scratch, 'oclif.manifest.json')
    if (!existsSync(manifestFile)) throw new Error(`making oclif.manifest.json failed:\n${drawn.stderr.trim()}`)
    const manifest = readFileSync(manifestFile)
    if (drawn.status !== 0 || drawn.stderr !== '') {
      console.warn(`warning: help is drawn at run time: drawing it at build time failed: ${drawn.stderr.trim().split('\n')[0]}`)
      return {manifest}
    }
    return {manifest, help: JSON.parse(readFileSync(out, 'utf8'))}
  } finally {
    rmSync(scratch, {recursive: true, force: true})
  }
}

// --version's second line: the commit and its date when built from a git checkout (the commit's
// date, not the build's, so the same sources build the same dist/)
const git = (...args) => spawnSync('git', args, {cwd: root, encoding: 'utf8'})
const commit = git('rev-parse', '--short=12', 'HEAD')
if (commit.status === 0) {
  const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'src', 'bin', 'package.json').stdout.trim() !== ''
  const date = git('log', '-1', '--format=%cs', 'HEAD').stdout.trim()
  writeFileSync(join(dist, 'build-info.json'), `${JSON.stringify({commit: commit.stdout.trim() + (dirty ? '-dirty' : ''), date})}\n`)
}

/** Puts the staged build in place of dist/: the old one is moved aside, then removed. */
function swapIn(staged, target) {
  for (let tries = 0; ; tries++) {
    const old = `${target}.${process.pid}.${tries}.old`
    try {
      renameSync(target, old)
    } catch (error) {
      if (error.code !== 'ENOENT') throw error
    }
    try {
      renameSync(staged, target)
      rmSync(old, {recursive: true, force: true})
      return
    } catch (error) {
      rmSync(old, {recursive: true, force: true})
      // another build put its dist/ in place between our two renames: move that one aside too
      if ((error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') || tries > 20) throw error
    }
  }
}
swapIn(dist, finalDist)
// the manifest beside package.json, where oclif reads it (rewritten only when it changed)
const manifestPath = join(root, 'oclif.manifest.json')
if (!existsSync(manifestPath) || !readFileSync(manifestPath).equals(drawn.manifest)) writeFileSync(manifestPath, drawn.manifest)

// the built CLI draws its help (without a code cache: the build writes nothing outside dist/)
const smoke = spawnSync(process.execPath, [join(root, 'bin', 'run.cjs'), '--help'], {
  stdio: 'ignore',
  env: {...process.env, AMCTL_CODE_CACHE: 'off'},
})
if (smoke.status !== 0) throw new Error('the freshly built CLI failed to run `--help`')

const outputs = [
  ...Object.entries(cli.metafile.outputs),
  ...Object.entries(undici?.metafile.outputs ?? {}),
  ...Object.entries(devserver.metafile.outputs),
  ...Object.entries(completion.metafile.outputs),
  ...Object.entries(ownFile.metafile.outputs),
  ...Object.entries(loose.metafile.outputs),
  ...Object.entries(jq.metafile.outputs),
  ...Object.entries(xml.metafile.outputs),
  ...Object.entries(stats.metafile.outputs),
  ...Object.entries(colour.metafile.outputs),
]
outputs.push([join(dist, 'jq.wasm'), {bytes: statSync(join(finalDist, 'jq.wasm')).size}])
outputs.push([join(dist, 'jq-worker.cjs'), {bytes: statSync(join(finalDist, 'jq-worker.cjs')).size}])
const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`
console.log(
  `built ${commands.length} commands into ${relative(process.cwd(), finalDist) || 'dist'}: ${outputs.map(([f, o]) => `${relative(dist, f)} ${kib(o.bytes)}`).join(', ')}`,
)
if (analyze) {
  const inputs = Object.entries(cli.metafile.outputs)[0][1].inputs
  const byPackage = new Map()
  for (const [input, {bytesInOutput}] of Object.entries(inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'amctl'
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytesInOutput)
  }
  for (const [pkg, bytes] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`${kib(bytes).padStart(9)}  ${pkg}`)
}
