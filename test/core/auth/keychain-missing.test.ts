import {afterAll, describe, expect, it, vi} from 'vitest'
import {fakeSessionBus} from '../../helpers/session-bus.js'
import {fileSetting} from '../../helpers/env.js'

// the keychain package not installed (or its native module failing to load)
vi.mock('@napi-rs/keyring', () => {
  throw new Error("Cannot find module '@napi-rs/keyring'\nRequire stack: …")
})
// no AMCTL_KEYCHAIN, and a session bus that answers, to find the Secret Service on
const bus = await fakeSessionBus({answers: true})
afterAll(() => bus.close())
const env = {AMCTL_CONFIG_DIR: fileSetting('AMCTL_CONFIG_DIR'), DBUS_SESSION_BUS_ADDRESS: bus.address}

const {keychain, KeychainUnavailable} = await import('../../../src/core/auth/keychain.js')
const {findToken, storeToken} = await import('../../../src/core/auth/credentials.js')

describe('without the keychain package', () => {
  it('the keychain is unavailable, never a crash', async () => {
    const e = await keychain.get('a', env).catch((error: unknown) => error)
    expect(e).toBeInstanceOf(KeychainUnavailable)
    expect((e as Error).message).toMatch(/^the keychain module could not be loaded/)
    expect((e as Error).message).not.toContain('\n')
  })

  it('login storage falls back to the file and says why', async () => {
    const stored = await storeToken('default', 'https://api.example.com', 'svc_nokeytar1', env)
    expect(stored.source).toBe('file')
    expect(stored.keychainProblem).toMatch(/the keychain module could not be loaded/)
    expect(await findToken('default', 'https://api.example.com', env)).toEqual({token: 'svc_nokeytar1', source: 'file'})
  })
})
