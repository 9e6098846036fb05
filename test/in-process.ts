// Runs before every unit test file (vitest.config.ts): a unit test runs in this process and
// nowhere else. Starting a program, a worker thread, listening on a socket or connecting to one
// throws, naming the rule, so a file that needs any of them cannot sit in the unit project
// unnoticed (issue 31 §2): it belongs to the integration project, whole (INTEGRATION in
// vitest.config.ts) or for its tests that need it (`<name>.integration.test.ts` beside it).
// A guard, not a fake: nothing is answered in their place. Requests of commands go through the
// fake API's transport (test/helpers/fake-api.ts), which needs none of them.
import childProcess from 'node:child_process'
import {syncBuiltinESMExports} from 'node:module'
import net from 'node:net'
import workerThreads from 'node:worker_threads'

const refused = (what: string): Error =>
  new Error(
    `${what}: a unit test runs in process (no child process, no worker thread, no socket); ` +
      'put it in the integration project: the file in INTEGRATION (vitest.config.ts), or the test in <name>.integration.test.ts',
  )

const guarded = globalThis as {amctlInProcess?: true}
if (!guarded.amctlInProcess) {
  guarded.amctlInProcess = true
  const programs = childProcess as unknown as Record<string, unknown>
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    programs[name] = () => {
      throw refused(`child_process.${name}`)
    }
  }
  net.Server.prototype.listen = function listen(): never {
    throw refused('listening on a socket')
  }
  net.Socket.prototype.connect = function connect(): never {
    throw refused('connecting to a socket')
  }
  ;(workerThreads as {Worker: unknown}).Worker = class {
    constructor() {
      throw refused('a worker thread')
    }
  }
  syncBuiltinESMExports()
}
