import {createServer, type Server, type Socket} from 'node:net'
import {join} from 'node:path'
import {afterAll, afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {tempDir} from '../../helpers/temp.js'

// The keychain helper process itself (src/core/auth/keychain-helper.cjs, started by keychain.ts):
// its protocol with a stand-in module, and, with the real @napi-rs/keyring, a D-Bus session bus
// that accepts the connection and never answers — a real unix socket, as a hung bus is.

delete process.env.AMCTL_KEYCHAIN
const saved = process.env.DBUS_SESSION_BUS_ADDRESS
const {helperKeytar, keychain, KeychainUnavailable, setKeychainBackend} = await import('../../../src/core/auth/keychain.js')
const STAND_IN = join(__dirname, '..', '..', 'helpers', 'keyring-stand-in.cjs')

afterAll(() => {
  process.env.AMCTL_KEYCHAIN = 'off'
  if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS
  else process.env.DBUS_SESSION_BUS_ADDRESS = saved
  setKeychainBackend(undefined)
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the keychain helper process', () => {
  it('set, get and delete through the helper, one process for all of them', async () => {
    const k = await helperKeytar({module: STAND_IN})
    try {
      await k.setPassword('amctl', 'default@https://a.example', 'svc_k1')
      expect(await k.getPassword('amctl', 'default@https://a.example')).toBe('svc_k1')
      expect(await k.deletePassword('amctl', 'default@https://a.example')).toBe(true)
      expect(await k.getPassword('amctl', 'default@https://a.example')).toBeNull()
    } finally {
      k.end()
    }
  })

  it('a helper that was ended refuses every call as "keychain unavailable"', async () => {
    const k = await helperKeytar({module: STAND_IN})
    k.end()
    await expect(k.getPassword('amctl', 'a')).rejects.toBeInstanceOf(KeychainUnavailable)
  })
})

describe.runIf(process.platform === 'linux')('a D-Bus session bus that accepts and never answers', () => {
  let server: Server
  let connections: Socket[]
  let closed: Promise<void>[]
  beforeEach(async () => {
    connections = []
    closed = []
    const path = join(tempDir('amctl-bus-'), 'bus')
    server = createServer((socket) => {
      connections.push(socket)
      closed.push(new Promise((resolve) => socket.once('close', () => resolve())))
      socket.on('data', () => {}) // reads the handshake, answers nothing
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => server.listen(path, resolve))
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${path}`
    // the real helper with the real keychain module
    setKeychainBackend(undefined)
  })
  afterEach(async () => {
    for (const socket of connections) socket.destroy()
    await new Promise((resolve) => server.close(resolve))
  })

  it('a read gives up at 3 s (the connection and the handshake counted), the helper is killed', async () => {
    vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']})
    let settled: unknown
    const read = keychain.get('default@https://a.example').then(
      () => (settled = 'answered'),
      (error: unknown) => (settled = error),
    )
    // the helper started and connected to the bus: the native module now waits for an answer
    while (connections.length === 0) await new Promise((resolve) => setImmediate(resolve))
    await vi.advanceTimersByTimeAsync(2999)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    await read
    expect(settled).toBeInstanceOf(KeychainUnavailable)
    expect((settled as Error).message).toBe('the keychain did not answer a read within 3 s')
    // the helper is gone: its end of the connection closes (before, amctl itself was stuck in it)
    await closed[0]
  })
})
