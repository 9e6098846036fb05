// Runs before every test file: nothing a test does may touch the developer's own config,
// credentials or keychain, and no AMCTL_* variable from the shell leaks into a test.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

for (const key of Object.keys(process.env)) {
  if (key.startsWith('AMCTL_') || key === 'HTTPS_PROXY' || key === 'HTTP_PROXY' || key === 'https_proxy' || key === 'http_proxy') {
    delete process.env[key]
  }
}
process.env.AMCTL_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'amctl-test-'))
// keytar is never tried in unit tests unless a test opts in (see test/core/auth/keychain.test.ts)
process.env.AMCTL_KEYCHAIN = 'off'
