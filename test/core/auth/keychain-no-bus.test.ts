import {afterAll, describe, expect, it, vi} from 'vitest'
import {tempDir} from '../../helpers/temp.js'

// On Linux the keychain is the Secret Service, found on the D-Bus session bus: with no bus to
// find, the keychain is unavailable at once and its native module is never loaded.
const loads = vi.hoisted(() => ({count: 0}))
vi.mock('@napi-rs/keyring', () => {
  loads.count++
  return {AsyncEntry: class {}}
})

delete process.env.AMCTL_KEYCHAIN
const saved = {bus: process.env.DBUS_SESSION_BUS_ADDRESS, runtime: process.env.XDG_RUNTIME_DIR}
afterAll(() => {
  process.env.AMCTL_KEYCHAIN = 'off'
  for (const [key, value] of [
    ['DBUS_SESSION_BUS_ADDRESS', saved.bus],
    ['XDG_RUNTIME_DIR', saved.runtime],
  ] as const) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
})

const {keychain, KeychainUnavailable} = await import('../../../src/core/auth/keychain.js')

describe.runIf(process.platform === 'linux')('no session bus on Linux', () => {
  it('the keychain is unavailable, saying why, and its native module is not loaded', async () => {
    delete process.env.DBUS_SESSION_BUS_ADDRESS
    process.env.XDG_RUNTIME_DIR = tempDir('amctl-bus-')
    const e = await keychain.get('default@https://api.example.com').catch((error: unknown) => error)
    expect(e).toBeInstanceOf(KeychainUnavailable)
    expect((e as Error).message).toBe('no D-Bus session bus, so no Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)')
    expect(loads.count).toBe(0)
  })
})
