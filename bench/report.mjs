#!/usr/bin/env node
// The HTML report's figures (issue 36 §2; docs/performance.md "The HTML report"), each beside a
// floor measured in the same run, every process in a clean environment (bench/harness.mjs):
//
// 1. `amctl evals report` of one eval set of 10,000 runs (the dev server's globex): its size
//    (≤ 1.5 MB), and its first paint in headless Chromium (Debian's, through playwright-core:
//    first-contentful-paint of the Paint Timing API, and the time from navigation to the end of
//    the first frame after `load`, the table built), beside an empty page opened the same way
//    (≤ 1 s; the ratio is said too).
// 2. `amctl evals report` of 100,000 runs (every run of the window kept for the table) beside the
//    pagination floor (bench/floor-paginate.mjs: the same requests, 200 to a page, writing every
//    run): ≤ 1.1×, peak RSS ≤ 100 MB.
//
//   node bench/report.mjs [--quick] [--out DIR]

import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {devServer, median, node, world} from './harness.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const outDir = args.includes('--out') ? args[args.indexOf('--out') + 1] : join(root, '.bench')
const bin = join(root, 'bin', 'run.cjs')
const PAINTS = quick ? 3 : 7
const REPS = quick ? 2 : 5
const SMALL = 10_000
const BIG = 100_000
const say = (line) => console.error(`  ${line}`)
const results = []

const w = world()
const amctl = (...argv) => [node, bin, ...argv]

/** `evals report` of globex's one eval set, every run (--window 0), into `file`. */
const report = (file) => amctl('evals', 'report', 'es_globex_onboarding', '--org', 'globex', '--window', '0', '--html', file)

async function paints(files) {
  const {chromium} = require('playwright-core')
  const browser = await chromium.launch({
    executablePath: process.env.AMCTL_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    env: w.clean,
  })
  const out = Object.fromEntries(Object.keys(files).map((k) => [k, {fcp: [], frame: []}]))
  try {
    for (let i = 0; i < PAINTS; i++) {
      for (const [name, file] of Object.entries(files)) {
        const context = await browser.newContext({viewport: {width: 1024, height: 768}})
        const page = await context.newPage()
        const started = performance.now()
        await page.goto(pathToFileURL(file).href, {waitUntil: 'load'})
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
        const frame = performance.now() - started
        // (the entry may be queued after the frame: observed, buffered, rather than looked up once)
        const fcp = await page.evaluate(
          () =>
            new Promise((resolve) => {
              new PerformanceObserver((list) => {
                const entry = list.getEntriesByName('first-contentful-paint')[0]
                if (entry) resolve(entry.startTime)
              }).observe({type: 'paint', buffered: true})
              setTimeout(() => resolve(Number.NaN), 5000)
            }),
        )
        out[name].fcp.push(fcp)
        out[name].frame.push(frame)
        await context.close()
      }
    }
  } finally {
    await browser.close()
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, {fcp: median(v.fcp), frame: median(v.frame)}]))
}

try {
  // --- 1. one report of 10,000 runs: its size, and its first paint beside an empty page's
  say(`evals report of ${SMALL.toLocaleString('en-US')} runs, first paint in Chromium (${PAINTS} alternating loads)…`)
  let server = await devServer(bin, w.clean, {globex: SMALL})
  const small = join(w.work, 'small.html')
  const empty = join(w.work, 'empty.html')
  try {
    w.once(report(small))
  } finally {
    await server.stop()
  }
  writeFileSync(
    empty,
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>empty</title></head><body><h1>Report</h1></body></html>\n',
  )
  const bytes = statSync(small).size
  const runs =
    readFileSync(small, 'utf8')
      .match(/"id":\[(.*?)\]/s)?.[1]
      .split(',').length ?? 0
  const painted = await paints({report: small, empty})
  results.push(
    {
      figure: `size of a report of ${runs.toLocaleString('en-US')} runs`,
      value: bytes / 1e6,
      unit: 'MB',
      target: 1.5,
      pass: bytes / 1e6 <= 1.5,
    },
    {
      figure: `first contentful paint of that report`,
      floor: 'an empty page',
      value: painted.report.fcp,
      floorValue: painted.empty.fcp,
      ratio: painted.report.fcp / painted.empty.fcp,
      unit: 'ms',
      target: 1000,
      pass: painted.report.fcp <= 1000,
    },
    {
      figure: 'its first frame after load (charts drawn, table built)',
      floor: 'an empty page',
      value: painted.report.frame,
      floorValue: painted.empty.frame,
      ratio: painted.report.frame / painted.empty.frame,
      unit: 'ms',
      target: 1000,
      pass: painted.report.frame <= 1000,
    },
  )

  // --- 2. 100,000 runs written, beside the pagination floor
  say(`evals report of ${BIG.toLocaleString('en-US')} runs beside the pagination floor, ${REPS} alternating repetitions…`)
  server = await devServer(bin, w.clean, {globex: BIG})
  try {
    const big = join(w.work, 'big.html')
    const r = w.compare(
      report(big),
      [
        node,
        '--liftoff-only',
        join(root, 'bench', 'floor-paginate.mjs'),
        `${server.baseUrl}/api/v1/orgs/globex/runs?limit=200`,
        server.token,
      ],
      {reps: REPS, warmup: 1, rss: true},
    )
    results.push(
      {
        figure: `\`amctl evals report\` of ${BIG.toLocaleString('en-US')} runs`,
        floor: 'the undici cursor loop, 200 to a page',
        value: r.a,
        floorValue: r.b,
        ratio: r.a / r.b,
        spread: r.spread,
        unit: 'ms',
        target: '1.1×',
        pass: r.a / r.b <= 1.1,
        size: statSync(big).size / 1e6,
      },
      {
        figure: `peak RSS of \`evals report\` of ${BIG.toLocaleString('en-US')} runs`,
        value: r.aRss,
        floorValue: r.bRss,
        unit: 'MB',
        target: 100,
        pass: r.aRss <= 100,
      },
    )
  } finally {
    await server.stop()
  }
} finally {
  w.remove()
}

const fmt = (n) => (typeof n === 'number' ? (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2)) : String(n ?? ''))
const table = [
  '| figure | floor | amctl | floor | ratio | target | |',
  '|---|---|--:|--:|--:|---|---|',
  ...results.map(
    (r) =>
      `| ${r.figure} | ${r.floor ?? ''} | ${fmt(r.value)} ${r.unit}${r.size ? ` (${r.size.toFixed(1)} MB written)` : ''} | ${r.floorValue === undefined ? '' : `${fmt(r.floorValue)} ${r.unit}`} | ${r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×${r.spread ? ` (${r.spread[0].toFixed(2)}–${r.spread[1].toFixed(2)})` : ''}`} | ≤ ${r.target}${typeof r.target === 'number' ? ` ${r.unit}` : ''} | ${r.pass ? '✓' : '✗'} |`,
  ),
]
mkdirSync(outDir, {recursive: true})
writeFileSync(join(outDir, 'report.md'), `${table.join('\n')}\n`)
writeFileSync(join(outDir, 'report.json'), `${JSON.stringify(results, null, 2)}\n`)
console.log(table.join('\n'))
process.exitCode = results.every((r) => r.pass) ? 0 : 1
