import {afterAll, describe, expect, it} from 'vitest'

// the keychain package not installed (or its native module failing to load): the real helper
// process, told to load a module that is not there
delete process.env.AMCTL_KEYCHAIN
// a session bus to find the Secret Service on (the keychain module itself is the fake above)
process.env.DBUS_SESSION_BUS_ADDRESS ??= 'unix:path=/run/user/0/bus'
afterAll(() => {
  process.env.AMCTL_KEYCHAIN = 'off'
})

const {helperKeytar, keychain, KeychainUnavailable, setKeychainBackend} = await import('../../../src/core/auth/keychain.js')
setKeychainBackend(() => helperKeytar({module: '@napi-rs/keyring-not-installed'}))
afterAll(() => setKeychainBackend(undefined))
const {findToken, storeToken} = await import('../../../src/core/auth/credentials.js')

describe('without the keychain package', () => {
  it('the keychain is unavailable, never a crash', async () => {
    const e = await keychain.get('a').catch((error: unknown) => error)
    expect(e).toBeInstanceOf(KeychainUnavailable)
    expect((e as Error).message).toMatch(/^the keychain module could not be loaded \(Cannot find module '@napi-rs\/keyring-not-installed'/)
    expect((e as Error).message).not.toContain('\n')
  })

  it('login storage falls back to the file and says why', async () => {
    const env = {AMCTL_CONFIG_DIR: process.env.AMCTL_CONFIG_DIR!}
    const stored = await storeToken('default', 'https://api.example.com', 'svc_nokeytar1', {env})
    expect(stored.source).toBe('file')
    expect(stored.keychainProblem).toMatch(/the keychain module could not be loaded/)
    expect(await findToken('default', 'https://api.example.com', env)).toEqual({token: 'svc_nokeytar1', source: 'file'})
  })
})
