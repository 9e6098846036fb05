import {chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {type BinOptions, runBin} from '../helpers/bin.js'
import {sendJson, startServer, type TestServer} from '../helpers/http-server.js'
import {tempDir} from '../helpers/temp.js'

// The local state (contract 1.2, 1.3) through the built CLI: the config directory's mode, the
// warnings about one open to others, stored tokens held to the token form, config files of the
// wrong shape, and reading commands where the directory is absent, read-only or impossible.
// Tests run as root here, which ignores permission bits: "cannot be created" uses /proc, where
// even root cannot make a directory, and the EACCES cases run only for other users.

const GOOD = 'svc_local_state_good_1234'
const ME = {id: 'usr_1', email: 'ada@acme.test', name: 'Ada', orgs: [{slug: 'acme', publicId: 'org_1', name: 'Acme'}]}
const isRoot = process.getuid?.() === 0
const onLinux = process.platform === 'linux'
const mode = (p: string) => statSync(p).mode & 0o7777

let server: TestServer
beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.headers.authorization === `Bearer ${GOOD}`) sendJson(res, 200, ME)
    else sendJson(res, 401, {error: {code: 'unauthorized', message: 'invalid token'}})
  })
})
afterAll(() => server?.close())

const roots: string[] = []
/** A fresh temp root (removed when the file ends); the config dir inside it does not exist yet. */
function tempRoot(): string {
  const root = tempDir('amctl-local-')
  roots.push(root)
  return root
}
// a test may leave a directory without write or search permission: give it back, so it can be removed
afterEach(() => {
  for (const root of roots.splice(0)) {
    chmodSync(root, 0o700)
    for (const name of readdirSync(root)) if (lstatSync(join(root, name)).isDirectory()) chmodSync(join(root, name), 0o700)
  }
})

/** A config directory with the given mode (created by the test, so amctl finds it existing). */
function existingDir(dirMode: number, files: Record<string, string> = {}): string {
  const dir = join(tempRoot(), 'amctl')
  mkdirSync(dir)
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content, {mode: 0o600})
  chmodSync(dir, dirMode)
  return dir
}

const amctl = (argv: string[], configDir: string, opts: BinOptions = {}) =>
  runBin(argv, {...opts, env: {AMCTL_CONFIG_DIR: configDir, ...opts.env}})

const warnings = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('warning:'))

describe('the config directory', () => {
  it('is created 0700 (and the file 0600) when amctl creates it', async () => {
    const dir = join(tempRoot(), 'nested', 'amctl')
    const set = await amctl(['config', 'set', 'org', 'acme'], dir)
    expect(set).toMatchObject({exitCode: 0, stderr: ''})
    expect(mode(dir)).toBe(0o700)
    expect(mode(join(dir, 'config.json'))).toBe(0o600)
  })

  it('that exists keeps its mode: a plain 0755 directory with 0600 files draws no warning', async () => {
    const dir = existingDir(0o755)
    expect(await amctl(['config', 'set', 'org', 'acme'], dir)).toMatchObject({exitCode: 0, stderr: ''})
    expect(await amctl(['config', 'list'], dir)).toMatchObject({
      exitCode: 0,
      stdout: 'base-url\thttp://127.0.0.1:4010\norg\tacme\n',
      stderr: '',
    })
    expect(mode(dir)).toBe(0o755)
  })

  it('writable by others is named in one warning line, and not changed', async () => {
    const dir = existingDir(0o777)
    const list = await amctl(['config', 'list'], dir)
    expect(list.exitCode).toBe(0)
    const warning = `warning: the config directory ${dir} can be written by group or others (mode 0777); run: chmod 700 ${dir}`
    expect(warnings(list.stderr)).toEqual([warning])
    const set = await amctl(['config', 'set', 'org', 'acme'], dir)
    expect(set.exitCode).toBe(0)
    expect(warnings(set.stderr)).toHaveLength(1)
    expect(mode(dir)).toBe(0o777)
  })

  it('a credentials.json others can read is named once, even when the store and the token both look', async () => {
    const dir = existingDir(0o700)
    const file = join(dir, 'credentials.json')
    writeFileSync(file, JSON.stringify({version: 1, tokens: {[`default@${server.url}`]: {token: GOOD}}}))
    chmodSync(file, 0o644)
    const status = await amctl(['auth', 'status', '--json'], dir, {env: {AMCTL_BASE_URL: server.url}})
    expect(status.exitCode).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({tokenSource: 'file'})
    expect(warnings(status.stderr)).toEqual([`warning: ${file} can be read by group or others (mode 0644); run: chmod 600 ${file}`])
    expect(mode(file)).toBe(0o644)
  })
})

describe('a stored token of the wrong form', () => {
  it('is never sent: exit 3 with the hint to log in again, and the token is not shown', async () => {
    const dir = existingDir(0o700)
    const account = `default@${server.url}`
    const content = JSON.stringify({version: 1, tokens: {[account]: {token: 'svc_has a space'}}})
    writeFileSync(join(dir, 'credentials.json'), content, {mode: 0o600})
    const before = server.requests.length
    for (const argv of [
      ['auth', 'status'],
      ['connections', 'list', '--org', 'acme'],
    ]) {
      const result = await amctl(argv, dir, {env: {AMCTL_BASE_URL: server.url}})
      expect(result.exitCode, result.stderr).toBe(3)
      const form = 'a token starts with "svc_" and has no whitespace or control characters'
      const line = `error: the token stored in credentials.json for ${account} is malformed (${form}) (unauthorized)`
      expect(result.stderr).toBe(`${line}\nhint: run \`amctl auth login\`\n`)
    }
    const json = await amctl(['auth', 'status', '--json'], dir, {env: {AMCTL_BASE_URL: server.url}})
    expect(json.exitCode).toBe(3)
    expect(JSON.parse(json.stdout)).toMatchObject({error: {code: 'unauthorized'}})
    expect(server.requests.length).toBe(before)
  })
})

describe('a config file of the wrong shape', () => {
  it.each([
    ['"text"', 'expected a JSON object'],
    ['[1,2]', 'expected a JSON object'],
    ['{"profiles":"x"}', '"profiles" must be an object of profiles'],
    ['{"profiles":{"default":"x"}}', 'profile "default" must be an object of settings'],
    ['{"profiles":{"default":{"org":5}}}', '"org" of profile "default" must be a string'],
  ])('%s is reported as corrupt naming the file (exit 1), never merged into', async (content, problem) => {
    const dir = existingDir(0o700, {'config.json': content})
    const file = join(dir, 'config.json')
    const expected = `error: ${file} is corrupt: ${problem}; fix or delete it (invalid_config)\n`
    expect(await amctl(['config', 'list'], dir)).toMatchObject({exitCode: 1, stderr: expected})
    expect(await amctl(['config', 'set', 'org', 'acme'], dir)).toMatchObject({exitCode: 1, stderr: expected})
    const api = await amctl(['connections', 'list'], dir, {env: {AMCTL_TOKEN: GOOD, AMCTL_BASE_URL: server.url}})
    expect(api).toMatchObject({exitCode: 1, stderr: expected})
    expect(readFileSync(file, 'utf8')).toBe(content)
    expect(readdirSync(dir)).toEqual(['config.json'])
  })

  it('a config.json that is a directory is one line naming it, not an unexpected failure', async () => {
    const dir = existingDir(0o700)
    mkdirSync(join(dir, 'config.json'))
    for (const argv of [
      ['config', 'list'],
      ['config', 'set', 'org', 'acme'],
    ]) {
      const result = await amctl(argv, dir)
      const stderr = `error: cannot read ${join(dir, 'config.json')}: illegal operation on a directory (EISDIR) (file_error)\n`
      expect(result).toMatchObject({exitCode: 1, stderr})
    }
  })
})

describe('reading commands without a usable config directory', () => {
  it('work when it is absent, and create nothing', async () => {
    const root = tempRoot()
    const dir = join(root, 'amctl')
    // (the default server, which is never hidden)
    expect(await amctl(['config', 'list'], dir)).toMatchObject({exitCode: 0, stdout: 'base-url\thttp://127.0.0.1:4010\n', stderr: ''})
    expect(await amctl(['config', 'get', 'org'], dir)).toMatchObject({exitCode: 0, stdout: ''})
    const status = await amctl(['auth', 'status', '--json'], dir, {env: {AMCTL_TOKEN: GOOD, AMCTL_BASE_URL: server.url}})
    expect(status.exitCode, status.stderr).toBe(0)
    const noToken = await amctl(['auth', 'status'], dir, {env: {AMCTL_BASE_URL: server.url}})
    expect(noToken.exitCode).toBe(3)
    expect(readdirSync(root)).toEqual([])
  })

  it.runIf(onLinux)('work where it cannot be created (/proc/self/amctl); a write fails at once naming it', async () => {
    const dir = '/proc/self/amctl'
    expect(await amctl(['config', 'list'], dir)).toMatchObject({exitCode: 0, stderr: ''})
    const status = await amctl(['auth', 'status', '--json'], dir, {env: {AMCTL_TOKEN: GOOD, AMCTL_BASE_URL: server.url, AMCTL_ORG: 'acme'}})
    expect(status.exitCode, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({tokenSource: 'env', org: 'acme'})
    const flags = await amctl(['auth', 'status', '--json', '--base-url', server.url], dir, {env: {AMCTL_TOKEN: GOOD}})
    expect(flags.exitCode, flags.stderr).toBe(0)

    const set = await amctl(['config', 'set', 'org', 'acme'], dir, {timeoutMs: 15_000})
    expect(set).toMatchObject({
      exitCode: 1,
      signal: null,
      stderr: 'error: cannot create directory /proc/self/amctl: no such file or directory (ENOENT) (file_error)\n',
    })
    const loginArgv = ['auth', 'login', '--with-token', '--insecure-storage', '--base-url', server.url]
    const login = await amctl(loginArgv, dir, {input: `${GOOD}\n`, timeoutMs: 15_000})
    expect(login.exitCode).toBe(1)
    expect(login.stderr).toContain('error: cannot create directory /proc/self/amctl: no such file or directory (ENOENT)')
    expect(login.stderr).not.toContain('unexpected failure')
  })

  it.skipIf(isRoot)('work when it is read-only; a write names the path and EACCES (skipped as root: root ignores modes)', async () => {
    const dir = existingDir(0o700, {'config.json': '{"profiles":{"default":{"org":"acme"}}}'})
    chmodSync(dir, 0o500)
    expect(await amctl(['config', 'get', 'org'], dir)).toMatchObject({exitCode: 0, stdout: 'acme\n', stderr: ''})
    const set = await amctl(['config', 'set', 'org', 'other'], dir)
    const stderr = `error: cannot create ${join(dir, 'config.json')}.lock: permission denied (EACCES) (file_error)\n`
    expect(set).toMatchObject({exitCode: 1, stderr})
  })
})

describe('symbolic links to config.json and credentials.json', () => {
  it('are followed: reads read the target, writes replace the target and keep the link', async () => {
    const root = tempRoot()
    const dir = join(root, 'amctl')
    mkdirSync(join(root, 'dotfiles'))
    mkdirSync(dir, {mode: 0o700})
    const configTarget = join(root, 'dotfiles', 'config.json')
    const credentialsTarget = join(root, 'dotfiles', 'credentials.json')
    writeFileSync(configTarget, '{"profiles":{"default":{"org":"acme"}}}', {mode: 0o600})
    symlinkSync(configTarget, join(dir, 'config.json'))
    symlinkSync(credentialsTarget, join(dir, 'credentials.json'))

    expect(await amctl(['config', 'get', 'org'], dir)).toMatchObject({exitCode: 0, stdout: 'acme\n'})
    expect(await amctl(['config', 'set', 'org', 'other'], dir)).toMatchObject({exitCode: 0, stderr: ''})
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(configTarget, 'utf8'))).toEqual({profiles: {default: {org: 'other'}}})

    // a link to a file that does not exist yet is refused on a write, naming it
    const loginArgv = ['auth', 'login', '--with-token', '--insecure-storage', '--base-url', server.url]
    const login = await amctl(loginArgv, dir, {input: `${GOOD}\n`})
    const stderr = `error: cannot write ${join(dir, 'credentials.json')}: it is a symbolic link to a missing file (file_error)\n`
    expect(login).toMatchObject({exitCode: 1, stderr})
    writeFileSync(credentialsTarget, '{"version":1,"tokens":{}}', {mode: 0o600})
    const again = await amctl(loginArgv, dir, {input: `${GOOD}\n`})
    expect(again.exitCode, again.stderr).toBe(0)
    expect(lstatSync(join(dir, 'credentials.json')).isSymbolicLink()).toBe(true)
    expect(JSON.parse(readFileSync(credentialsTarget, 'utf8')).tokens[`default@${server.url}`].token).toBe(GOOD)
    expect(existsSync(join(dir, 'credentials.json.lock'))).toBe(false)
  })
})
