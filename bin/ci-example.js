#!/usr/bin/env node
// examples/ci/report.xml and examples/ci/summary.md: the JUnit report and the Markdown summary that
// `amctl evals run --wait` writes, produced by the built CLI (bin/run.cjs) against the dev server
// (dist/devserver.cjs), and the same two files shown in docs/ci-reference.md between its
// <!-- ci-example:junit --> and <!-- ci-example:summary --> markers (and there too, the two CI
// examples of examples/ci between <!-- ci-example:github --> and <!-- ci-example:gitlab -->). `npm run docs` runs it after the
// build; test/e2e/ci-example.test.ts fails when the files are not what it writes.
//
// Deterministic: the dev server runs on a clock this script sets (so the seeded history, the
// launched runs' createdAt and the report's timestamp are fixed) with --run-seconds 0 and planned
// outcomes: first a history of 20 launches, ten minutes apart, whose scores the dev server draws
// from N(0.70, 0.03) with a fixed seed, then the launch of the example at CLOCK. The run IDs come
// from its counter. The one thing left to the moment is how long the CLI took to see each run
// finish (JUnit's `time`): those attributes are written 0.000.

import {spawn} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

/** The dev server's clock: runs launched "now" are created at this instant. */
export const CLOCK = Date.parse('2026-06-01T09:00:00.000Z')

/** The command of the example, as docs/ci-reference.md shows it. */
export const COMMAND = [
  'evals',
  'run',
  'es_acme_search',
  '--org',
  'acme',
  '--wait',
  '--min-score',
  '0.5',
  '--baseline',
  'history',
  '--junit',
  'reports/evals.xml',
  '--summary',
  'reports/evals.md',
]

/** The history of every target: 20 launches scoring N(0.70, 0.03) (an outcome plan with a seed). */
const HISTORY = {launches: 20, plan: {status: 'succeeded', mean: 0.7, sd: 0.03, seed: 1}}

/** How the launched runs end: one improves beyond noise, one is within noise, one regresses beyond it. */
const OUTCOMES = [
  {agent: 'claude-code', status: 'succeeded', score: 0.8},
  {agent: 'codex', status: 'succeeded', score: 0.68},
  {agent: 'cursor-agent', status: 'succeeded', score: 0.58},
]

/** The JUnit report's `time` attributes: the only values that depend on the moment. */
export function normalise(xml) {
  return xml.replace(/ time="[\d.]+"/g, ' time="0.000"')
}

function run(argv, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'run.cjs'), ...argv], {cwd, env, stdio: ['ignore', 'ignore', 'pipe']})
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stderr}))
  })
}

/** Runs the example against a fresh dev server; returns the two reports. */
export async function generate() {
  const {startDevServer} = require(join(root, 'dist', 'devserver.cjs'))
  // the clock: the history's launches ten minutes apart before CLOCK, then the example at CLOCK
  let clock = CLOCK - (HISTORY.launches + 1) * 600_000
  const server = await startDevServer({port: 0, runSeconds: 0, now: () => clock})
  const scratch = mkdtempSync(join(tmpdir(), 'amctl-ci-example-'))
  try {
    const hook = async (path, body, token) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: {'content-type': 'application/json', ...(token ? {authorization: `Bearer ${token}`} : {})},
        body: JSON.stringify(body),
      })
      if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`)
      return res.json()
    }
    const {token} = await hook('/_dev/tokens', {email: 'ada@example.com'})
    await hook('/_dev/orgs/acme/outcomes', {evalSetId: 'es_acme_search', ...HISTORY.plan, count: HISTORY.launches * OUTCOMES.length})
    for (let i = 0; i < HISTORY.launches; i++) {
      clock += 600_000
      await hook('/api/v1/orgs/acme/eval-sets/es_acme_search/run', {}, token)
    }
    clock = CLOCK
    for (const outcome of OUTCOMES) await hook('/_dev/orgs/acme/outcomes', {evalSetId: 'es_acme_search', ...outcome, count: 1})
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: scratch,
      AMCTL_BASE_URL: server.url,
      AMCTL_TOKEN: token,
      AMCTL_CONFIG_DIR: join(scratch, 'config'),
      AMCTL_KEYCHAIN: 'off',
      AMCTL_CODE_CACHE: 'off',
    }
    const result = await run(COMMAND, env, scratch)
    // the example shows a gate that fails: one run regressed beyond noise
    if (result.code !== 10) throw new Error(`the example exited ${result.code}, not 10:\n${result.stderr}`)
    return {
      xml: normalise(readFileSync(join(scratch, 'reports', 'evals.xml'), 'utf8')),
      md: readFileSync(join(scratch, 'reports', 'evals.md'), 'utf8'),
    }
  } finally {
    await server.close()
    rmSync(scratch, {recursive: true, force: true})
  }
}

/** docs/ci-reference.md with the two reports, and the two example files, between their markers. */
export function withReports(doc, {xml, md}) {
  const block = (name, fence, content) => {
    const start = `<!-- ci-example:${name} -->`
    const end = '<!-- ci-example:end -->'
    const from = doc.indexOf(start)
    const to = doc.indexOf(end, from)
    if (from < 0 || to < 0) throw new Error(`docs/ci-reference.md has no ${start} … ${end}`)
    doc = `${doc.slice(0, from + start.length)}\n${fence}\n${content}${fence.slice(0, 4)}\n${doc.slice(to)}`
  }
  block('github', '````yaml', readFileSync(join(root, 'examples', 'ci', 'github-actions.yml'), 'utf8'))
  block('gitlab', '````yaml', readFileSync(join(root, 'examples', 'ci', 'gitlab-ci.yml'), 'utf8'))
  block('junit', '````xml', xml)
  block('summary', '````markdown', md)
  return doc
}

export const FILES = {
  xml: join(root, 'examples', 'ci', 'report.xml'),
  md: join(root, 'examples', 'ci', 'summary.md'),
  doc: join(root, 'docs', 'ci-reference.md'),
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reports = await generate()
  writeFileSync(FILES.xml, reports.xml)
  writeFileSync(FILES.md, reports.md)
  writeFileSync(FILES.doc, withReports(readFileSync(FILES.doc, 'utf8'), reports))
  console.log('wrote examples/ci/report.xml, examples/ci/summary.md and their copies in docs/ci-reference.md')
}
