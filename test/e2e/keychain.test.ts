import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {freshConfigDir, runBin} from '../helpers/bin.js'
import {sendJson, startServer, type TestServer} from '../helpers/http-server.js'
import {keychainRequired, probeSecretService} from '../helpers/secret-service.js'
import {harness} from '../helpers/env.js'

// The real OS keychain path: @napi-rs/keyring → Secret Service (gnome-keyring under .ci/run). Runs when a
// Secret Service answers; otherwise it is skipped and says why. AMCTL_REQUIRE_KEYCHAIN=1 (set by
// .ci/run inside dbus-run-session) turns a missing keychain into a failure, so CI proves it ran.

const {problem: unavailable} = await probeSecretService()
if (unavailable && !keychainRequired) {
  console.warn(
    `[keychain test] SKIPPED: no usable OS keychain here (${unavailable}). .ci/run runs it inside dbus-run-session with gnome-keyring.`,
  )
}

const TOKEN = 'svc_keychain_roundtrip_7c1e'
const ME = {id: 'usr_1', email: 'ada@acme.test', name: 'Ada', orgs: [{slug: 'acme', publicId: 'org_1', name: 'Acme'}]}

describe.skipIf(Boolean(unavailable) && !keychainRequired)('the real OS keychain', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.headers.authorization === `Bearer ${TOKEN}`) sendJson(res, 200, ME)
      else sendJson(res, 401, {error: {code: 'unauthorized', message: 'invalid token'}})
    })
  })
  afterAll(() => server?.close())

  it('is available (AMCTL_REQUIRE_KEYCHAIN=1)', () => {
    expect(unavailable, 'keychain probe').toBeUndefined()
  })

  it('login stores the token in the keychain, status reads it, logout removes it', async () => {
    const configDir = freshConfigDir()
    const env = {AMCTL_CONFIG_DIR: configDir, AMCTL_KEYCHAIN: undefined, DBUS_SESSION_BUS_ADDRESS: harness.dbusAddress}

    const login = await runBin(['auth', 'login', '--with-token', '--base-url', server.url], {env, input: `${TOKEN}\n`})
    expect(login.stderr).toContain(`Logged in to ${server.url} as ada@acme.test (acme)`)
    expect(login.exitCode).toBe(0)
    expect(login.stderr).not.toMatch(/keychain is not available/)
    const file = join(configDir, 'credentials.json')
    if (existsSync(file)) expect(readFileSync(file, 'utf8')).not.toContain(TOKEN)

    const status = await runBin(['auth', 'status', '--json'], {env})
    expect(status.exitCode).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({tokenSource: 'keychain', token: 'svc_…7c1e'})

    const logout = await runBin(['auth', 'logout'], {env})
    expect(logout.exitCode).toBe(0)
    expect(logout.stderr).toContain('removed from keychain')

    const after = await runBin(['auth', 'status'], {env})
    expect(after.exitCode).toBe(3)
  })
})
