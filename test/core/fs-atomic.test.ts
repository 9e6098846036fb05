import {spawn} from 'node:child_process'
import {chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {describe, expect, it} from 'vitest'
import {ensurePrivateDir, writeFileAtomic} from '../../src/core/fs-atomic.js'
import {ROOT} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp.js'

const mode = (p: string) => statSync(p).mode & 0o777
const dir = () => tempDir('amctl-atomic-')
const isRoot = process.getuid?.() === 0
const DIST_ATOMIC = join(ROOT, 'dist', 'core', 'fs-atomic.js')

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

  it.skipIf(!existsSync(DIST_ATOMIC))(
    'a process killed while rewriting leaves the old or the new content, never a mix (needs dist/; run `npm run build`)',
    async () => {
      const d = dir()
      const file = join(d, 'state.json')
      const a = JSON.stringify({v: 'a'.repeat(4 << 20)})
      const b = JSON.stringify({v: 'b'.repeat(4 << 20)})
      writeFileSync(file, a)
      const script = `
        import {writeFileAtomic} from ${JSON.stringify(pathToFileURL(DIST_ATOMIC).href)}
        const a = JSON.stringify({v: 'a'.repeat(4 << 20)}), b = JSON.stringify({v: 'b'.repeat(4 << 20)})
        process.stdout.write('ready\\n')
        for (let i = 0; ; i++) writeFileAtomic(${JSON.stringify(file)}, i % 2 ? a : b)
      `
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {stdio: ['ignore', 'pipe', 'inherit']})
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
      await new Promise((resolve) => setTimeout(resolve, 150))
      child.kill('SIGKILL')
      await new Promise((resolve) => child.once('exit', resolve))
      const content = readFileSync(file, 'utf8')
      expect(content === a || content === b).toBe(true)
    },
  )
})

describe('ensurePrivateDir', () => {
  it('creates missing parents and the directory with 0700', () => {
    const target = join(dir(), 'a', 'b')
    ensurePrivateDir(target)
    expect(mode(target)).toBe(0o700)
  })

  it('tightens an existing directory', () => {
    const target = join(dir(), 'open')
    mkdirSync(target, {mode: 0o777})
    chmodSync(target, 0o777)
    ensurePrivateDir(target)
    expect(mode(target)).toBe(0o700)
  })
})
