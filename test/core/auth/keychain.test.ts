import {afterAll, afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {fakeKeyringModule, type FakeKeytar} from '../../helpers/keytar-fake.js'
import {fakeSessionBus} from '../../helpers/session-bus.js'

const kt = vi.hoisted(
  () => ({mode: 'memory', store: new Map<string, string>(), calls: [] as string[], stores: [] as (string | undefined)[]}) as FakeKeytar,
)
vi.mock('@napi-rs/keyring', () => fakeKeyringModule(kt))

// these tests opt in to the keychain (test/setup.ts turns it off for every other file): the
// environment they hand it has no AMCTL_KEYCHAIN, and a session bus that answers, to find the
// Secret Service on (the keychain module itself is the fake above)
const bus = await fakeSessionBus({answers: true})
afterAll(() => bus.close())
const env = {DBUS_SESSION_BUS_ADDRESS: bus.address}

const {keychain, KeychainUnavailable, KEYCHAIN_SERVICE, KEYCHAIN_TIMEOUT_MS, keychainMode, keychainTimedOut} = await import(
  '../../../src/core/auth/keychain.js'
)

beforeEach(() => {
  kt.mode = 'memory'
  kt.store.clear()
  kt.calls.length = 0
  kt.stores.length = 0
})
afterEach(() => {
  vi.useRealTimers()
})

describe('keychain through keytar', () => {
  it('stores, reads and deletes under service "amctl"', async () => {
    expect(KEYCHAIN_SERVICE).toBe('amctl')
    await keychain.set('default@https://a.example', 'svc_k1', env)
    expect(kt.store.get('amctl/default@https://a.example')).toBe('svc_k1')
    expect(await keychain.get('default@https://a.example', env)).toBe('svc_k1')
    expect(await keychain.get('other@https://a.example', env)).toBeNull()
    expect(await keychain.delete('default@https://a.example', env)).toBe(true)
    expect(await keychain.get('default@https://a.example', env)).toBeNull()
  })

  it('on Linux every entry is pinned to the Secret Service: never the kernel keyring, which forgets at reboot', async () => {
    await keychain.set('default@https://a.example', 'svc_k1', env)
    await keychain.get('default@https://a.example', env)
    await keychain.delete('default@https://a.example', env)
    expect(kt.stores).toEqual(
      process.platform === 'linux' ? ['secret-service', 'secret-service', 'secret-service'] : [undefined, undefined, undefined],
    )
  })

  it('no Secret Service (the pinned entry is refused at once): KeychainUnavailable, so the file is used', async () => {
    kt.mode = 'reject'
    const e = await keychain.set('a', 'svc_x', env).catch((error: unknown) => error)
    expect(e).toBeInstanceOf(KeychainUnavailable)
    expect((e as Error).message).toMatch(/^the keychain refused a write \(Cannot autolaunch D-Bus/)
  })

  it('a refusing keychain is KeychainUnavailable with a one-line reason', async () => {
    kt.mode = 'reject'
    const e = await keychain.get('a', env).catch((error: unknown) => error)
    expect(e).toBeInstanceOf(KeychainUnavailable)
    expect((e as Error).message).toMatch(/^the keychain refused a read \(Cannot autolaunch D-Bus/)
    expect((e as Error).message).not.toContain('\n')
    await expect(keychain.set('a', 'svc_x', env)).rejects.toBeInstanceOf(KeychainUnavailable)
  })

  it('gives up on a keychain that never answers after 3 s', async () => {
    vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']})
    kt.mode = 'hang'
    expect(KEYCHAIN_TIMEOUT_MS).toBe(3000)
    let settled: unknown
    const p = keychain.get('a', env).then(
      () => (settled = 'resolved'),
      (error: unknown) => (settled = error),
    )
    // wait until keytar was actually called (the time limit starts just before)
    while (kt.calls.length === 0) await new Promise((resolve) => setImmediate(resolve))
    await vi.advanceTimersByTimeAsync(KEYCHAIN_TIMEOUT_MS - 1)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    await p
    expect(settled).toBeInstanceOf(KeychainUnavailable)
    expect((settled as Error).message).toContain('did not answer a read within 3 s')
    expect(keychainTimedOut()).toBe(true)
  })
})

describe.runIf(process.platform === 'linux')('a session bus that accepts and never answers', () => {
  it('the first call gives up at 3 s, the handshake counted; no entry is made; the next call does not wait again', async () => {
    const hung = await fakeSessionBus({answers: false})
    const hungEnv = {DBUS_SESSION_BUS_ADDRESS: hung.address}
    try {
      vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']})
      let settled: unknown
      const read = keychain.get('a', hungEnv).then(
        () => (settled = 'answered'),
        (error: unknown) => (settled = error),
      )
      // before the fix the module's synchronous connection held this thread here for ever
      while (hung.lines.length === 0) await new Promise((resolve) => setImmediate(resolve))
      await vi.advanceTimersByTimeAsync(KEYCHAIN_TIMEOUT_MS - 1)
      expect(settled).toBeUndefined()
      await vi.advanceTimersByTimeAsync(1)
      await read
      expect(settled).toBeInstanceOf(KeychainUnavailable)
      expect((settled as Error).message).toBe('the keychain did not answer a read within 3 s')
      expect(kt.stores).toEqual([])
      await expect(keychain.set('a', 'svc_x', hungEnv)).rejects.toThrow('the D-Bus session bus did not answer within 3 s')
      expect(hung.connections).toHaveLength(1)
    } finally {
      await hung.close()
    }
  })

  it('is asked of the environment the keychain is handed: another, whose bus answers, is not held by it', async () => {
    const hung = await fakeSessionBus({answers: false})
    try {
      vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']})
      const read = keychain.get('a', {DBUS_SESSION_BUS_ADDRESS: hung.address}).catch((error: unknown) => error)
      while (hung.lines.length === 0) await new Promise((resolve) => setImmediate(resolve))
      await vi.advanceTimersByTimeAsync(KEYCHAIN_TIMEOUT_MS)
      expect(await read).toBeInstanceOf(KeychainUnavailable)
      vi.useRealTimers()
      await keychain.set('b', 'svc_b1', env)
      expect(await keychain.get('b', env)).toBe('svc_b1')
    } finally {
      await hung.close()
    }
  })
})

describe('AMCTL_KEYCHAIN', () => {
  it.each([
    [undefined, 'auto'],
    ['', 'auto'],
    ['auto', 'auto'],
    ['off', 'off'],
  ])('%j is %s', (value, mode) => {
    expect(keychainMode({AMCTL_KEYCHAIN: value})).toBe(mode)
  })

  it.each(['garbage', '1', 'on', 'OFF', 'false'])('%j exits 2 naming the accepted values', (value) => {
    let thrown: unknown
    try {
      keychainMode({AMCTL_KEYCHAIN: value})
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({
      exitCode: 2,
      code: 'invalid_request',
      message: `AMCTL_KEYCHAIN must be "auto" (the OS keychain when one answers, else the file) or "off" (never the keychain), got ${JSON.stringify(value)}`,
    })
  })
})
