#!/usr/bin/env node
// What each piece of the start-up machinery (bin/build/) buys: for each piece, amctl built
// without it (`node bin/build.js --without PIECE`, in a copy of the project) against amctl built
// with everything, alternating, in the clean environment of `npm run bench`.
//
//   node bench/ablate.mjs [--reps N] [PIECE …]
//
// PIECE is a name bin/build/plugins.cjs knows (lazy:readline, undici-apart, patch:@oclif/core,
// patch:@oclif/core/lib/screen.js, …), minify-whitespace, or one of the same build's switches:
// code-cache (AMCTL_CODE_CACHE=off), help-cache (AMCTL_HELP_CACHE=off: help drawn by oclif).
// Without PIECE, every one. Prints, per piece and command, the median CPU time (user + system, as
// the process itself counts it at exit: on a busy machine steadier than wall time) with and
// without it. The last column is not an amctl command: dist/undici.cjs loaded and its
// EnvHttpProxyAgent made, with node:tls loaded first, as a request through a proxy starts (an
// HTTPS request loads tls anyway): what slim-undici, liftoff, lazy:assert and patch:undici shape,
// since only such a request reads dist/undici.cjs.

import {spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {devServer, median, node, world} from './harness.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const {pieceNames} = createRequire(import.meta.url)(join(root, 'bin', 'build', 'plugins.cjs'))
const args = process.argv.slice(2)
const repsAt = args.indexOf('--reps')
const reps = repsAt < 0 ? 20 : Number(args[repsAt + 1])
const named = args.filter((a, i) => !a.startsWith('--') && (repsAt < 0 || i !== repsAt + 1))
/** The pieces that are a switch of the same build: the environment that turns each off. */
const SWITCHES = {'code-cache': {AMCTL_CODE_CACHE: 'off'}, 'help-cache': {AMCTL_HELP_CACHE: 'off'}}
const pieces = named.length > 0 ? named : [...Object.keys(SWITCHES), ...pieceNames(), 'minify-whitespace']

const w = world()
/** The project copied (sources, bin/, patches/, manifest; node_modules linked) and built without `without`. */
function buildCopy(name, without) {
  const dir = join(w.work, name)
  mkdirSync(dir)
  for (const entry of ['bin', 'src', 'patches', 'package.json', 'oclif.manifest.json'])
    cpSync(join(root, entry), join(dir, entry), {recursive: true})
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  const r = spawnSync(node, [join(dir, 'bin', 'build.js'), ...(without ? ['--without', without] : [])], {cwd: dir, encoding: 'utf8'})
  if (r.status !== 0) throw new Error(`build ${name} failed: ${r.stderr}`)
  return join(dir, 'bin', 'run.cjs')
}

/** The undici column's argv for a build: dist/undici.cjs loaded and a proxy agent made. */
const undiciStart = (bin) => [
  '-e',
  `require('node:tls'); new (require(${JSON.stringify(join(dirname(bin), '..', 'dist', 'undici.cjs'))}).EnvHttpProxyAgent)()`,
]

const full = buildCopy('full')
// each measured process writes its own CPU time at exit
const cpuFile = join(w.work, 'cpu.txt')
const cpuHook = join(w.work, 'cpu.cjs')
writeFileSync(
  cpuHook,
  `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(${JSON.stringify(cpuFile)}, String(u.user + u.system)) })\n`,
)
const cpu = (argv, env) => {
  w.once([node, '--require', cpuHook, ...argv], {env})
  return Number(readFileSync(cpuFile, 'utf8')) / 1000
}
/** Alternates A and B after a warm-up (`env` for both, `bEnv` for B too): median CPU ms of each. */
const compareCpu = (a, b, env, bEnv) => {
  for (let i = 0; i < 3; i++) {
    cpu(a, env)
    cpu(b, {...env, ...bEnv})
  }
  const A = []
  const B = []
  for (let i = 0; i < reps; i++) {
    A.push(cpu(a, env))
    B.push(cpu(b, {...env, ...bEnv}))
  }
  return {a: median(A), b: median(B)}
}
const server = await devServer(full, w.clean, {acme: 10_000})
/** The columns: amctl's argv (or 'undici'), the environment of both builds, the heading. */
const commands = [
  ...[['--help'], ['runs', 'list', '--help'], ['config', 'list'], ['runs', 'list', '--json', '--limit', '50']].map((argv) => ({
    argv,
    env: {},
    heading: `\`amctl ${argv.join(' ')}\``,
  })),
  // help drawn by oclif, as a terminal's first help at its width is
  {argv: ['runs', 'list', '--help'], env: {AMCTL_HELP_CACHE: 'off'}, heading: '`runs list --help` drawn by oclif'},
  {argv: 'undici', env: {}, heading: 'dist/undici.cjs, a proxy agent'},
]
try {
  console.log(`| piece | ${commands.map((c) => c.heading).join(' | ')} |`)
  console.log(`|---|${commands.map(() => '---').join('|')}|`)
  for (const piece of pieces) {
    const bin = SWITCHES[piece] ? full : buildCopy(piece.replace(/\W/g, '-'), piece)
    const cells = commands.map(({argv, env}) => {
      const bEnv = SWITCHES[piece] ?? {}
      const r =
        argv === 'undici'
          ? compareCpu(undiciStart(full), undiciStart(bin), env, bEnv)
          : compareCpu([full, ...argv], [bin, ...argv], env, bEnv)
      return `${r.a.toFixed(1)} → ${r.b.toFixed(1)} ms (${r.b - r.a >= 0 ? '+' : ''}${(r.b - r.a).toFixed(1)})`
    })
    console.log(`| without ${piece} | ${cells.join(' | ')} |`)
  }
} finally {
  await server.stop()
  w.remove()
}
