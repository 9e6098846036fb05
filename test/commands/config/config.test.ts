import {mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {beforeEach, describe, expect, it} from 'vitest'
import ConfigGet from '../../../src/commands/config/get.js'
import ConfigList from '../../../src/commands/config/list.js'
import ConfigSet from '../../../src/commands/config/set.js'
import ConfigUnset from '../../../src/commands/config/unset.js'
import {runCommand, type RunOptions} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/temp.js'

let dir: string
const run = (Cmd: Parameters<typeof runCommand>[0], argv: string[], opts: RunOptions = {}) =>
  runCommand(Cmd, argv, {...opts, env: {AMCTL_CONFIG_DIR: dir, ...opts.env}})
const stored = () => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))

beforeEach(() => {
  dir = join(tempDir('amctl-cfgcmd-'), 'amctl')
})

describe('config set / get / unset / list', () => {
  it('round-trips a value in the default profile, stored 0600 in a 0700 directory', async () => {
    const set = await run(ConfigSet, ['org', 'acme'])
    expect(set).toMatchObject({exitCode: 0, stdout: '', stderr: ''})
    expect(stored()).toEqual({profiles: {default: {org: 'acme'}}})
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600)

    const get = await run(ConfigGet, ['org'])
    expect(get).toMatchObject({exitCode: 0, stdout: 'acme\n', stderr: ''})
    const getJson = await run(ConfigGet, ['org', '--json'])
    expect(JSON.parse(getJson.stdout)).toEqual({profile: 'default', key: 'org', value: 'acme', source: 'profile'})

    const unset = await run(ConfigUnset, ['org'])
    expect(unset.exitCode).toBe(0)
    const after = await run(ConfigGet, ['org', '--json'])
    expect(JSON.parse(after.stdout)).toEqual({profile: 'default', key: 'org', value: null, source: null})
    const plain = await run(ConfigGet, ['org'])
    expect(plain).toMatchObject({exitCode: 0, stdout: ''})
  })

  it('normalizes a base URL (trailing slash dropped, prefix kept)', async () => {
    expect((await run(ConfigSet, ['base-url', 'https://api.example.com/prefix/'])).exitCode).toBe(0)
    expect((await run(ConfigGet, ['base-url'])).stdout).toBe('https://api.example.com/prefix\n')
  })

  it('keeps profiles apart (--profile and AMCTL_PROFILE)', async () => {
    await run(ConfigSet, ['org', 'acme'])
    await run(ConfigSet, ['org', 'acme-stg', '--profile', 'staging'])
    await run(ConfigSet, ['base-url', 'https://stg.example.com'], {env: {AMCTL_PROFILE: 'staging'}})
    expect(stored()).toEqual({
      profiles: {default: {org: 'acme'}, staging: {org: 'acme-stg', 'base-url': 'https://stg.example.com'}},
    })
    expect((await run(ConfigGet, ['org', '--profile', 'staging'])).stdout).toBe('acme-stg\n')
    // the flag beats the environment
    expect((await run(ConfigGet, ['org', '--profile', 'default'], {env: {AMCTL_PROFILE: 'staging'}})).stdout).toBe('acme\n')
  })

  it('list: the values in effect and where each came from; key<TAB>value piped, as before; --json adds the sources', async () => {
    await run(ConfigSet, ['org', 'acme'])
    await run(ConfigSet, ['base-url', 'https://api.example.com'])
    const tty = await run(ConfigList, [], {tty: true})
    expect(tty.stdout.split('\n').map((line) => line.trimEnd())).toEqual([
      'KEY       VALUE                    SOURCE',
      'profile   default                  built-in default',
      'base-url  https://api.example.com  profile "default"',
      'org       acme                     profile "default"',
      '',
    ])
    const piped = await run(ConfigList, [])
    expect(piped.stdout).toBe('base-url\thttps://api.example.com\norg\tacme\n')
    const json = await run(ConfigList, ['--json'])
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'default',
      'base-url': 'https://api.example.com',
      org: 'acme',
      sources: {profile: 'default', 'base-url': 'profile', org: 'profile'},
    })
    expect(json.stdout.trim().split('\n')).toHaveLength(1)
  })

  it('list never hides the default server, and names the variable or flag that won', async () => {
    const empty = await run(ConfigList, [], {tty: true})
    expect(empty.stdout).toMatch(/^base-url +http:\/\/127\.0\.0\.1:4010 +built-in default$/m)
    expect(empty.stdout).toMatch(/^org +- +not set: your login's only organization is used$/m)
    expect((await run(ConfigList, [])).stdout).toBe('base-url\thttp://127.0.0.1:4010\n')
    expect(JSON.parse((await run(ConfigList, ['--json'])).stdout)).toEqual({
      profile: 'default',
      'base-url': 'http://127.0.0.1:4010',
      org: null,
      sources: {profile: 'default', 'base-url': 'default', org: null},
    })
    await run(ConfigSet, ['org', 'acme', '--profile', 'prod'])
    const env = {AMCTL_PROFILE: 'prod', AMCTL_ORG: 'globex'}
    const given = await run(ConfigList, ['--base-url', 'https://flag.example.com/'], {tty: true, env})
    expect(given.stdout).toMatch(/^profile +prod +AMCTL_PROFILE$/m)
    expect(given.stdout).toMatch(/^base-url +https:\/\/flag\.example\.com +--base-url$/m)
    expect(given.stdout).toMatch(/^org +globex +AMCTL_ORG$/m)
    const json = await run(ConfigList, ['--base-url', 'https://flag.example.com/', '--org', 'initech', '--json'], {env})
    expect(JSON.parse(json.stdout)).toEqual({
      profile: 'prod',
      'base-url': 'https://flag.example.com',
      org: 'initech',
      sources: {profile: 'environment', 'base-url': 'flag', org: 'flag'},
    })
  })

  it('get: the value in effect on stdout; where it came from on stderr at a terminal only; --json adds the source', async () => {
    const tty = await run(ConfigGet, ['base-url'], {tty: true})
    expect(tty).toMatchObject({
      exitCode: 0,
      stdout: 'http://127.0.0.1:4010\n',
      stderr: 'from: built-in default (not set in profile "default")\n',
    })
    const piped = await run(ConfigGet, ['base-url'])
    expect(piped).toMatchObject({exitCode: 0, stdout: 'http://127.0.0.1:4010\n', stderr: ''})
    expect(JSON.parse((await run(ConfigGet, ['base-url', '--json'])).stdout)).toEqual({
      profile: 'default',
      key: 'base-url',
      value: 'http://127.0.0.1:4010',
      source: 'default',
    })
    const env = await run(ConfigGet, ['base-url'], {tty: true, env: {AMCTL_BASE_URL: 'https://env.example.com'}})
    expect(env).toMatchObject({stdout: 'https://env.example.com\n', stderr: 'from: AMCTL_BASE_URL\n'})
    const org = await run(ConfigGet, ['org'], {tty: true})
    expect(org).toMatchObject({
      exitCode: 0,
      stdout: '',
      stderr: 'org is not set (profile "default", AMCTL_ORG, --org): your login\'s only organization is used\n',
    })
  })

  it('unset of a key that is not set says so on stderr, exit 0', async () => {
    const r = await run(ConfigUnset, ['org', '--json'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({profile: 'default', key: 'org', removed: false})
    expect(r.stderr).toContain('org was not set in profile "default"')
  })
})

describe('config errors', () => {
  it('an unknown key is exit 2 naming the valid keys, and nothing is written', async () => {
    const r = await run(ConfigSet, ['foo', 'x'])
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr.split('\n')[0]).toBe('error: unknown config key "foo"; valid keys: base-url, org (invalid_request)')
    for (const Cmd of [ConfigGet, ConfigUnset]) {
      const other = await run(Cmd, ['token'])
      expect(other.exitCode).toBe(2)
      expect(other.stderr).toContain('valid keys: base-url, org')
    }
  })

  it('an unknown key with --json is the error document alone on stdout', async () => {
    const r = await run(ConfigSet, ['foo', 'x', '--json'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toEqual({error: {code: 'invalid_request', message: 'unknown config key "foo"; valid keys: base-url, org'}})
  })

  it.each([
    'http://example.com',
    'http://foo.localhost',
    'http://localhost.example.com',
    'http://127.0.0.1.nip.io',
    'ftp://example.com',
    'example.com',
    'https://u:p@example.com',
    'https://example.com/?q=1',
  ])('base-url %s is exit 2 and not stored', async (value) => {
    await run(ConfigSet, ['base-url', 'https://good.example.com'])
    const r = await run(ConfigSet, ['base-url', value])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: .*\(invalid_request\)\n/)
    expect(stored().profiles.default['base-url']).toBe('https://good.example.com')
  })

  it('http is accepted for loopback hosts', async () => {
    expect((await run(ConfigSet, ['base-url', 'http://127.0.0.1:4010/'])).exitCode).toBe(0)
    expect((await run(ConfigSet, ['base-url', 'http://localhost:4010'])).exitCode).toBe(0)
    expect((await run(ConfigSet, ['base-url', 'http://[::1]:4010'])).exitCode).toBe(0)
  })

  it('an invalid profile name is exit 2', async () => {
    const r = await run(ConfigSet, ['org', 'acme', '--profile', '../evil'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: invalid profile name "..\/evil"/)
  })

  it('an unknown flag is exit 2 with one error line', async () => {
    const r = await run(ConfigList, ['--bogus'])
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^error: .*--bogus.* \(invalid_request\)$/)
    expect(lines.filter((l) => l.startsWith('error:'))).toHaveLength(1)
    // at most one hint line besides it, and no stack trace
    expect(lines.slice(1).every((l) => l.startsWith('hint: '))).toBe(true)
    expect(lines.length).toBeLessThanOrEqual(2)
  })

  it('an unknown flag with --json is the error document on stdout', async () => {
    const r = await run(ConfigList, ['--bogus', '--json'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toMatchObject({error: {code: 'invalid_request', message: expect.stringContaining('--bogus')}})
  })

  it('a corrupt config.json is one error line naming the file, exit 1, no stack trace', async () => {
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, 'config.json'), '{"profiles": {')
    const r = await run(ConfigList, [])
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    const lines = r.stderr.split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0].startsWith(`error: ${join(dir, 'config.json')} is not valid JSON (`)).toBe(true)
    expect(lines[0].endsWith('); fix or delete it (invalid_config)')).toBe(true)
    // the file is left for the user to fix
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"profiles": {')
  })

  it('a missing argument is exit 2', async () => {
    const r = await run(ConfigSet, ['org'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: /)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('config: typed results and renderer', () => {
  it('get returns the value and hands it to the renderer as text; list its values as an object piped, a table on a terminal', async () => {
    await run(ConfigSet, ['org', 'acme'])
    const get = await run(ConfigGet, ['org'])
    expect(get.result).toEqual({profile: 'default', key: 'org', value: 'acme', source: 'profile'})
    expect(get.rendered).toEqual([{method: 'text', value: 'acme'}])
    const list = await run(ConfigList, [])
    const result = {
      profile: 'default',
      'base-url': 'http://127.0.0.1:4010',
      org: 'acme',
      sources: {profile: 'default', 'base-url': 'default', org: 'profile'},
    }
    expect(list.result).toEqual(result)
    expect(list.rendered).toEqual([{method: 'object', value: {'base-url': 'http://127.0.0.1:4010', org: 'acme'}}])
    const tty = await run(ConfigList, [], {tty: true})
    expect(tty.result).toEqual(result)
    expect(tty.rendered).toEqual([{method: 'list', rows: expect.any(Array), columns: ['KEY', 'VALUE', 'SOURCE']}])
  })

  it('set shows nothing; unset of a value that was not set says so', async () => {
    const set = await run(ConfigSet, ['base-url', 'https://api.example.com'])
    expect(set.result).toEqual({profile: 'default', key: 'base-url', value: 'https://api.example.com'})
    expect(set.rendered).toEqual([])
    const unset = await run(ConfigUnset, ['org'])
    expect(unset.result).toEqual({profile: 'default', key: 'org', removed: false})
    expect(unset.rendered).toEqual([{method: 'notice', text: 'org was not set in profile "default"'}])
  })
})
