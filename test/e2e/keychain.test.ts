import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {freshConfigDir, runBin} from '../helpers/bin.js'
import {sendJson, startServer, type TestServer} from '../helpers/http-server.js'

// The real OS keychain path: @napi-rs/keyring → Secret Service (gnome-keyring under .ci/run). Runs when a
// Secret Service answers; otherwise it is skipped and says why. AMCTL_REQUIRE_KEYCHAIN=1 (set by
// .ci/run inside dbus-run-session) turns a missing keychain into a failure, so CI proves it ran.

async function probe(): Promise<string | undefined> {
  try {
    const mod = (await import('@napi-rs/keyring/keytar.js')) as {
      default?: typeof import('@napi-rs/keyring/keytar.js')
    } & typeof import('@napi-rs/keyring/keytar.js')
    const keytar = mod.default ?? mod
    const round = (async () => {
      await keytar.setPassword('amctl-probe', 'probe', 'svc_probe')
      const back = await keytar.getPassword('amctl-probe', 'probe')
      await keytar.deletePassword('amctl-probe', 'probe')
      return back === 'svc_probe' ? undefined : 'the keychain did not return what was stored'
    })()
    const limit = new Promise<string>((resolve) => setTimeout(() => resolve('no answer from the Secret Service within 3 s'), 3000).unref())
    return await Promise.race([round, limit])
  } catch (error) {
    return String((error as Error).message ?? error).split('\n')[0]
  }
}

/** The probe, asked again for a few seconds: a Secret Service started just before may not own its D-Bus name yet. */
async function settledProbe(): Promise<string | undefined> {
  let last = await probe()
  for (let tries = 0; last !== undefined && process.env.AMCTL_REQUIRE_KEYCHAIN === '1' && tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 250))
    last = await probe()
  }
  return last
}

const unavailable = await settledProbe()
const required = process.env.AMCTL_REQUIRE_KEYCHAIN === '1'
if (unavailable && !required) {
  console.warn(
    `[keychain test] SKIPPED: no usable OS keychain here (${unavailable}). .ci/run runs it inside dbus-run-session with gnome-keyring.`,
  )
}

const TOKEN = 'svc_keychain_roundtrip_7c1e'
const ME = {id: 'usr_1', email: 'ada@acme.test', name: 'Ada', orgs: [{slug: 'acme', publicId: 'org_1', name: 'Acme'}]}

describe.skipIf(Boolean(unavailable) && !required)('the real OS keychain', () => {
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
    const env = {AMCTL_CONFIG_DIR: configDir, AMCTL_KEYCHAIN: undefined, DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS}

    const login = await runBin(['auth', 'login', '--with-token', '--base-url', server.url], {env, input: `${TOKEN}\n`})
    expect(login.stderr).toContain('Logged in as ada@acme.test (acme)')
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
