import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {fakeKeyringModule, type FakeKeytar} from '../../helpers/keytar-fake.js'
import {tempDir} from '../../helpers/temp.js'
import {fakeSessionBus} from '../../helpers/session-bus.js'

const kt = vi.hoisted(
  () => ({mode: 'memory', store: new Map<string, string>(), calls: [] as string[], stores: [] as (string | undefined)[]}) as FakeKeytar,
)
vi.mock('@napi-rs/keyring', () => fakeKeyringModule(kt))

// this file simulates the OS keychain (test/setup.ts turns it off everywhere else): the
// environment the functions are given has no AMCTL_KEYCHAIN, and a session bus that answers, to
// find the Secret Service on (the keychain module itself is the fake above)
const bus = await fakeSessionBus({answers: true})
afterAll(() => bus.close())

const {accountFor, findToken, removeToken, storeToken} = await import('../../../src/core/auth/credentials.js')
const {fileStore} = await import('../../../src/core/auth/file-store.js')

const BASE = 'https://api.example.com'
const ACCOUNT = 'default@https://api.example.com'
const mode = (p: string) => statSync(p).mode & 0o777
let env: {AMCTL_CONFIG_DIR: string; DBUS_SESSION_BUS_ADDRESS: string; AMCTL_TOKEN?: string; AMCTL_KEYCHAIN?: string}

beforeEach(() => {
  kt.mode = 'memory'
  kt.store.clear()
  kt.calls.length = 0
  kt.stores.length = 0
  env = {AMCTL_CONFIG_DIR: join(tempDir('amctl-cred-'), 'cfg'), DBUS_SESSION_BUS_ADDRESS: bus.address}
})
afterEach(() => {
  vi.useRealTimers()
})

const FORM = 'a token starts with "svc_" and has no whitespace or control characters'
const inKeychain = (account = ACCOUNT) => kt.store.get(`amctl/${account}`)

describe('accountFor', () => {
  it('is <profile>@<origin of the base URL>', () => {
    expect(accountFor('default', 'https://api.example.com')).toBe(ACCOUNT)
    expect(accountFor('prod', 'https://h.example:8443/prefix')).toBe('prod@https://h.example:8443')
    expect(accountFor('local', 'http://127.0.0.1:4010')).toBe('local@http://127.0.0.1:4010')
  })
})

describe('findToken: AMCTL_TOKEN → keychain → file', () => {
  it('follows the resolution order', async () => {
    fileStore.set(ACCOUNT, 'svc_from_file', env)
    kt.store.set(`amctl/${ACCOUNT}`, 'svc_from_keychain')
    expect(await findToken('default', BASE, {...env, AMCTL_TOKEN: 'svc_from_env'})).toEqual({token: 'svc_from_env', source: 'env'})
    expect(await findToken('default', BASE, env)).toEqual({token: 'svc_from_keychain', source: 'keychain'})
    kt.store.clear()
    expect(await findToken('default', BASE, env)).toEqual({token: 'svc_from_file', source: 'file'})
    fileStore.delete(ACCOUNT, env)
    expect(await findToken('default', BASE, env)).toBeUndefined()
  })

  it('does not touch the keychain when AMCTL_TOKEN is set', async () => {
    await findToken('default', BASE, {...env, AMCTL_TOKEN: 'svc_env'})
    expect(kt.calls).toEqual([])
  })

  it('an empty AMCTL_TOKEN (a secret a fork is not given) is exit 3 saying so, never a stored login; a malformed one is exit 2', async () => {
    kt.store.set(`amctl/${ACCOUNT}`, 'svc_k')
    fileStore.set(ACCOUNT, 'svc_f', env)
    await expect(findToken('default', BASE, {...env, AMCTL_TOKEN: ''})).rejects.toMatchObject({
      exitCode: 3,
      code: 'unauthorized',
      message: 'AMCTL_TOKEN is set but empty (pull requests from forks receive no secrets)',
      hint: 'give the job its token secret, or unset AMCTL_TOKEN to use a stored login',
    })
    // neither store was read
    expect(kt.calls).toEqual([])
    await expect(findToken('default', BASE, {...env, AMCTL_TOKEN: 'not a token'})).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^AMCTL_TOKEN/),
    })
  })

  it('keeps profiles and servers apart', async () => {
    kt.store.set(`amctl/${ACCOUNT}`, 'svc_default')
    expect(await findToken('prod', BASE, env)).toBeUndefined()
    expect(await findToken('default', 'https://other.example', env)).toBeUndefined()
    // a path prefix does not change the account
    expect(await findToken('default', `${BASE}/prefix`, env)).toEqual({token: 'svc_default', source: 'keychain'})
  })

  it.each(['svc_', 'ghp_abcdef', 'svc_two words', 'svc_line\nbreak', 'svc_\u001b[31mred', ' svc_padded'])(
    'a stored token of the wrong form (%j) is never returned: exit 3, naming where it is, not what it is',
    async (bad) => {
      kt.store.set(`amctl/${ACCOUNT}`, bad)
      const fromKeychain = await findToken('default', BASE, env).catch((error: unknown) => error)
      expect(fromKeychain).toMatchObject({
        code: 'unauthorized',
        exitCode: 3,
        hint: 'run `amctl auth login`',
        message: `the token stored in the OS keychain for ${ACCOUNT} is malformed (${FORM})`,
      })
      kt.store.clear()
      fileStore.set(ACCOUNT, bad, env)
      const fromFile = await findToken('default', BASE, env).catch((error: unknown) => error)
      const message = `the token stored in credentials.json for ${ACCOUNT} is malformed (${FORM})`
      expect(fromFile).toMatchObject({code: 'unauthorized', exitCode: 3, message})
      if (bad.length > 4) expect((fromFile as Error).message).not.toContain(bad.slice(4))
    },
  )

  it('a bad keychain token is not passed over for the file', async () => {
    kt.store.set(`amctl/${ACCOUNT}`, 'not-a-token')
    fileStore.set(ACCOUNT, 'svc_good', env)
    await expect(findToken('default', BASE, env)).rejects.toMatchObject({exitCode: 3})
  })

  it('falls back to the file when the keychain refuses', async () => {
    fileStore.set(ACCOUNT, 'svc_file', env)
    kt.mode = 'reject'
    expect(await findToken('default', BASE, env)).toEqual({token: 'svc_file', source: 'file'})
  })

  it('falls back to the file when the keychain never answers (3 s limit)', async () => {
    fileStore.set(ACCOUNT, 'svc_file', env)
    vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']})
    kt.mode = 'hang'
    const found = findToken('default', BASE, env)
    while (kt.calls.length === 0) await new Promise((resolve) => setImmediate(resolve))
    await vi.advanceTimersByTimeAsync(3000)
    expect(await found).toEqual({token: 'svc_file', source: 'file'})
  })
})

describe('storeToken', () => {
  it('uses the keychain and removes a copy from the file', async () => {
    fileStore.set(ACCOUNT, 'svc_old_in_file', env)
    fileStore.set('prod@https://api.example.com', 'svc_other', env)
    expect(await storeToken('default', BASE, 'svc_new', env)).toEqual({source: 'keychain'})
    expect(inKeychain()).toBe('svc_new')
    expect(fileStore.get(ACCOUNT, env)).toBeUndefined()
    expect(fileStore.get('prod@https://api.example.com', env)).toBe('svc_other')
  })

  it('--insecure-storage uses the file and removes the keychain copy', async () => {
    kt.store.set(`amctl/${ACCOUNT}`, 'svc_old_in_keychain')
    const stored = await storeToken('default', BASE, 'svc_new', env, {insecure: true})
    expect(stored).toEqual({source: 'file', path: join(env.AMCTL_CONFIG_DIR, 'credentials.json')})
    expect(stored.keychainProblem).toBeUndefined()
    expect(inKeychain()).toBeUndefined()
    expect(fileStore.get(ACCOUNT, env)).toBe('svc_new')
    expect(await findToken('default', BASE, env)).toEqual({token: 'svc_new', source: 'file'})
  })

  it('falls back to the file (0600 in 0700) with keychainProblem when the keychain refuses', async () => {
    kt.mode = 'reject'
    const stored = await storeToken('default', BASE, 'svc_fallback', env)
    expect(stored.source).toBe('file')
    expect(stored.keychainProblem).toMatch(/keychain refused a write/)
    expect(stored.path).toBe(join(env.AMCTL_CONFIG_DIR, 'credentials.json'))
    expect(mode(stored.path!)).toBe(0o600)
    expect(mode(env.AMCTL_CONFIG_DIR)).toBe(0o700)
    expect(JSON.parse(readFileSync(stored.path!, 'utf8')).tokens[ACCOUNT].token).toBe('svc_fallback')
  })

  it('falls back to the file when the keychain never answers', async () => {
    vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout']})
    kt.mode = 'hang'
    const p = storeToken('default', BASE, 'svc_slow', env)
    while (kt.calls.length === 0) await new Promise((resolve) => setImmediate(resolve))
    await vi.advanceTimersByTimeAsync(3000)
    const stored = await p
    expect(stored.source).toBe('file')
    expect(stored.keychainProblem).toMatch(/did not answer a write within 3 s/)
    expect(fileStore.get(ACCOUNT, env)).toBe('svc_slow')
  })
})

describe('removeToken', () => {
  it('removes the token from both stores and says where it was', async () => {
    kt.store.set(`amctl/${ACCOUNT}`, 'svc_k')
    fileStore.set(ACCOUNT, 'svc_f', env)
    fileStore.set('prod@https://api.example.com', 'svc_keep', env)
    expect((await removeToken('default', BASE, env)).sort()).toEqual(['file', 'keychain'])
    expect(inKeychain()).toBeUndefined()
    expect(fileStore.get(ACCOUNT, env)).toBeUndefined()
    expect(fileStore.get('prod@https://api.example.com', env)).toBe('svc_keep')
    expect(await findToken('default', BASE, env)).toBeUndefined()
    expect(await removeToken('default', BASE, env)).toEqual([])
  })

  it('still removes the file copy when the keychain refuses', async () => {
    fileStore.set(ACCOUNT, 'svc_f', env)
    kt.mode = 'reject'
    expect(await removeToken('default', BASE, env)).toEqual(['file'])
    expect(fileStore.get(ACCOUNT, env)).toBeUndefined()
  })
})

describe('with AMCTL_KEYCHAIN=off', () => {
  it('never calls keytar, stores in the file and says why', async () => {
    const off = {...env, AMCTL_KEYCHAIN: 'off'}
    const stored = await storeToken('default', BASE, 'svc_off', off)
    expect(stored).toMatchObject({source: 'file', keychainProblem: 'disabled by AMCTL_KEYCHAIN=off'})
    expect(await findToken('default', BASE, off)).toEqual({token: 'svc_off', source: 'file'})
    expect(await removeToken('default', BASE, off)).toEqual(['file'])
    expect(kt.calls).toEqual([])
  })
})
