import {chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {isAmctlError} from '../../src/core/errors.js'
import {ensurePrivateDir, fileSystemError, readJsonFile, updateJsonFile, withFileLock, writeFileAtomic} from '../../src/core/fs-atomic.js'
import {tempDir} from '../helpers/temp.js'

const mode = (p: string) => statSync(p).mode & 0o777
const dir = () => tempDir('amctl-atomic-')

/** What a call threw, checked to be amctl's one-line error. */
function failure(fn: () => unknown): {message: string; code: string; exitCode: number} {
  try {
    fn()
  } catch (error) {
    expect(isAmctlError(error), String(error)).toBe(true)
    return error as {message: string; code: string; exitCode: number}
  }
  throw new Error('expected a failure')
}
const isRoot = process.getuid?.() === 0

describe('writeFileAtomic', () => {
  it('writes the content with mode 0600 and leaves no temp file', () => {
    const d = dir()
    const file = join(d, 'credentials.json')
    const old = process.umask(0o000)
    try {
      writeFileAtomic(file, '{"a":1}\n')
    } finally {
      process.umask(old)
    }
    expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n')
    expect(mode(file)).toBe(0o600)
    expect(readdirSync(d)).toEqual(['credentials.json'])
  })

  it('replaces an existing file and tightens its mode', () => {
    const d = dir()
    const file = join(d, 'x.json')
    writeFileSync(file, 'old', {mode: 0o644})
    writeFileAtomic(file, 'new')
    expect(readFileSync(file, 'utf8')).toBe('new')
    expect(mode(file)).toBe(0o600)
    expect(readdirSync(d)).toEqual(['x.json'])
  })

  it('writes strings given in pieces, in order, and returns the bytes written', () => {
    const d = dir()
    const file = join(d, 'report.html')
    expect(writeFileAtomic(file, ['<p>', 'é', '</p>\n'], 0o644)).toBe(10)
    expect(readFileSync(file, 'utf8')).toBe('<p>é</p>\n')
    expect(mode(file)).toBe(0o644)
    expect(writeFileAtomic(file, 'né')).toBe(3)
  })

  it('pieces that fail while they are made leave the old file intact and no temp file', () => {
    const d = dir()
    const file = join(d, 'report.html')
    writeFileSync(file, 'old content')
    const pieces = function* () {
      yield 'new '
      throw new Error('the page could not be made')
    }
    expect(() => writeFileAtomic(file, pieces())).toThrow('the page could not be made')
    expect(readFileSync(file, 'utf8')).toBe('old content')
    expect(readdirSync(d)).toEqual(['report.html'])
  })

  it('a write that fails part-way leaves the old file intact and no temp file', () => {
    const d = dir()
    // the file name fits, the temp name beside it does not (ENAMETOOLONG): fails even for root
    const file = join(d, `${'c'.repeat(240)}.json`)
    writeFileSync(file, 'old content')
    expect(() => writeFileAtomic(file, 'new content')).toThrow()
    expect(readFileSync(file, 'utf8')).toBe('old content')
    expect(readdirSync(d)).toHaveLength(1)
  })

  it.skipIf(isRoot)('a write into a read-only directory fails and leaves the old file intact (skipped as root)', () => {
    const d = dir()
    const file = join(d, 'credentials.json')
    writeFileSync(file, 'old content')
    chmodSync(d, 0o500)
    try {
      expect(() => writeFileAtomic(file, 'new content')).toThrow(/EACCES|EPERM/)
      expect(readFileSync(file, 'utf8')).toBe('old content')
      expect(readdirSync(d)).toEqual(['credentials.json'])
    } finally {
      chmodSync(d, 0o700)
    }
  })
})

describe('writeFileAtomic through a symbolic link', () => {
  it('replaces the target and keeps the link', () => {
    const d = dir()
    mkdirSync(join(d, 'dotfiles'))
    const target = join(d, 'dotfiles', 'config.json')
    writeFileSync(target, 'old', {mode: 0o600})
    const link = join(d, 'config.json')
    symlinkSync(target, link)
    writeFileAtomic(link, 'new')
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe('new')
    expect(mode(target)).toBe(0o600)
    expect(readdirSync(join(d, 'dotfiles'))).toEqual(['config.json'])
  })

  it('refuses a link to a missing file, naming the link', () => {
    const d = dir()
    const link = join(d, 'config.json')
    symlinkSync(join(d, 'nowhere', 'config.json'), link)
    expect(failure(() => writeFileAtomic(link, 'x')).message).toBe(`cannot write ${link}: it is a symbolic link to a missing file`)
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
  })
})

describe('ensurePrivateDir', () => {
  it('creates missing parents and the directory with 0700, whatever the umask', () => {
    const target = join(dir(), 'a', 'b')
    const old = process.umask(0o000)
    try {
      ensurePrivateDir(target)
    } finally {
      process.umask(old)
    }
    expect(mode(target)).toBe(0o700)
    expect(mode(join(target, '..'))).toBe(0o700)
  })

  it.each(['0755', '0777', '0750'])('never changes the mode of a directory that exists (%s)', (octal) => {
    const existing = parseInt(octal, 8)
    const target = join(dir(), 'shared')
    mkdirSync(target)
    chmodSync(target, existing)
    ensurePrivateDir(target)
    expect(mode(target)).toBe(existing)
  })

  it('a file in the way is one line naming it', () => {
    const file = join(dir(), 'amctl')
    writeFileSync(file, '')
    const e = failure(() => ensurePrivateDir(file))
    expect(e).toMatchObject({exitCode: 1, message: `cannot create directory ${file}: file already exists (EEXIST)`})
    const sub = join(file, 'sub')
    expect(failure(() => ensurePrivateDir(sub)).message).toBe(`cannot create directory ${sub}: not a directory (ENOTDIR)`)
  })
})

describe('withFileLock', () => {
  it('runs the change and removes the lock', () => {
    const file = join(dir(), 'config.json')
    expect(withFileLock(file, () => existsSync(`${file}.lock`))).toBe(true)
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('reports a lock that cannot be created at once, naming it (no waiting but on EEXIST)', () => {
    const file = join(dir(), 'missing', 'config.json')
    let ran = false
    const e = failure(() =>
      withFileLock(file, () => {
        ran = true
      }),
    )
    expect(e).toMatchObject({message: `cannot create ${file}.lock: no such file or directory (ENOENT)`, code: 'file_error', exitCode: 1})
    expect(ran).toBe(false)
  })
})

describe('readJsonFile', () => {
  it('is undefined for a missing file or directory, and creates nothing', () => {
    const missing = join(dir(), 'nope', 'config.json')
    expect(readJsonFile(missing)).toBeUndefined()
    expect(existsSync(join(missing, '..'))).toBe(false)
  })

  it('parses a file, following a symbolic link', () => {
    const d = dir()
    writeFileSync(join(d, 'real.json'), '{"a":1}')
    symlinkSync(join(d, 'real.json'), join(d, 'config.json'))
    expect(readJsonFile(join(d, 'config.json'))).toEqual({a: 1})
  })

  it('invalid JSON is corrupt (exit 1) naming the file', () => {
    const file = join(dir(), 'config.json')
    writeFileSync(file, '{"profiles": {')
    const e = failure(() => readJsonFile(file))
    expect(e).toMatchObject({code: 'invalid_config', exitCode: 1})
    expect(e.message.startsWith(`${file} is not valid JSON`)).toBe(true)
  })

  it('a directory where the file should be is one line naming it', () => {
    const file = join(dir(), 'config.json')
    mkdirSync(file)
    expect(failure(() => readJsonFile(file)).message).toBe(`cannot read ${file}: illegal operation on a directory (EISDIR)`)
  })
})

describe('fileSystemError', () => {
  const errno = (code: string, text: string) => Object.assign(new Error(`${code}: ${text}, open '/x/y'`), {code})
  it.each([
    ['EACCES', 'permission denied'],
    ['EPERM', 'operation not permitted'],
    ['ENOSPC', 'no space left on device'],
    ['EROFS', 'read-only file system'],
    ['EISDIR', 'illegal operation on a directory'],
    ['ENOTDIR', 'not a directory'],
  ])('says what failed for %s in the words of the system', (code, text) => {
    const e = fileSystemError('write', '/cfg/config.json', errno(code, text))
    expect(e).toMatchObject({message: `cannot write /cfg/config.json: ${text} (${code})`, code: 'file_error', exitCode: 1})
  })

  it('keeps an error without an errno as it is said', () => {
    expect(fileSystemError('write', '/f', new Error('boom')).message).toBe('cannot write /f: boom')
  })
})

describe('updateJsonFile', () => {
  it('creates the directory 0700, writes 0600 and leaves no lock or temp file', () => {
    const d = join(dir(), 'cfg')
    const file = join(d, 'state.json')
    const result = updateJsonFile(
      file,
      (f) => (readJsonFile(f) ?? {n: 0}) as {n: number},
      (c) => ({n: c.n + 1}),
    )
    expect(result).toEqual({n: 1})
    expect(
      updateJsonFile(
        file,
        (f) => readJsonFile(f) as {n: number},
        (c) => ({n: c.n + 1}),
      ),
    ).toEqual({n: 2})
    expect(mode(d)).toBe(0o700)
    expect(mode(file)).toBe(0o600)
    expect(readdirSync(d)).toEqual(['state.json'])
  })

  it('a failed read leaves the file as it was and releases the lock', () => {
    const d = dir()
    const file = join(d, 'state.json')
    writeFileSync(file, 'not json')
    expect(failure(() => updateJsonFile(file, readJsonFile, () => ({}))).code).toBe('invalid_config')
    expect(readFileSync(file, 'utf8')).toBe('not json')
    expect(readdirSync(d)).toEqual(['state.json'])
  })
})
