import {defineConfig} from 'vitest/config'

// Three projects, one run: `npm test` runs them all (the build happens once, in the global
// setup, and only when a selected project needs it); `npm run test:unit|test:e2e|test:faults`
// pick one with --project.
//  unit    in-process tests of src/ (test/ mirrors src/); no build needed
//  e2e     the built CLI and artifacts: test/e2e, test/bin, test/release, the generated manifest and README,
//          and *.dist.test.ts beside a unit test (a module of dist/ in a child process)
//  faults  the reliability suite (test/faults), whose figures feed README "Reliability"
// Child processes, not worker threads: threads start faster, but a run in threads ended now and
// then with the whole process aborting (SIGABRT) as a worker was torn down.
const BUILT = [
  'test/e2e/**/*.test.ts',
  'test/bin/**/*.test.ts',
  'test/release/**/*.test.ts',
  'test/**/*.dist.test.ts',
  'test/manifest.test.ts',
  'test/readme.test.ts',
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
    projects: [
      {test: {...shared, name: 'unit', include: ['test/**/*.test.ts'], exclude: [...BUILT, 'test/faults/**']}},
      {test: {...shared, name: 'e2e', include: BUILT}},
      // its timeout cases run side by side (describe.concurrent): all of them at once
      {test: {...shared, name: 'faults', include: ['test/faults/**/*.test.ts'], maxConcurrency: 20}},
    ],
  },
})
