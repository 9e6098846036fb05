// Runs before every test file: the test process's environment is cut down to the sealed one
// (test/helpers/env.ts: an allow-list, whatever the shell or the CI runner set), and nothing a
// test does may touch the developer's own config, credentials or keychain.
import {rmdirSync} from 'node:fs'
import {afterAll} from 'vitest'
import {sealProcessEnv, setFileSettings} from './helpers/env.js'
import {removeTempDirs, tempDir} from './helpers/temp.js'

sealProcessEnv()
// a unique path that does not exist yet: amctl creates it when it writes (and a test file that is
// skipped as a whole, whose afterAll never runs, leaves nothing behind)
const configDir = tempDir('amctl-test-')
rmdirSync(configDir)
// and a cache directory of its own (the completion cache: src/core/recent.ts), made when written
const cacheDir = tempDir('amctl-test-cache-')
rmdirSync(cacheDir)
// the keychain is never tried in unit tests unless a test opts in (see test/core/auth/keychain.test.ts)
const settings = {AMCTL_CONFIG_DIR: configDir, AMCTL_CACHE_DIR: cacheDir, AMCTL_KEYCHAIN: 'off'}
setFileSettings(settings)
// (also in the process's environment: what a library reads there is the sealed run's too)
Object.assign(process.env, settings)

afterAll(removeTempDirs)
