import {writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {tempDir} from '../../helpers/temp.js'

// On Linux the keychain is the Secret Service, found on the D-Bus session bus: with no bus to
// find, the keychain is unavailable at once and its helper (the native module) is never started.
const loads = {count: 0}

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

const {keychain, KeychainUnavailable, sessionBusReachable, setKeychainBackend} = await import('../../../src/core/auth/keychain.js')
setKeychainBackend(async () => {
  loads.count++
  throw new Error('the keychain helper must not start')
})
afterAll(() => setKeychainBackend(undefined))

describe('sessionBusReachable (as libdbus looks for the bus)', () => {
  it('DBUS_SESSION_BUS_ADDRESS names one', () => {
    expect(sessionBusReachable({DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus'})).toBe(true)
  })

  it('else a socket named bus in XDG_RUNTIME_DIR; a file of that name, or nothing, is no bus', async () => {
    const withSocket = tempDir('amctl-bus-')
    const socket = createServer()
    await new Promise<void>((resolve) => socket.listen(join(withSocket, 'bus'), resolve))
    try {
      expect(sessionBusReachable({XDG_RUNTIME_DIR: withSocket})).toBe(true)
    } finally {
      await new Promise((resolve) => socket.close(resolve))
    }
    const withFile = tempDir('amctl-bus-')
    writeFileSync(join(withFile, 'bus'), '')
    expect(sessionBusReachable({XDG_RUNTIME_DIR: withFile})).toBe(false)
    expect(sessionBusReachable({XDG_RUNTIME_DIR: tempDir('amctl-bus-')})).toBe(false)
    expect(sessionBusReachable({})).toBe(false)
  })
})

describe.runIf(process.platform === 'linux')('no session bus on Linux', () => {
  it('the keychain is unavailable, saying why, and its helper is not started', async () => {
    delete process.env.DBUS_SESSION_BUS_ADDRESS
    process.env.XDG_RUNTIME_DIR = tempDir('amctl-bus-')
    const e = await keychain.get('default@https://api.example.com').catch((error: unknown) => error)
    expect(e).toBeInstanceOf(KeychainUnavailable)
    expect((e as Error).message).toBe('no D-Bus session bus, so no Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)')
    expect(loads.count).toBe(0)
  })
})
