import {existsSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runBin} from '../helpers/bin.js'
import {harness, runHome} from '../helpers/env.js'

// The test run leaves the developer's home alone (test/global-setup.ts): amctl keeps a code cache
// under ~/.cache/amctl, and the amctl processes of the tests keep theirs in the run's own HOME.

/** Every file under dir, recursively (none when it does not exist). */
function files(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, {recursive: true, encoding: 'utf8'}).sort() : []
}

describe('the test harness', () => {
  it("runs amctl with the run's own HOME: its cache goes there, never into the developer's", async () => {
    const real = harness.realHome as string
    expect(real, 'set by the global setup').toBeTruthy()
    expect(runHome()).not.toBe(real)
    const realCache = join(real, '.cache', 'amctl')
    const before = files(realCache)

    const r = await runBin(['harness-probe-command'])
    expect(r.exitCode).toBe(2)

    expect(files(join(runHome(), '.cache', 'amctl')).length).toBeGreaterThan(0)
    expect(files(realCache)).toEqual(before)
  })
})
