#!/usr/bin/env node
// The price list of amctl's start-up machinery (docs/performance.md, "The price list"): what each
// mechanism of bin/launcher.cjs and bin/build/ buys, in milliseconds, on each command it touches.
//
//   node bench/ablate.mjs [--pairs N] [--only NAME,…] [--base REV] [--out DIR] [--list]
//   node bench/ablate.mjs --report OUT/ablate-node20.json OUT/ablate-node24.json   one price list of both
//   npx -p node@24 node bench/ablate.mjs …       the same on Node 24 (the Node that runs it is measured)
//
// For each mechanism, amctl without it (a copy of the project built without it: a piece of
// bin/build/ left out with `bin/build.js --without`, or a small edit of the copy's bin/, each below;
// or the same build with the switch that turns it off) against amctl with everything, on each
// command the mechanism touches. Every process runs in the clean environment of `npm run bench`
// (`env -i PATH=$PATH HOME=$tmp`), logged in to a local dev server, stdout a pipe; each build and
// command keeps its own code cache (AMCTL_CACHE_DIR). A pair is one run of each build and one of
// the floor, `node -e 0`, in an order that rotates from pair to pair, after 3 warm-up pairs. The
// figure is the median of the pair-by-pair difference, without − with (what the mechanism buys:
// positive means faster with it), in wall time and in CPU time (user + system, as the process counts
// it at exit), each with its 95 % interval (distribution-free: order statistics of the differences).
// The load average is taken before and after each command's pairs.
//
// --base REV measures this checkout against the project at git REV (its bin/, src/, patches/,
// package.json and manifest) on every command: what the changes since REV buy (positive: faster
// now); mechanisms too only when --only names them.
// The table goes to stdout and OUT/ablate-node<major>.md, every sample to OUT/ablate-node<major>.json
// (OUT: .bench/).

import {spawn, spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {cpus, loadavg, release} from 'node:os'
import {dirname, join} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
import {devServer, median, node, world} from './harness.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const {jStat} = require('jstat')

const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const PAIRS = Number(option('--pairs', 40))
const WARMUP = 3
const only = option('--only', '')
const base = option('--base', undefined)
const outDir = option('--out', join(root, '.bench'))
const [major, minor] = process.versions.node.split('.').map(Number)

/** The commands: amctl's argv, and how it runs. */
const COMMANDS = {
  version: {argv: ['--version'], label: '`--version`'},
  help: {argv: ['--help'], label: '`--help`'},
  commandHelp: {argv: ['runs', 'list', '--help'], label: '`runs list --help`'},
  // a terminal's first help at its width, and every help with OCLIF_COLUMNS, FORCE_COLOR or DEBUG set
  drawnHelp: {argv: ['runs', 'list', '--help'], env: {AMCTL_HELP_CACHE: 'off'}, label: '`runs list --help` drawn by oclif'},
  terminalHelp: {argv: ['--help'], terminal: true, label: '`--help` on a terminal'},
  config: {argv: ['config', 'list'], label: '`config list`'},
  token: {argv: ['auth', 'token'], label: '`auth token`'},
  request: {argv: ['runs', 'list', '--json', '--limit', '50'], label: '`runs list --json --limit 50`'},
  // the only requests that load undici (src/core/http/transport.ts): HTTPS through HTTPS_PROXY
  proxied: {argv: ['runs', 'list', '--json', '--limit', '50'], proxied: true, label: 'the same through an HTTPS proxy'},
}
const BUNDLE = ['drawnHelp', 'config', 'token', 'request']
const LAUNCHER = 'bin/launcher.cjs'
/** An edit of the copy: `text` (found exactly once) gets `then` inserted after it, or is replaced by `by`. */
const after = (file, text, then) => ({file, from: text, to: text + then})
const swap = (file, from, to) => ({file, from, to})

/**
 * The mechanisms. `env`: the switch that turns it off in the same build; `without`: the piece
 * bin/build.js leaves out; `edits`: the copy's source without it; `touches`: the commands measured.
 */
const MECHANISMS = [
  {name: 'code-cache', what: 'the per-command V8 code cache (vm.Script)', env: {AMCTL_CODE_CACHE: 'off'}, touches: [...BUNDLE, 'proxied']},
  {
    name: 'node-compile-cache',
    what: "Node's own compile cache (module.enableCompileCache) instead of ours",
    minNode: [22, 1],
    edits: [
      after(
        LAUNCHER,
        'function loadBundle(file, argv = [], env = process.env) {\n',
        "  if (env.AMCTL_CODE_CACHE !== 'off') require('node:module').enableCompileCache(join(cacheDir(env), 'node-compile-cache'))\n  if (!existsSync(file)) return undefined\n  return {exports: require(file), save() {}}\n",
      ),
    ],
    touches: [...BUNDLE, 'proxied'],
  },
  {
    name: 'cache-per-command',
    what: 'a code cache per command, not one for all (the one written by `auth token` first)',
    edits: [after(LAUNCHER, 'function cacheSlug(argv) {\n', "  return 'all'\n")],
    // every command of the variant uses the one cache `auth token` wrote
    shared: ['auth', 'token'],
    touches: ['drawnHelp', 'config', 'request'],
  },
  {
    name: 'cache-check',
    what: "a code cache checked before V8 reads it, as two copies compared (a cost: V8 trusts the cache's bytes)",
    edits: [
      swap(LAUNCHER, '  return Buffer.concat([data, data])\n', '  return data\n'),
      swap(
        LAUNCHER,
        '  if (file === undefined || file.length === 0 || file.length % 2 !== 0) return undefined\n  const data = file.subarray(0, file.length / 2)\n  return data.equals(file.subarray(file.length / 2)) ? data : undefined\n',
        '  return file\n',
      ),
    ],
    touches: ['config', 'token', 'request'],
  },
  {
    name: 'liftoff',
    what: "--liftoff-only when undici loads (V8's baseline WebAssembly compiler only)",
    without: 'liftoff',
    touches: ['proxied'],
  },
  {
    name: 'help-at-build',
    what: 'help drawn at build time (dist/help/), and a terminal help kept per width',
    env: {AMCTL_HELP_CACHE: 'off'},
    touches: ['help', 'commandHelp', 'terminalHelp'],
  },
  {
    name: 'terminal-help-cache',
    what: "a terminal's help kept per width and colour (<cache dir>/help/, dist/help-colour.cjs)",
    edits: [after(LAUNCHER, 'function terminalHelp(argv, root, pjson, built, env) {\n', '  return undefined\n')],
    touches: ['terminalHelp'],
  },
  {
    name: 'stdout-getter',
    what: 'process.stdout made only when something needs it (a getter on process; bin/run.cjs attaches its EPIPE handler then)',
    edits: [after(LAUNCHER, 'function whenStdoutMade(attach) {\n', '  attach(process.stdout)\n  return () => true\n')],
    touches: ['config', 'token', 'request'],
  },
  {
    name: 'direct-write',
    what: '--version and help written with writeSync, not process.stdout',
    edits: [after(LAUNCHER, 'function writeStdout(text) {\n', '  process.stdout.write(text)\n  return\n')],
    touches: ['version', 'help', 'commandHelp'],
  },
  {
    name: 'engine-warning-off',
    what: "OCLIF_DISABLE_ENGINE_WARNING set by bin/run.cjs (oclif's engines check loads semver)",
    edits: [swap('bin/run.cjs', "  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= '1'\n", '')],
    touches: BUNDLE,
  },
  {name: 'minify-whitespace', what: 'the bundle without whitespace', without: 'minify-whitespace', touches: BUNDLE},
  {
    name: 'ascii-bundle',
    what: 'the bundle escaped to ASCII (its source a one-byte string, not two-byte)',
    without: 'ascii',
    touches: BUNDLE,
  },
  {name: 'undici-apart', what: 'undici in dist/undici.cjs, not in the bundle', without: 'undici-apart', touches: [...BUNDLE, 'proxied']},
  {name: 'slim-undici', what: 'undici by its parts, not its index', without: 'slim-undici', touches: ['proxied']},
  ...pieceNames()
    .filter((name) => name.startsWith('patch:') && name.split('/').length > (name.startsWith('patch:@') ? 2 : 1))
    .map((name) => ({
      name,
      what: `the patch of ${name.slice('patch:'.length)}`,
      without: name,
      touches: name.startsWith('patch:undici') ? ['proxied'] : name.startsWith('patch:string-width') ? ['drawnHelp'] : BUNDLE,
    })),
  {
    name: 'lazy-stand-ins',
    what: 'every lazy stand-in (bin/build/lazy.cjs) at once',
    without: pieceNames()
      .filter((name) => name.startsWith('lazy:'))
      .join(','),
    touches: [...BUNDLE, 'proxied'],
  },
  ...pieceNames()
    .filter((name) => name.startsWith('lazy:'))
    .map((name) => ({
      name,
      what: `the lazy stand-in of ${name.slice('lazy:'.length)}`,
      without: name,
      touches: BUNDLE,
    })),
]

function pieceNames() {
  return require(join(root, 'bin', 'build', 'plugins.cjs')).pieceNames()
}

if (args.includes('--list')) {
  for (const m of MECHANISMS) console.log(`${m.name.padEnd(44)} ${m.what}`)
  process.exit(0)
}
if (args.includes('--report')) {
  report(args.slice(args.indexOf('--report') + 1))
  process.exit(0)
}

/**
 * `--report FILE…`: the runs saved in FILE… (OUT/ablate-node<major>.json, one per Node version)
 * as one price list: a row per mechanism, what it buys in CPU time on each command it touches,
 * per run; then a row per mechanism and command with wall time too.
 */
function report(files) {
  const runs = files.map((file) => JSON.parse(readFileSync(file, 'utf8')))
  const node = (run) => run.machine.match(/Node v(\d+)/)[1]
  const short = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`
  const range = ({median: m, low, high}) => `${short(m)} (${short(low)} to ${short(high)})`
  const names = [...new Set(runs.flatMap((run) => run.results.map((r) => r.mechanism)))]
  const heads = runs.map((run) => `Node ${node(run)}: CPU ms bought`)
  const out = [
    ...runs.map(
      (run) =>
        `- Node ${node(run)}: ${run.machine}, ${run.pairs} pairs per row, load average ${run.load.map((l) => l.toFixed(1)).join(' → ')}`,
    ),
    '',
    `| mechanism | ${heads.join(' | ')} |`,
    `|---|${heads.map(() => '---').join('|')}|`,
  ]
  for (const name of names) {
    const cells = runs.map((run) =>
      run.results
        .filter((r) => r.mechanism === name)
        .map((r) => `${r.label} ${range(r.bought.cpu)}`)
        .join('<br>'),
    )
    out.push(`| ${name} | ${cells.map((c) => c || 'not measured').join(' | ')} |`)
  }
  out.push('', `| mechanism | command | ${runs.map((run) => `Node ${node(run)}: with → without, CPU | wall ms bought`).join(' | ')} |`)
  out.push(`|---|---|${runs.map(() => '---').join('|')}|`)
  for (const name of names) {
    const commands = [...new Set(runs.flatMap((run) => run.results.filter((r) => r.mechanism === name).map((r) => r.label)))]
    for (const label of commands) {
      const cells = runs.map((run) => {
        const r = run.results.find((x) => x.mechanism === name && x.label === label)
        return r ? `${r.with.cpu.toFixed(1)} → ${r.without.cpu.toFixed(1)} | ${range(r.bought.wall)}` : ' | '
      })
      out.push(`| ${name} | ${label} | ${cells.join(' | ')} |`)
    }
  }
  process.stdout.write(`${out.join('\n')}\n`)
}
// (with --base, only the mechanisms --only names)
const chosen = only ? only.split(',') : base ? [] : MECHANISMS.map((m) => m.name)
for (const name of chosen) if (!MECHANISMS.some((m) => m.name === name)) throw new Error(`--only: no mechanism ${name} (--list names them)`)
const selected = MECHANISMS.filter(
  (m) => chosen.includes(m.name) && (!m.minNode || major > m.minNode[0] || (major === m.minNode[0] && minor >= m.minNode[1])),
)
if (base) selected.push({name: `since ${base}`, what: `this checkout against ${base}`, base, touches: Object.keys(COMMANDS)})

const w = world()
/** A copy of the project (from the working tree, or from git `rev`) with `edits`, built without `without`. */
function buildCopy(name, {without, edits = [], rev} = {}) {
  const dir = join(w.work, 'builds', name)
  mkdirSync(dir, {recursive: true})
  const entries = ['bin', 'src', 'patches', 'package.json', 'oclif.manifest.json']
  if (rev) {
    const tar = spawnSync('sh', ['-c', `git -C "${root}" archive "${rev}" -- ${entries.join(' ')} | tar -x -C "${dir}"`], {
      encoding: 'utf8',
    })
    if (tar.status !== 0) throw new Error(`git archive ${rev} failed: ${tar.stderr}`)
  } else for (const entry of entries) cpSync(join(root, entry), join(dir, entry), {recursive: true})
  for (const {file, from, to} of edits) {
    const text = readFileSync(join(dir, file), 'utf8')
    const at = text.indexOf(from)
    if (at < 0 || text.indexOf(from, at + 1) >= 0)
      throw new Error(`${name}: ${file} no longer holds ${JSON.stringify(from)} once: update bench/ablate.mjs`)
    writeFileSync(join(dir, file), text.slice(0, at) + to + text.slice(at + from.length))
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  const r = spawnSync(node, [join(dir, 'bin', 'build.js'), ...(without ? ['--without', without] : [])], {cwd: dir, encoding: 'utf8'})
  if (r.status !== 0) throw new Error(`build ${name} failed: ${r.stderr}`)
  return join(dir, 'bin', 'run.cjs')
}

// each measured process writes its CPU time at exit
const cpuFile = join(w.work, 'cpu.txt')
const cpuHook = join(w.work, 'cpu.cjs')
writeFileSync(
  cpuHook,
  `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(${JSON.stringify(cpuFile)}, String(u.user + u.system)) })\n`,
)
const quote = (a) => `'${a.replaceAll("'", "'\\''")}'`
/** One run: {wall, cpu} in ms. `argv` after `node --require <hook>`. */
function run(argv, env, terminal) {
  const full = [node, '--require', cpuHook, ...argv]
  const cmd = terminal ? ['script', '-qec', full.map(quote).join(' '), '/dev/null'] : full
  const {ms} = w.once(cmd, {env: terminal ? {TERM: 'xterm-256color', ...env} : env})
  return {wall: ms, cpu: Number(readFileSync(cpuFile, 'utf8')) / 1000}
}

/** The median of `xs` and its 95 % interval: order statistics k and n + 1 − k (distribution-free). */
function medianInterval(xs) {
  const s = [...xs].sort((a, b) => a - b)
  const n = s.length
  let k = 0
  while (jStat.binomial.cdf(k, n, 0.5) <= 0.025) k++
  // (k, 1-based: the smallest count whose lower tail is over 2.5 %, so P(fewer than k below) ≤ 2.5 %)
  return {median: median(s), low: s[Math.max(0, k - 1)], high: s[Math.min(n - 1, n - k)]}
}

let server
let proxy
const load = [loadavg()[0]]
const results = []
try {
  server = await devServer(buildCopy('full'), w.clean, {acme: 10_000})
  const full = join(w.work, 'builds', 'full', 'bin', 'run.cjs')
  if (selected.some((m) => m.touches.includes('proxied'))) {
    const child = spawn(node, [join(root, 'bench', 'tls-proxy.mjs'), server.baseUrl, w.work], {stdio: ['ignore', 'pipe', 'inherit']})
    const info = JSON.parse(await new Promise((resolve) => createInterface({input: child.stdout}).once('line', resolve)))
    proxy = {child, env: {AMCTL_BASE_URL: 'https://amctl.test', AMCTL_ORG: 'acme', HTTPS_PROXY: info.proxy, NODE_EXTRA_CA_CERTS: info.cert}}
  }
  const commandEnv = (command) => ({
    ...command.env,
    ...(command.proxied ? {...proxy.env, AMCTL_TOKEN: server.token} : {}),
  })
  console.error(`ablate: Node ${process.version}, ${PAIRS} pairs per figure, load average ${load[0].toFixed(1)}`)

  for (const m of selected) {
    const bin = m.env ? full : buildCopy(m.name.replace(/\W/g, '-'), {without: m.without, edits: m.edits, rev: m.base})
    const tag = m.name.replace(/\W/g, '-')
    const sharedCache = m.shared && join(w.work, 'cache', tag, 'shared')
    if (m.shared) run([bin, ...m.shared], {AMCTL_CACHE_DIR: sharedCache})
    for (const key of m.touches) {
      const command = COMMANDS[key]
      const env = commandEnv(command)
      const sides = {
        with: () => run([full, ...command.argv], {...env, AMCTL_CACHE_DIR: join(w.work, 'cache', 'full', key)}, command.terminal),
        without: () =>
          run(
            [bin, ...command.argv],
            {...env, ...m.env, AMCTL_CACHE_DIR: sharedCache ?? join(w.work, 'cache', tag, key)},
            command.terminal,
          ),
        floor: () => run(['-e', '0'], {}, command.terminal),
      }
      const order = ['with', 'without', 'floor']
      const samples = {with: [], without: [], floor: []}
      const loadBefore = loadavg()[0]
      for (let i = 0; i < WARMUP + PAIRS; i++) {
        for (let j = 0; j < 3; j++) {
          const side = order[(i + j) % 3]
          const sample = sides[side]()
          if (i >= WARMUP) samples[side].push(sample)
        }
      }
      const loadAfter = loadavg()[0]
      const diff = (measure) => medianInterval(samples.without.map((s, i) => s[measure] - samples.with[i][measure]))
      const of = (side, measure) => median(samples[side].map((s) => s[measure]))
      const result = {
        mechanism: m.name,
        what: m.what,
        command: key,
        label: command.label,
        with: {wall: of('with', 'wall'), cpu: of('with', 'cpu')},
        without: {wall: of('without', 'wall'), cpu: of('without', 'cpu')},
        floor: {wall: of('floor', 'wall'), cpu: of('floor', 'cpu')},
        bought: {wall: diff('wall'), cpu: diff('cpu')},
        load: [loadBefore, loadAfter],
        samples,
      }
      results.push(result)
      console.error(
        `  ${m.name}, ${command.label}: ${cell(result.bought.wall)} wall, ${cell(result.bought.cpu)} CPU (load ${loadBefore.toFixed(1)}–${loadAfter.toFixed(1)})`,
      )
    }
  }
} finally {
  proxy?.child.kill()
  await server?.stop()
  w.remove()
}
load.push(loadavg()[0])

function cell({median: m, low, high}) {
  const sign = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`
  return `${sign(m)} (${sign(low)} to ${sign(high)})`
}
const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Linux ${release()}, Node ${process.version}`
const lines = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}; ${PAIRS} pairs per row; load average ${load[0].toFixed(1)} at the start, ${load[1].toFixed(1)} at the end.`,
  'ms bought: median of (without − with) pair by pair, 95 % interval in brackets; positive = faster with the mechanism.',
  '',
  '| mechanism | command | with (wall) | without | `node -e 0` | ms bought, wall | ms bought, CPU | load |',
  '|---|---|--:|--:|--:|--:|--:|--:|',
  ...results.map(
    (r) =>
      `| ${r.mechanism} | ${r.label} | ${r.with.wall.toFixed(1)} | ${r.without.wall.toFixed(1)} | ${r.floor.wall.toFixed(1)} | ${cell(r.bought.wall)} | ${cell(r.bought.cpu)} | ${r.load.map((l) => l.toFixed(1)).join('–')} |`,
  ),
]
const md = `${lines.join('\n')}\n`
mkdirSync(outDir, {recursive: true})
writeFileSync(join(outDir, `ablate-node${major}.md`), md)
writeFileSync(join(outDir, `ablate-node${major}.json`), `${JSON.stringify({machine, pairs: PAIRS, load, results}, null, 1)}\n`)
process.stdout.write(`\n${md}`)
