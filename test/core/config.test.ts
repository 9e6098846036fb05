import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {homedir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {
  assertConfigKey,
  assertProfileName,
  configDir,
  ConfigStore,
  localStateWarnings,
  normalizeBaseUrl,
  normalizeConfigValue,
} from '../../src/core/config.js'
import {credentialsPath} from '../../src/core/auth/file-store.js'
import {UsageError} from '../../src/core/errors.js'
import {onPlatform} from '../helpers/platform.js'
import {tempDir} from '../helpers/temp.js'

const mode = (path: string) => statSync(path).mode & 0o777
const tempRoot = () => tempDir('amctl-config-')
const freshDir = () => join(tempRoot(), 'nested', 'amctl')
/** A config directory holding config.json with `content`. */
function withConfig(content: string): string {
  const dir = join(tempRoot(), 'amctl')
  mkdirSync(dir)
  writeFileSync(join(dir, 'config.json'), content, {mode: 0o600})
  return dir
}

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

  it.each([
    'https://ada:s3cr3t@api.example.com',
    'https://ada:s3cr3t@',
    'nope://ada:s3cr3t@x y',
    'https://ada:s3cr3t/more@h.example',
    'https://ada:s3cr3t?x#y@h.example',
    'https://ada:s3cr3t@x@h.example',
    'ada:s3cr3t@h.example',
  ])('never echoes the password of %j', (input) => {
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

// where each platform keeps config.json and credentials.json (docs/install.md and docs/auth.md
// list them): run here with process.platform set to each (node:path stays this machine's)
describe('the config directory on each platform', () => {
  const home = homedir()
  it.each([
    ['linux', {XDG_CONFIG_HOME: '/xdg', APPDATA: '/appdata'}, '/xdg/amctl'],
    ['linux', {}, join(home, '.config', 'amctl')],
    ['darwin', {XDG_CONFIG_HOME: '/xdg'}, join(home, 'Library', 'Preferences', 'amctl')],
    ['win32', {APPDATA: 'C:/Users/ada/AppData/Roaming', XDG_CONFIG_HOME: '/xdg'}, 'C:/Users/ada/AppData/Roaming/amctl/Config'],
    ['win32', {}, join(home, 'AppData', 'Roaming', 'amctl', 'Config')],
  ] as const)('%s %j: %s, and credentials.json in it', (platform, env, dir) => {
    onPlatform(platform, () => {
      expect(configDir(env)).toBe(dir)
      expect(credentialsPath(env)).toBe(join(dir, 'credentials.json'))
      // AMCTL_CONFIG_DIR wins on every platform
      expect(configDir({...env, AMCTL_CONFIG_DIR: '/mine'})).toBe('/mine')
    })
  })

  it('Windows has no modes to warn about: a directory others may write gives no warning there', () => {
    const dir = freshDir()
    mkdirSync(dir, {recursive: true})
    chmodSync(dir, 0o777)
    expect(localStateWarnings({AMCTL_CONFIG_DIR: dir})).toHaveLength(1)
    expect(onPlatform('win32', () => localStateWarnings({AMCTL_CONFIG_DIR: dir}))).toEqual([])
    expect(onPlatform('darwin', () => localStateWarnings({AMCTL_CONFIG_DIR: dir}))).toHaveLength(1)
  })
})

describe('ConfigStore', () => {
  it('writes config.json (0600) in AMCTL_CONFIG_DIR, created 0700 (with its parents) on the first write', async () => {
    const dir = freshDir()
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: dir})
    const old = process.umask(0o000)
    try {
      store.set('default', 'org', 'acme')
    } finally {
      process.umask(old)
    }
    expect(mode(dir)).toBe(0o700)
    expect(mode(join(dir, '..'))).toBe(0o700)
    expect(store.path).toBe(join(dir, 'config.json'))
    expect(mode(store.path)).toBe(0o600)
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({profiles: {default: {org: 'acme'}}})
  })

  it('opening reads only: a missing directory is not created, and the store is empty', async () => {
    const dir = freshDir()
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: dir})
    expect(store.profile('default')).toEqual({})
    expect(store.profileNames()).toEqual([])
    expect(existsSync(join(dir, '..'))).toBe(false)
  })

  // /sys refuses mkdir at once (EPERM, EACCES or EROFS), even to root; /proc, where Node's own
  // recursive mkdir never returns, is tried in a child process (fs-atomic.test.ts, e2e/local-state.test.ts)
  it.runIf(process.platform === 'linux')('reads where the directory cannot be created (/sys/amctl); a write says why', async () => {
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: '/sys/amctl'})
    expect(store.get('default', 'org')).toBeUndefined()
    const why = /^cannot create directory \/sys\/amctl: [a-z -]+ \((EPERM|EACCES|EROFS)\)$/
    expect(() => store.set('default', 'org', 'acme')).toThrow(expect.objectContaining({exitCode: 1, message: expect.stringMatching(why)}))
  })

  it.each(['0755', '0777'])('never changes the mode of a directory that exists (%s), on a read or a write', async (octal) => {
    const existing = parseInt(octal, 8)
    const dir = freshDir()
    mkdirSync(dir, {recursive: true})
    chmodSync(dir, existing)
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: dir})
    store.set('default', 'org', 'acme')
    expect(mode(dir)).toBe(existing)
    expect(mode(store.path)).toBe(0o600)
  })

  it('a config.json that is a directory is one line naming it', async () => {
    const dir = freshDir()
    mkdirSync(join(dir, 'config.json'), {recursive: true})
    await expect(ConfigStore.open({AMCTL_CONFIG_DIR: dir})).rejects.toMatchObject({
      exitCode: 1,
      code: 'file_error',
      message: `cannot read ${join(dir, 'config.json')}: illegal operation on a directory (EISDIR)`,
    })
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

describe('ConfigStore: a file of the wrong shape is corrupt, never merged into', () => {
  it.each([
    ['a string', '"text"', 'expected a JSON object'],
    ['an array', '[]', 'expected a JSON object'],
    ['null', 'null', 'expected a JSON object'],
    ['profiles as a string', '{"profiles":"x"}', '"profiles" must be an object of profiles'],
    ['profiles as an array', '{"profiles":[]}', '"profiles" must be an object of profiles'],
    ['a profile that is a string', '{"profiles":{"default":"x"}}', 'profile "default" must be an object of settings'],
    ['a profile that is an array', '{"profiles":{"default":["org"]}}', 'profile "default" must be an object of settings'],
    ['a number value', '{"profiles":{"default":{"org":5}}}', '"org" of profile "default" must be a string'],
    ['a null value', '{"profiles":{"prod":{"base-url":null}}}', '"base-url" of profile "prod" must be a string'],
    ['an object value', '{"profiles":{"default":{"org":{"slug":"a"}}}}', '"org" of profile "default" must be a string'],
  ])('%s: opening fails (exit 1) naming the file', async (_, content, problem) => {
    const dir = withConfig(content)
    const file = join(dir, 'config.json')
    await expect(ConfigStore.open({AMCTL_CONFIG_DIR: dir})).rejects.toMatchObject({
      exitCode: 1,
      code: 'invalid_config',
      message: `${file} is corrupt: ${problem}; fix or delete it`,
    })
    expect(readFileSync(file, 'utf8')).toBe(content)
  })

  it('a write finds a file gone bad since it was opened, and leaves it alone', async () => {
    const dir = freshDir()
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: dir})
    store.set('default', 'org', 'acme')
    writeFileSync(store.path, '{"profiles":"x"}')
    expect(() => store.set('default', 'org', 'other')).toThrow(expect.objectContaining({exitCode: 1, code: 'invalid_config'}))
    expect(() => store.unset('default', 'org')).toThrow(/is corrupt/)
    expect(readFileSync(store.path, 'utf8')).toBe('{"profiles":"x"}')
    expect(readdirSync(dir)).toEqual(['config.json'])
  })

  it('invalid JSON is corrupt too, naming the file', async () => {
    const dir = withConfig('{"profiles": {')
    await expect(ConfigStore.open({AMCTL_CONFIG_DIR: dir})).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(/config\.json is not valid JSON/),
    })
  })

  it('keeps members and keys it does not know on a write, and shows only the known keys', async () => {
    const dir = withConfig('{"profiles":{"default":{"org":"acme","colour":"blue"}},"newer":{"x":1}}')
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: dir})
    expect(store.profile('default')).toEqual({org: 'acme'})
    store.set('default', 'base-url', 'https://api.example.com')
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({
      profiles: {default: {org: 'acme', colour: 'blue', 'base-url': 'https://api.example.com'}},
      newer: {x: 1},
    })
  })

  it('a profile named like an Object member is just a profile', async () => {
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: freshDir()})
    expect(store.profile('constructor')).toEqual({})
    store.set('constructor', 'org', 'acme')
    expect(store.get('constructor', 'org')).toBe('acme')
  })
})

describe('ConfigStore: a symbolic link to config.json', () => {
  it('is followed for reads, and a write replaces its target, keeping the link', async () => {
    const root = tempRoot()
    mkdirSync(join(root, 'dotfiles'))
    const target = join(root, 'dotfiles', 'amctl.json')
    writeFileSync(target, '{"profiles":{"default":{"org":"acme"}}}', {mode: 0o600})
    const dir = join(root, 'amctl')
    mkdirSync(dir)
    symlinkSync(target, join(dir, 'config.json'))
    const store = await ConfigStore.open({AMCTL_CONFIG_DIR: dir})
    expect(store.get('default', 'org')).toBe('acme')
    store.set('default', 'org', 'other')
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({profiles: {default: {org: 'other'}}})
    expect(readdirSync(dir)).toEqual(['config.json'])
  })
})

describe.skipIf(process.platform === 'win32')('localStateWarnings', () => {
  function state(dirMode: number, credentialsMode?: number): string {
    const dir = join(tempRoot(), 'amctl')
    mkdirSync(dir)
    chmodSync(dir, dirMode)
    if (credentialsMode !== undefined) {
      writeFileSync(join(dir, 'credentials.json'), '{}')
      chmodSync(join(dir, 'credentials.json'), credentialsMode)
    }
    return dir
  }

  it('says nothing for a plain 0755 directory with 0600 files, a private one, or none', () => {
    expect(localStateWarnings({AMCTL_CONFIG_DIR: state(0o755, 0o600)})).toEqual([])
    expect(localStateWarnings({AMCTL_CONFIG_DIR: state(0o700, 0o600)})).toEqual([])
    expect(localStateWarnings({AMCTL_CONFIG_DIR: join(tempRoot(), 'absent')})).toEqual([])
  })

  it.each(['0777', '0775', '0757', '1777'])('names a directory others can write (%s)', (octal) => {
    const dirMode = parseInt(octal, 8)
    const dir = state(dirMode)
    expect(localStateWarnings({AMCTL_CONFIG_DIR: dir})).toEqual([
      `the config directory ${dir} can be written by group or others (mode ${octal}); run: chmod 700 ${dir}`,
    ])
    expect(mode(dir)).toBe(dirMode & 0o777)
  })

  it.each(['0644', '0640', '0604'])('names a credentials.json others can read (%s)', (octal) => {
    const dir = state(0o700, parseInt(octal, 8))
    const file = join(dir, 'credentials.json')
    expect(localStateWarnings({AMCTL_CONFIG_DIR: dir})).toEqual([
      `${file} can be read by group or others (mode ${octal}); run: chmod 600 ${file}`,
    ])
  })

  it('gives both when both are open', () => {
    expect(localStateWarnings({AMCTL_CONFIG_DIR: state(0o777, 0o644)})).toHaveLength(2)
  })

  // a real chown: the tests run as root in CI (a non-root run cannot give a file away)
  it.runIf(process.getuid?.() === 0)('names a config directory, config.json or credentials.json another user owns, as ssh does', () => {
    const owned = (what: string) =>
      `${what} belongs to another user (uid 4321), who decides what amctl reads there; amctl sends no token stored in it`
    const dir = state(0o700, 0o600)
    writeFileSync(join(dir, 'config.json'), '{}')
    chownSync(join(dir, 'credentials.json'), 4321, 4321)
    expect(localStateWarnings({AMCTL_CONFIG_DIR: dir})).toEqual([owned(join(dir, 'credentials.json'))])
    chownSync(join(dir, 'config.json'), 4321, 4321)
    expect(localStateWarnings({AMCTL_CONFIG_DIR: dir})).toEqual([owned(join(dir, 'config.json')), owned(join(dir, 'credentials.json'))])
    // the directory's owner decides for everything in it: one warning
    chownSync(dir, 4321, 4321)
    expect(localStateWarnings({AMCTL_CONFIG_DIR: dir})).toEqual([owned(`the config directory ${dir}`)])
    // root's files are trusted, as ssh trusts them
    chownSync(dir, 0, 0)
    chownSync(join(dir, 'config.json'), 0, 0)
    chownSync(join(dir, 'credentials.json'), 0, 0)
    expect(localStateWarnings({AMCTL_CONFIG_DIR: dir})).toEqual([])
  })
})
