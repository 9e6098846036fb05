// Runs first before every unit test file (vitest.config.ts). The unit project runs many test files
// one after another in each worker process (isolate: false), so that Node, vitest and the packages
// loaded natively from node_modules (oclif, undici, ajv…) start once per worker instead of once
// per file. This gives each file back what a process of its own gave it:
//  - fresh src/ and test/ modules: module state (the clock, the IO, caches, temp dirs, the fake
//    API of the file) and each file's vi.mock start anew;
//  - the environment the worker started with (test/setup.ts then seals it: test/helpers/env.ts);
//  - real timers and no exit code.
// What files share is the process and the packages' own state.
import {vi} from 'vitest'

const worker = globalThis as {amctlTestEnv?: Record<string, string | undefined>}
worker.amctlTestEnv ??= {...process.env}
for (const key of Object.keys(process.env)) {
  if (!Object.hasOwn(worker.amctlTestEnv, key)) delete process.env[key]
}
Object.assign(process.env, worker.amctlTestEnv)
process.exitCode = undefined
vi.useRealTimers()
vi.resetModules()
