#!/usr/bin/env node
// Where the time of one amctl command goes: V8 CPU profiles (`node --cpu-prof`) of `--runs`
// runs, in the clean environment of `npm run bench` (logged in to a local dev server), each
// sample put in a category by its stack, averaged per run.
//
//   node bench/profile.mjs [--runs N] [--interval µs] [--functions] -- ARGS…      e.g.  -- runs list --json --limit 50
//
// amctl is built for it in a copy of the project with a source map and without whitespace
// minification (`node bin/build.js --sourcemap --without minify-whitespace`), so that time in
// the bundle is put to the package it comes from. The code cache is made by a profiled run
// first (V8 rejects a cache made under other flags). Figures are under the profiler, which
// slows a run down; the shares are what to read.
//
// Categories: Node's start and exit (what `node -e 0` does too); built-in modules loaded on
// first require; reading the bundle and its code cache; the code cache deserialized; each
// package's JavaScript (with the Node APIs it calls); garbage collection; waiting (I/O, the
// server); native work the profiler cannot place.

import {spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync} from 'node:fs'
import {SourceMap} from 'node:module'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {devServer, node, world} from './harness.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback)
const runs = option('--runs', 20)
const interval = option('--interval', 100)
const argv = args.includes('--') ? args.slice(args.indexOf('--') + 1) : ['--help']

const w = world()
const copy = join(w.work, 'amctl')
mkdirSync(copy)
for (const entry of ['bin', 'src', 'patches', 'package.json', 'oclif.manifest.json'])
  cpSync(join(root, entry), join(copy, entry), {recursive: true})
symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'))
const built = spawnSync(node, [join(copy, 'bin', 'build.js'), '--sourcemap', '--without', 'minify-whitespace'], {
  cwd: copy,
  encoding: 'utf8',
})
if (built.status !== 0) throw new Error(built.stderr)
const bin = join(copy, 'bin', 'run.cjs')
const bundle = join(copy, 'dist', 'amctl.cjs')
const map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')))

const server = await devServer(bin, w.clean, {acme: 10_000})
const profiles = join(w.work, 'profiles')
try {
  const profiled = (dir) => w.once([node, '--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${interval}`, bin, ...argv])
  profiled(join(w.work, 'warm-up'))
  for (let i = 0; i < runs; i++) profiled(profiles)
} finally {
  await server.stop()
}

/** The package a position of the bundle comes from: `amctl` for src/, else the npm package. */
const packageAt = (line, column) => {
  const source = map.findEntry(line, column)?.originalSource ?? ''
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules)/.exec(source)?.[1]
  if (pkg) return pkg.startsWith('@oclif/') || pkg === 'ejs' ? '@oclif/core (and ejs)' : pkg === 'undici' ? 'undici' : 'other packages'
  return source.includes('/src/') || source.startsWith('src/') ? 'amctl (src/)' : 'bundle glue'
}

const totals = new Map()
const add = (category, us) => totals.set(category, (totals.get(category) ?? 0) + us)
// --functions: the functions of the bundle with the most self time, by their original source
const functions = new Map()
for (const file of readdirSync(profiles)) {
  const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8'))
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const categoryOf = (id) => {
    const leaf = byId.get(id).callFrame
    if (leaf.functionName === '(garbage collector)') return 'garbage collection'
    if (leaf.functionName === '(idle)') return 'waiting (I/O, the server)'
    if (leaf.functionName === '(program)') return 'native work not placed by the profiler'
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const {functionName, url, lineNumber, columnNumber} = byId.get(at).callFrame
      if (functionName === 'compileForInternalLoader' || functionName === 'requireBuiltin') return 'Node built-in modules (first require)'
      if (url === 'node:vm' && functionName === 'Script') return 'code cache: the bundle deserialized'
      if (functionName === 'loadBundle' && url.endsWith('launcher.cjs')) return 'reading the bundle and its code cache'
      if (url.endsWith('amctl.cjs')) return packageAt(lineNumber, columnNumber)
      if (url.endsWith('run.cjs') || url.endsWith('launcher.cjs')) return 'amctl entry (bin/)'
    }
    return "Node's start and exit"
  }
  for (let i = 0; i < profile.samples.length; i++) {
    add(categoryOf(profile.samples[i]), profile.timeDeltas[i] ?? 0)
    const {functionName, url, lineNumber, columnNumber} = byId.get(profile.samples[i]).callFrame
    if (!url.endsWith('amctl.cjs')) continue
    const entry = map.findEntry(lineNumber, columnNumber)
    const key = `${functionName || '(anonymous)'} ${entry?.originalSource?.replace(/^.*?(node_modules\/|src\/)/, '$1')}:${(entry?.originalLine ?? 0) + 1}`
    functions.set(key, (functions.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0))
  }
}
w.remove()
rmSync(profiles, {recursive: true, force: true})

const all = [...totals.values()].reduce((a, b) => a + b, 0)
console.log(`\`amctl ${argv.join(' ')}\`: ${(all / runs / 1000).toFixed(1)} ms per run under the profiler (${runs} runs)\n`)
console.log('| where | ms per run | share |')
console.log('|---|---|---|')
for (const [category, us] of [...totals].sort((a, b) => b[1] - a[1])) {
  console.log(`| ${category} | ${(us / runs / 1000).toFixed(1)} | ${((us / all) * 100).toFixed(0)} % |`)
}
if (args.includes('--functions')) {
  console.log('\n| function of the bundle (self time) | ms per run |\n|---|---|')
  for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 20))
    console.log(`| ${key} | ${(us / runs / 1000).toFixed(2)} |`)
}
