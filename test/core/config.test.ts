import {mkdirSync, readFileSync, statSync, chmodSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {
  assertConfigKey,
  assertProfileName,
  configDir,
  ConfigStore,
  normalizeBaseUrl,
  normalizeConfigValue,
} from '../../src/core/config.js'
import {UsageError} from '../../src/core/errors.js'
import {tempDir} from '../helpers/temp.js'

const mode = (path: string) => statSync(path).mode & 0o777
const freshDir = () => join(tempDir('amctl-config-'), 'nested', 'amctl')

function usageError(fn: () => unknown): UsageError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError)
    expect((error as UsageError).exitCode).toBe(2)
    return error as UsageError
  }
  throw new Error('expected a UsageError')
}

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://api.example.com:8443//', 'https://api.example.com:8443'],
    ['https://host.example/prefix', 'https://host.example/prefix'],
    ['https://host.example/prefix/', 'https://host.example/prefix'],
    ['https://host.example/a/b/', 'https://host.example/a/b'],
    ['  https://api.example.com  ', 'https://api.example.com'],
    ['HTTPS://API.Example.COM/', 'https://api.example.com'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['http://127.1.2.3/', 'http://127.1.2.3'],
    ['http://[::1]:4010/', 'http://[::1]:4010'],
    ['http://localhost:4010', 'http://localhost:4010'],
    ['http://LOCALHOST/base/', 'http://localhost/base'],
  ])('accepts %j as %j', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected)
  })

  it.each([
    ['http://example.com', /must use https/],
    ['http://10.0.0.1:4010', /must use https/],
    ['http://128.0.0.1', /must use https/],
    ['http://127.0.0.1.nip.io', /must use https/],
    ['http://[::2]', /must use https/],
    ['http://0.0.0.0:4010', /must use https/],
    ['api.example.com', /not an absolute URL/],
    ['/api', /not an absolute URL/],
    ['', /not an absolute URL/],
    ['ftp://files.example.com', /must use https/],
    ['file:///etc/passwd', /must use https/],
    ['https://api.example.com/?x=1', /query or fragment/],
    ['https://api.example.com/#frag', /query or fragment/],
    ['https://user:pass@api.example.com', /^base URL "https:\/\/\*\*\*:\*\*\*@api\.example\.com\/" must not carry a user name or password/],
    ['https://user@api.example.com', /^base URL "https:\/\/\*\*\*@api\.example\.com\/" must not carry a user name or password/],
    ['http://ada:s3cr3t@evil.example', /user name or password/],
    ['ftp://ada:s3cr3t@files.example', /user name or password/],
  ])('refuses %j with a usage error', (input, why) => {
    expect(usageError(() => normalizeBaseUrl(input)).message).toMatch(why)
  })

  it.each(['https://ada:s3cr3t@api.example.com', 'https://ada:s3cr3t@', 'nope://ada:s3cr3t@x y'])('never echoes the password of %j', (input) => {
    const message = usageError(() => normalizeBaseUrl(input)).message
    expect(message).not.toContain('s3cr3t')
    expect(message).not.toContain('ada')
  })

  it('names where the value came from', () => {
    expect(usageError(() => normalizeBaseUrl('http://x.example', '--base-url')).message).toMatch(/^--base-url "http:\/\/x.example"/)
  })
})

describe('keys and values', () => {
  it('knows base-url and org, and names them for an unknown key', () => {
    expect(assertConfigKey('base-url')).toBe('base-url')
    expect(assertConfigKey('org')).toBe('org')
    const e = usageError(() => assertConfigKey('token'))
    expect(e.message).toContain('"token"')
    expect(e.message).toContain('base-url, org')
  })

  it('validates org values and base-url values', () => {
    expect(normalizeConfigValue('org', ' acme ')).toBe('acme')
    expect(normalizeConfigValue('base-url', 'https://a.example/')).toBe('https://a.example')
    usageError(() => normalizeConfigValue('org', ''))
    expect(normalizeConfigValue('org', 'a/b')).toBe('a/b')
    usageError(() => normalizeConfigValue('org', '..'))
    usageError(() => normalizeConfigValue('org', 'a\u001bb'))
    usageError(() => normalizeConfigValue('base-url', 'http://example.com'))
  })

  it('validates profile names', () => {
    expect(assertProfileName('prod-eu_1.x')).toBe('prod-eu_1.x')
    for (const bad of ['', '../x', 'a b', '-x', 'a/b', 'x'.repeat(65)]) usageError(() => assertProfileName(bad))
  })
})

describe('configDir', () => {
  it('is AMCTL_CONFIG_DIR when set', () => {
    expect(configDir({AMCTL_CONFIG_DIR: '/somewhere/else'})).toBe('/somewhere/else')
  })

  it.runIf(process.platform === 'linux')('is $XDG_CONFIG_HOME/amctl otherwise, without a -nodejs suffix', () => {
    expect(configDir({XDG_CONFIG_HOME: '/xdg'})).toBe('/xdg/amctl')
    expect(configDir({})).toMatch(/\/\.config\/amctl$/)
  })
})

describe('ConfigStore', () => {
  it('writes config.json (0600) in AMCTL_CONFIG_DIR, created 0700', async () => {
    const dir = freshDir()
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: dir})
    expect(mode(dir)).toBe(0o700)
    store.set('default', 'org', 'acme')
    expect(store.path).toBe(join(dir, 'config.json'))
    expect(mode(store.path)).toBe(0o600)
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({profiles: {default: {org: 'acme'}}})
  })

  it('tightens an existing directory that is too open', async () => {
    const dir = freshDir()
    mkdirSync(dir, {recursive: true})
    chmodSync(dir, 0o755)
    await ConfigStore.open({AMCTL_CONFIG_DIR: dir})
    expect(mode(dir)).toBe(0o700)
  })

  it('sets, gets, unsets and lists per profile', async () => {
    const env = {AMCTL_CONFIG_DIR: freshDir()}
    const store = await ConfigStore.open(env)
    store.set('default', 'org', 'acme')
    store.set('default', 'base-url', 'https://api.example.com')
    store.set('staging', 'org', 'acme-staging')
    expect(store.get('default', 'org')).toBe('acme')
    expect(store.get('staging', 'org')).toBe('acme-staging')
    expect(store.get('staging', 'base-url')).toBeUndefined()
    expect(store.get('nope', 'org')).toBeUndefined()
    expect(store.profile('default')).toEqual({org: 'acme', 'base-url': 'https://api.example.com'})
    expect(store.profileNames().sort()).toEqual(['default', 'staging'])

    // a second process sees the same values
    const again = await ConfigStore.open(env)
    expect(again.profile('staging')).toEqual({org: 'acme-staging'})

    expect(store.unset('default', 'org')).toBe(true)
    expect(store.unset('default', 'org')).toBe(false)
    expect(store.profile('default')).toEqual({'base-url': 'https://api.example.com'})
    expect(store.unset('staging', 'org')).toBe(true)
    expect(store.profileNames()).toEqual(['default'])
    // profile() returns a copy
    store.profile('default')['base-url'] = 'https://changed.example'
    expect(store.get('default', 'base-url')).toBe('https://api.example.com')
  })

  it('keeps a key with a dot in a profile name literal', async () => {
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: freshDir()})
    store.set('prod.eu', 'org', 'acme')
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({profiles: {'prod.eu': {org: 'acme'}}})
  })
})
