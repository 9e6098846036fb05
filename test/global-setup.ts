import {execFileSync} from 'node:child_process'
import {mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {homedir, tmpdir} from 'node:os'
import {join} from 'node:path'
import type {TestProject} from 'vitest/node'
import {browserTestsSkipped, SKIPPED_LINE} from './helpers/chromium.js'
import {MACHINE_NAMES} from './helpers/env.js'

/** The projects whose tests run the build (dist/); see vitest.config.ts. */
const NEEDS_BUILD = new Set(['e2e', 'faults', 'browser'])

/**
 * Once per test run: build dist/ when a selected project needs it (the end-to-end, fault and
 * browser suites run the built CLI; a missing build is a failure, never a skip), say once that
 * the browser project is skipped where no Chromium is installed, and give the run a
 * private temp root (TMPDIR for the test workers and every process they start) and a private
 * HOME (amctl keeps its code cache under ~/.cache/amctl: the tests' amctl processes write theirs
 * there, not in the developer's home). At the end the temp root must be empty: what a test
 * created and did not remove fails the run. The home goes with the run.
 */
export default function setup(project: TestProject): () => void {
  const home = mkdtempSync(join(tmpdir(), 'amctl-test-home-'))
  const root = mkdtempSync(join(tmpdir(), 'amctl-test-run-'))
  process.env.AMCTL_TEST_REAL_HOME = homedir()
  process.env.HOME = home
  process.env.TMPDIR = root
  const selected = project.vitest.projects.map((p) => p.name)
  // said once for the run, not once per file (on CI a missing Chromium fails the files instead)
  if (selected.includes('browser') && browserTestsSkipped) process.stderr.write(`${SKIPPED_LINE}\n`)
  if (process.env.AMCTL_TEST_BUILD !== 'skip' && selected.some((name) => NEEDS_BUILD.has(name))) {
    // (in the run's sealed environment, as every program a test starts: test/helpers/env.ts)
    const env = Object.fromEntries(MACHINE_NAMES.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])))
    execFileSync(process.execPath, ['bin/build.js'], {stdio: 'inherit', env})
  }
  return () => {
    const left = readdirSync(root)
    rmSync(root, {recursive: true, force: true})
    rmSync(home, {recursive: true, force: true})
    if (left.length > 0) {
      // a thrown error here is only logged by vitest: set the exit code so the run fails
      process.stderr.write(
        `\nFAIL the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in their temp root: ${left.slice(0, 12).join(', ')}\n`,
      )
      process.exitCode = 1
    }
  }
}
