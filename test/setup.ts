// Runs before every test file: nothing a test does may touch the developer's own config,
// credentials or keychain, and no AMCTL_* variable from the shell leaks into a test.
import {rmdirSync} from 'node:fs'
import {afterAll} from 'vitest'
import {removeTempDirs, tempDir} from './helpers/temp.js'

// the harness's own switches are kept: they choose what runs (AMCTL_E2E_BIN, AMCTL_RELEASE_DIR, AMCTL_REQUIRE_KEYCHAIN
// from .ci/run), and runBin never passes them on to amctl
const HARNESS = new Set(['AMCTL_E2E_BIN', 'AMCTL_RELEASE_DIR', 'AMCTL_REQUIRE_KEYCHAIN', 'AMCTL_TEST_BUILD', 'AMCTL_TEST_REAL_HOME'])
for (const key of Object.keys(process.env)) {
  if (
    (key.startsWith('AMCTL_') && !HARNESS.has(key)) ||
    key === 'HTTPS_PROXY' ||
    key === 'HTTP_PROXY' ||
    key === 'https_proxy' ||
    key === 'http_proxy'
  ) {
    delete process.env[key]
  }
}
// a unique path that does not exist yet: amctl creates it when it writes (and a test file that is
// skipped as a whole, whose afterAll never runs, leaves nothing behind)
const configDir = tempDir('amctl-test-')
rmdirSync(configDir)
process.env.AMCTL_CONFIG_DIR = configDir
// and a cache directory of its own (the completion cache: src/core/recent.ts), made when written
const cacheDir = tempDir('amctl-test-cache-')
rmdirSync(cacheDir)
process.env.AMCTL_CACHE_DIR = cacheDir
// the keychain is never tried in unit tests unless a test opts in (see test/core/auth/keychain.test.ts)
process.env.AMCTL_KEYCHAIN = 'off'

afterAll(removeTempDirs)
