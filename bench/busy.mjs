#!/usr/bin/env node
// The test suite on a loaded machine (issue 38 §5): no test may depend on the machine being idle.
//
//   node bench/busy.mjs [--busy N] [--project NAME]… [-- VITEST ARGS…]
//
// Starts N busy processes (default 3: `node -e 'for(;;){}'`, each a core's worth of work) beside
// `vitest run --project NAME` for each NAME in turn (default: unit, integration, e2e, faults), and
// kills them after, also when this script is interrupted. With --busy 0 it is the same runs on the
// machine as it is. Prints one row per project: its exit code, its wall time, and the load
// average (1 minute) before it and the highest seen during it (sampled every 5 s): the machine is
// usually shared, and other work adds to the N busy processes. Exits 1 when a project failed.
// The figures are in CONTRIBUTING.md ("Tests").

import {spawn} from 'node:child_process'
import {cpus, loadavg} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const rest = args.includes('--') ? args.splice(args.indexOf('--')).slice(1) : []
const value = (name) => args.flatMap((arg, i) => (arg === name ? [args[i + 1]] : []))
const busy = Number(value('--busy')[0] ?? 3)
if (!Number.isInteger(busy) || busy < 0) throw new Error(`--busy must be a whole number, got ${value('--busy')[0]}`)
const projects = value('--project').length > 0 ? value('--project') : ['unit', 'integration', 'e2e', 'faults']

/** The busy processes: each spins one core until it is killed (by its pid, nothing else). */
const spinners = Array.from({length: busy}, () => spawn(process.execPath, ['-e', 'for(;;){}'], {stdio: 'ignore'}))
const stop = () => {
  for (const spinner of spinners) if (spinner.exitCode === null && spinner.signalCode === null) spinner.kill('SIGKILL')
}
process.on('exit', stop)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stop()
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1))
  })
}

const load = () => loadavg()[0]
const vitest = join(root, 'node_modules', '.bin', 'vitest')
/** One project's run: its exit code, wall time, and the load average before it and at most during it. */
function run(project) {
  return new Promise((resolve) => {
    const before = load()
    let peak = before
    const sampler = setInterval(() => {
      peak = Math.max(peak, load())
    }, 5000)
    const started = performance.now()
    const child = spawn(vitest, ['run', '--project', project, ...rest], {cwd: root, stdio: 'inherit'})
    child.on('close', (code, signal) => {
      clearInterval(sampler)
      resolve({project, code: code ?? signal, seconds: (performance.now() - started) / 1000, before, peak: Math.max(peak, load())})
    })
  })
}

const rows = []
for (const project of projects) rows.push(await run(project))
stop()

const f2 = (n) => n.toFixed(2)
process.stdout.write(`\n${busy} busy process${busy === 1 ? '' : 'es'} on ${cpus().length} cores (node bench/busy.mjs)\n\n`)
process.stdout.write('| project | exit | wall | load average before | highest load average during |\n|---|--:|--:|--:|--:|\n')
for (const r of rows) {
  const wall = r.seconds >= 60 ? `${Math.floor(r.seconds / 60)} min ${Math.round(r.seconds % 60)} s` : `${r.seconds.toFixed(1)} s`
  process.stdout.write(`| ${r.project} | ${r.code} | ${wall} | ${f2(r.before)} | ${f2(r.peak)} |\n`)
}
process.exitCode = rows.every((r) => r.code === 0) ? 0 : 1
