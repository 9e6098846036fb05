import {spawnSync} from 'node:child_process'
import {join} from 'node:path'
import {stripVTControlCharacters} from 'node:util'
import {describe, expect, it} from 'vitest'
import {ROOT} from './cli.js'
import {sealedEnv} from './env.js'

// `vitest -t NAME` on a file whose fake API has a default that only the tests left out use
// (./fake-api-filter.test.ts): vitest itself, in a child process, so that what its runner marks
// as not run is what the fake API reads (test/helpers/fake-api.ts: the defaults are judged only
// when every test of the file ran and passed).

const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
const FILE = 'test/helpers/fake-api-filter.test.ts'

function vitest(...args: string[]): {status: number | null; output: string} {
  const r = spawnSync(process.execPath, [VITEST, 'run', '--project', 'unit', FILE, ...args], {
    cwd: ROOT,
    env: sealedEnv(),
    encoding: 'utf8',
  })
  return {status: r.status, output: stripVTControlCharacters(r.stdout + r.stderr)}
}

describe('the fake API under vitest -t', () => {
  it('one test of a file with a default that test does not use runs alone, and the file passes', () => {
    const r = vitest('-t', 'is not needed by a test that does not send it')
    expect(r.status, r.output).toBe(0)
    expect(r.output).toMatch(/Tests +1 passed \| 1 skipped \(2\)/)
    expect(r.output).not.toContain('default no test used')
  })
})
