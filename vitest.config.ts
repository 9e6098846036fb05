import {defineConfig} from 'vitest/config'

// Three projects, one run: `npm test` runs them all (the build happens once, in the global
// setup, and only when a selected project needs it); `npm run test:unit|test:e2e|test:faults`
// pick one with --project.
//  unit    in-process tests of src/ (test/ mirrors src/); no build needed
//  e2e     the built CLI and artifacts: test/e2e, test/bin, test/release, the generated manifest,
//          and *.dist.test.ts beside a unit test (a module of dist/ in a child process)
//  faults  the reliability suite (test/faults), whose figures feed docs/reliability.md
// The unit project runs its files one after another in a few worker processes (isolate: false),
// each file with fresh modules (test/fresh-file.ts): Node, vitest and the packages start once per
// worker, not once per file, which was most of the suite's time (figures: docs/performance.md,
// "The unit suite's time"). e2e and faults keep a process per file: their time goes to the child
// processes they start. Child processes, not worker threads: process.umask(mask), which the tests of private files
// use, throws in a worker thread, and a run in threads once ended with the whole process aborting
// (SIGABRT) as a worker was torn down.
const BUILT = [
  'test/e2e/**/*.test.ts',
  'test/bin/**/*.test.ts',
  'test/release/**/*.test.ts',
  'test/**/*.dist.test.ts',
  'test/manifest.test.ts',
  // CONTRIBUTING's walk-through, run in a copy of the repository: its own build, its own test runs
  'test/contributing.test.ts',
]

const shared = {
  pool: 'forks' as const,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // every test gets a throwaway config dir; nothing touches the user's real config or keychain
  setupFiles: ['test/setup.ts'],
}

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
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...BUILT, 'test/faults/**'],
          isolate: false,
          setupFiles: ['test/fresh-file.ts', ...shared.setupFiles],
        },
      },
      {test: {...shared, name: 'e2e', include: BUILT}},
      // its timeout cases run side by side (describe.concurrent): all of them at once
      {test: {...shared, name: 'faults', include: ['test/faults/**/*.test.ts'], maxConcurrency: 20}},
    ],
  },
})
