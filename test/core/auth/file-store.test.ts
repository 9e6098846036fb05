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
  utimesSync,
  writeFileSync,
} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {credentialsPath, fileStore} from '../../../src/core/auth/file-store.js'
import {tempDir} from '../../helpers/temp.js'

const mode = (p: string) => statSync(p).mode & 0o777
const freshEnv = () => ({AMCTL_CONFIG_DIR: join(tempDir('amctl-creds-'), 'cfg')})
const isRoot = process.getuid?.() === 0

describe('fileStore', () => {
  it('stores tokens per account in <config dir>/credentials.json, 0600 in a 0700 directory', () => {
    const env = freshEnv()
    expect(fileStore.get('default@https://a.example', env)).toBeUndefined()
    fileStore.set('default@https://a.example', 'svc_aaaa1111', env)
    fileStore.set('prod@https://b.example', 'svc_bbbb2222', env)
    const file = credentialsPath(env)
    expect(file).toBe(join(env.AMCTL_CONFIG_DIR, 'credentials.json'))
    expect(mode(env.AMCTL_CONFIG_DIR)).toBe(0o700)
    expect(mode(file)).toBe(0o600)
    expect(fileStore.get('default@https://a.example', env)).toBe('svc_aaaa1111')
    expect(fileStore.get('prod@https://b.example', env)).toBe('svc_bbbb2222')
    const shape = JSON.parse(readFileSync(file, 'utf8'))
    expect(shape.version).toBe(1)
    expect(Object.keys(shape.tokens).sort()).toEqual(['default@https://a.example', 'prod@https://b.example'])
    // no temp or lock file is left behind
    expect(readdirSync(env.AMCTL_CONFIG_DIR)).toEqual(['credentials.json'])
  })

  it('overwrites an account and deletes only the one asked for', () => {
    const env = freshEnv()
    fileStore.set('a', 'svc_old', env)
    fileStore.set('a', 'svc_new', env)
    fileStore.set('b', 'svc_b', env)
    expect(fileStore.get('a', env)).toBe('svc_new')
    expect(fileStore.delete('a', env)).toBe(true)
    expect(fileStore.delete('a', env)).toBe(false)
    expect(fileStore.get('a', env)).toBeUndefined()
    expect(fileStore.get('b', env)).toBe('svc_b')
    expect(readdirSync(env.AMCTL_CONFIG_DIR)).toEqual(['credentials.json'])
  })

  it('get and delete without a file are no-ops that create nothing', () => {
    const env = freshEnv()
    expect(fileStore.get('a', env)).toBeUndefined()
    expect(fileStore.delete('a', env)).toBe(false)
    expect(existsSync(env.AMCTL_CONFIG_DIR)).toBe(false)
  })

  it('delete of an account that is not there writes nothing', () => {
    const env = freshEnv()
    fileStore.set('a', 'svc_a', env)
    const before = statSync(credentialsPath(env)).mtimeMs
    chmodSync(credentialsPath(env), 0o400)
    expect(fileStore.delete('b', env)).toBe(false)
    expect(statSync(credentialsPath(env)).mtimeMs).toBe(before)
    expect(mode(credentialsPath(env))).toBe(0o400)
  })

  it.each(['0755', '0777'])('never changes the mode of a config directory that exists (%s)', (octal) => {
    const existing = parseInt(octal, 8)
    const env = freshEnv()
    mkdirSync(env.AMCTL_CONFIG_DIR, {recursive: true})
    chmodSync(env.AMCTL_CONFIG_DIR, existing)
    fileStore.set('a', 'svc_a', env)
    expect(mode(env.AMCTL_CONFIG_DIR)).toBe(existing)
    expect(mode(credentialsPath(env))).toBe(0o600)
  })

  it('a symbolic link is followed: read through it, and a write replaces its target and keeps the link', () => {
    const env = freshEnv()
    const target = join(env.AMCTL_CONFIG_DIR, '..', 'elsewhere.json')
    mkdirSync(env.AMCTL_CONFIG_DIR)
    writeFileSync(target, '{"version":1,"tokens":{"a":{"token":"svc_a"}}}', {mode: 0o600})
    symlinkSync(target, credentialsPath(env))
    expect(fileStore.get('a', env)).toBe('svc_a')
    fileStore.set('b', 'svc_b', env)
    expect(lstatSync(credentialsPath(env)).isSymbolicLink()).toBe(true)
    expect(Object.keys(JSON.parse(readFileSync(target, 'utf8')).tokens)).toEqual(['a', 'b'])
    expect(mode(target)).toBe(0o600)
  })

  it('a corrupt file is an error naming it (exit 1), and is not overwritten', () => {
    const env = freshEnv()
    mkdirSync(env.AMCTL_CONFIG_DIR, {recursive: true})
    const file = credentialsPath(env)
    writeFileSync(file, '{"tokens": {', {mode: 0o600})
    expect(() => fileStore.get('a', env)).toThrow(expect.objectContaining({exitCode: 1, message: expect.stringContaining(file)}))
    expect(() => fileStore.set('a', 'svc_a', env)).toThrow(/not valid JSON/)
    expect(readFileSync(file, 'utf8')).toBe('{"tokens": {')
    // the lock was released
    expect(readdirSync(env.AMCTL_CONFIG_DIR)).toEqual(['credentials.json'])
  })

  it.each([
    ['null', 'expected a JSON object'],
    ['[]', 'expected a JSON object'],
    ['"text"', 'expected a JSON object'],
    ['{"tokens": 5}', '"tokens" must be an object'],
    ['{"tokens": []}', '"tokens" must be an object'],
    ['{"tokens": {"a": "svc_a"}}', 'the entry for "a" has no token'],
    ['{"tokens": {"a": {"token": 5}}}', 'the entry for "a" has no token'],
    ['{"version": 2, "tokens": {}}', 'unknown version 2'],
  ])('a file holding %s is corrupt (exit 1, naming it) and never overwritten', (content, problem) => {
    const env = freshEnv()
    mkdirSync(env.AMCTL_CONFIG_DIR, {recursive: true})
    const file = credentialsPath(env)
    writeFileSync(file, content, {mode: 0o600})
    const message = `${file} is corrupt: ${problem}; fix or delete it`
    const corrupt = expect.objectContaining({exitCode: 1, code: 'invalid_config', message})
    expect(() => fileStore.get('a', env)).toThrow(corrupt)
    expect(() => fileStore.delete('a', env)).toThrow(corrupt)
    expect(() => fileStore.set('a', 'svc_a', env)).toThrow(corrupt)
    expect(readFileSync(file, 'utf8')).toBe(content)
    expect(readdirSync(env.AMCTL_CONFIG_DIR)).toEqual(['credentials.json'])
  })

  it('keeps members it does not know on a write', () => {
    const env = freshEnv()
    mkdirSync(env.AMCTL_CONFIG_DIR, {recursive: true})
    writeFileSync(credentialsPath(env), '{"version":1,"tokens":{"a":{"token":"svc_a","note":"ci"}},"extra":true}', {mode: 0o600})
    fileStore.set('b', 'svc_b', env)
    const shape = JSON.parse(readFileSync(credentialsPath(env), 'utf8'))
    expect(shape).toMatchObject({version: 1, extra: true, tokens: {a: {token: 'svc_a', note: 'ci'}, b: {token: 'svc_b'}}})
  })

  it('breaks a stale lock left by a crashed process', () => {
    const env = freshEnv()
    fileStore.set('a', 'svc_a', env)
    const lock = `${credentialsPath(env)}.lock`
    writeFileSync(lock, '')
    const old = new Date(Date.now() - 60_000)
    utimesSync(lock, old, old)
    fileStore.set('b', 'svc_b', env)
    expect(fileStore.get('b', env)).toBe('svc_b')
    expect(existsSync(lock)).toBe(false)
  })

  it.skipIf(isRoot)('a failed write (read-only directory) keeps the old file (skipped as root: root ignores modes)', () => {
    const env = freshEnv()
    fileStore.set('a', 'svc_old', env)
    chmodSync(env.AMCTL_CONFIG_DIR, 0o500)
    try {
      expect(() => fileStore.set('a', 'svc_new', env)).toThrow()
    } finally {
      chmodSync(env.AMCTL_CONFIG_DIR, 0o700)
    }
    expect(fileStore.get('a', env)).toBe('svc_old')
    expect(readdirSync(env.AMCTL_CONFIG_DIR)).toEqual(['credentials.json'])
  })

  it.runIf(isRoot)('never hands out a token from a file or a directory another user owns (exit 3); root-owned is fine', () => {
    const env = freshEnv()
    fileStore.set('default@https://api.example.com', 'svc_planted_1234', env)
    const file = credentialsPath(env)
    chownSync(file, 4321, 4321)
    const refused = () => fileStore.get('default@https://api.example.com', env)
    expect(refused).toThrow(
      `${file} or its directory belongs to another user (uid 4321): amctl sends no token stored there; set AMCTL_TOKEN, or log in with a config directory of your own (AMCTL_CONFIG_DIR)`,
    )
    try {
      refused()
    } catch (error) {
      expect(error).toMatchObject({code: 'unauthorized', exitCode: 3})
    }
    chownSync(file, 0, 0)
    expect(refused()).toBe('svc_planted_1234')
    chownSync(join(file, '..'), 4321, 4321)
    expect(refused).toThrow(/belongs to another user \(uid 4321\)/)
    // an account that is not there is simply absent
    expect(fileStore.get('other@https://api.example.com', env)).toBeUndefined()
  })
})
