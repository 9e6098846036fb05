import {beforeEach, describe, expect, it, vi} from 'vitest'
import {fakeKeyringModule, type FakeKeytar} from '../../helpers/keytar-fake.js'
import {onPlatform} from '../../helpers/platform.js'
import {fakeSessionBus} from '../../helpers/session-bus.js'

// The keychain on each platform, with process.platform set to it: the macOS Keychain and the
// Windows Credential Manager are @napi-rs/keyring's own choice there (no store named, no D-Bus to
// look for); on Linux every entry is pinned to the Secret Service, and without a session bus the
// native module is not even loaded. The module is the OS boundary (test/helpers/keytar-fake.ts).

const kt = vi.hoisted(
  () => ({mode: 'memory', store: new Map<string, string>(), calls: [] as string[], stores: [] as (string | undefined)[]}) as FakeKeytar,
)
vi.mock('@napi-rs/keyring', () => fakeKeyringModule(kt))

beforeEach(() => {
  vi.resetModules()
  kt.mode = 'memory'
  kt.store.clear()
  kt.stores.length = 0
  kt.calls.length = 0
})

/** No AMCTL_KEYCHAIN and no D-Bus session: what Windows and macOS never have. */
const NO_BUS: NodeJS.ProcessEnv = {}

/** The keychain module as a fresh process on that platform loads it. */
const keychainOn = (platform: NodeJS.Platform) => onPlatform(platform, () => import('../../../src/core/auth/keychain.js'))

describe('the keychain on each platform', () => {
  it.each(['darwin', 'win32'] as const)(
    '%s: the platform keychain under service "amctl", without a D-Bus session, the store left to the module',
    async (platform) => {
      const {keychain} = await keychainOn(platform)
      await onPlatform(platform, async () => {
        await keychain.set('default@https://a.example', 'svc_k1', NO_BUS)
        expect(await keychain.get('default@https://a.example', NO_BUS)).toBe('svc_k1')
        expect(await keychain.delete('default@https://a.example', NO_BUS)).toBe(true)
      })
      expect(kt.store.size).toBe(0)
      expect(kt.calls).toEqual(['set', 'get', 'delete'])
      expect(kt.stores).toEqual([undefined, undefined, undefined])
    },
  )

  it('linux without a session bus: unavailable at once, no entry made (keychain-no-bus.test.ts: the module is not loaded)', async () => {
    const {keychain, KeychainUnavailable} = await keychainOn('linux')
    const e = await onPlatform('linux', () => keychain.get('default@https://a.example', NO_BUS)).catch((error: unknown) => error)
    expect(e).toBeInstanceOf(KeychainUnavailable)
    expect(kt.stores).toEqual([])
    expect(kt.calls).toEqual([])
  })

  it.each(['unixexec:path=/bin/sh,argv1=-c,argv2=sleep%20600', 'nonce-tcp:host=127.0.0.1,port=1', 'autolaunch:', 'unix:dir=/tmp'])(
    'linux with a bus address amctl cannot ask first (%s): unavailable at once, saying why, no entry made (issue 32 item 11)',
    async (address) => {
      const {keychain, KeychainUnavailable} = await keychainOn('linux')
      const env = {DBUS_SESSION_BUS_ADDRESS: address}
      const e = await onPlatform('linux', () => keychain.get('default@https://a.example', env)).catch((error: unknown) => error)
      expect(e).toBeInstanceOf(KeychainUnavailable)
      expect((e as Error).message).toBe(
        `the D-Bus session bus address ${JSON.stringify(address)} is one amctl cannot check first (it takes unix:path=, unix:abstract= and tcp:)`,
      )
      expect(kt.stores).toEqual([])
      expect(kt.calls).toEqual([])
    },
  )

  it('linux with a session bus: every entry pinned to the Secret Service', async () => {
    const bus = await fakeSessionBus({answers: true})
    try {
      const env = {DBUS_SESSION_BUS_ADDRESS: bus.address}
      const {keychain} = await keychainOn('linux')
      await onPlatform('linux', async () => {
        await keychain.set('default@https://a.example', 'svc_k1', env)
        expect(await keychain.get('default@https://a.example', env)).toBe('svc_k1')
      })
      expect(kt.stores).toEqual(['secret-service', 'secret-service'])
      // the bus was asked once, before the module's first entry
      expect(bus.connections).toHaveLength(1)
    } finally {
      await bus.close()
    }
  })
})
