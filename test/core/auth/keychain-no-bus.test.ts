import {describe, expect, it, vi} from 'vitest'
import {tempDir} from '../../helpers/temp.js'

// On Linux the keychain is the Secret Service, found on the D-Bus session bus: with no bus to
// find, the keychain is unavailable at once and its native module is never loaded.
const loads = vi.hoisted(() => ({count: 0}))
vi.mock('@napi-rs/keyring', () => {
  loads.count++
  return {AsyncEntry: class {}}
})

const {keychain, KeychainUnavailable} = await import('../../../src/core/auth/keychain.js')

describe.runIf(process.platform === 'linux')('no session bus on Linux', () => {
  it('the keychain is unavailable, saying why, and its native module is not loaded', async () => {
    // no DBUS_SESSION_BUS_ADDRESS, and no bus at the default path under XDG_RUNTIME_DIR
    const env = {XDG_RUNTIME_DIR: tempDir('amctl-bus-')}
    const e = await keychain.get('default@https://api.example.com', env).catch((error: unknown) => error)
    expect(e).toBeInstanceOf(KeychainUnavailable)
    expect((e as Error).message).toBe('no D-Bus session bus, so no Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)')
    expect(loads.count).toBe(0)
  })
})
