import {chmodSync, linkSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, unlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {readFile, replaceFile, vetRead, vetWrites} from '../../src/core/file-policy.js'
import {tempDir} from '../helpers/temp.js'

// Which files amctl may write and read, vetted before anything is launched; a file read is replaced where it was read.

describe('vetWrites: one file through a link is one file (issue 32 item 7)', () => {
  const check = (junit: string, summary?: string) => () =>
    vetWrites([{label: '--junit', path: junit}, ...(summary === undefined ? [] : [{label: '--summary', path: summary}])])
  const SAME = /^--junit .* and --summary .* are the same file; give two different files$/

  it('a link not yet pointing at an existing file: the file it would make is the other path', () => {
    const dir = tempDir('amctl-report-paths-')
    symlinkSync(join(dir, 'a.xml'), join(dir, 'absolute.md'))
    symlinkSync('a.xml', join(dir, 'relative.md'))
    symlinkSync('relative.md', join(dir, 'chain.md'))
    for (const link of ['absolute.md', 'relative.md', 'chain.md']) {
      expect(check(join(dir, 'a.xml'), join(dir, link)), link).toThrow(SAME)
      expect(check(join(dir, link), join(dir, 'a.xml')), link).toThrow(SAME)
    }
  })

  it("a link's relative target is read from the link's real directory, as the kernel reads it", () => {
    const dir = tempDir('amctl-report-paths-')
    mkdirSync(join(dir, 'real'))
    mkdirSync(join(dir, 'x'))
    symlinkSync(join(dir, 'real'), join(dir, 'x', 'alias'))
    // x/alias/l.md is real/l.md → real/../t.xml, the t.xml beside real/ (not beside alias)
    symlinkSync('../t.xml', join(dir, 'real', 'l.md'))
    expect(check(join(dir, 't.xml'), join(dir, 'x', 'alias', 'l.md'))).toThrow(SAME)
  })

  it('a link to a missing file alone: exit 2 up front (the atomic write would refuse it at the end)', () => {
    const dir = tempDir('amctl-report-paths-')
    symlinkSync(join(dir, 'gone', 'a.xml'), join(dir, 'link.xml'))
    expect(check(join(dir, 'link.xml'))).toThrow(
      `--junit ${join(dir, 'link.xml')} is a symbolic link to a missing file (${join(dir, 'gone', 'a.xml')})`,
    )
  })

  it('two files, linked or not, are two files', () => {
    const dir = tempDir('amctl-report-paths-')
    symlinkSync(join(dir, 'real'), join(dir, 'alias'))
    mkdirSync(join(dir, 'real'))
    expect(check(join(dir, 'alias', 'a.xml'), join(dir, 'real', 'a.md'))).not.toThrow()
    expect(check(join(dir, 'j.xml'), join(dir, 's.md'))).not.toThrow()
  })
})

describe('vetWrites: a report is never the baseline file it reads, however linked (issue 37 item 6)', () => {
  const SAME = /^--junit .* and --baseline-file .* are the same file: the junit would overwrite it; give two different files$/

  it('the same path, a symbolic link to it, a hard link to it: refused before anything is written', () => {
    const dir = tempDir('amctl-policy-')
    const file = join(dir, 'b.json')
    writeFileSync(file, '{}')
    symlinkSync(file, join(dir, 'sym.json'))
    linkSync(file, join(dir, 'hard.json'))
    for (const name of ['b.json', 'sym.json', 'hard.json']) {
      expect(() => vetWrites([{label: '--junit', path: join(dir, name)}], [{label: '--baseline-file', path: file}]), name).toThrow(SAME)
    }
    expect(readFileSync(file, 'utf8')).toBe('{}')
    expect(() => vetWrites([{label: '--junit', path: join(dir, 'j.xml')}], [{label: '--baseline-file', path: file}])).not.toThrow()
  })

  it('two files only read may be one file (nothing is written to either)', () => {
    const dir = tempDir('amctl-policy-')
    writeFileSync(join(dir, 'b.json'), '{}')
    expect(() =>
      vetWrites(
        [],
        [
          {label: 'a', path: join(dir, 'b.json')},
          {label: 'b', path: join(dir, 'b.json')},
        ],
      ),
    ).not.toThrow()
  })
})

describe("vetRead: the kernel's trees and this process's streams are not files amctl reads (issue 37 item 7)", () => {
  it('/proc/self/environ, a link to it, /sys and /dev/stdin are refused; a file is not', () => {
    const dir = tempDir('amctl-policy-')
    symlinkSync('/proc/self/environ', join(dir, 'env.json'))
    expect(() => vetRead('--baseline-file', '/proc/self/environ')).toThrow(
      '--baseline-file /proc/self/environ is under /proc or /sys, not a file amctl reads or writes',
    )
    expect(() => vetRead('--baseline-file', join(dir, 'env.json'))).toThrow(/is under \/proc or \/sys/)
    expect(() => vetRead('--baseline-file', '/sys/kernel')).toThrow(/is under \/proc or \/sys/)
    expect(() => vetRead('--baseline-file', '/dev/stdin')).toThrow(/names a stream of this process/)
    writeFileSync(join(dir, 'b.json'), '{}')
    expect(() => vetRead('--baseline-file', join(dir, 'b.json'))).not.toThrow()
  })
})

describe('replaceFile: the file read is the file replaced (issue 37 items 2 and 4)', () => {
  const problem = (what: string) => new Error(what)
  const append = (line: string) => (now: {text: string}) => ({text: `${now.text}${line}\n`, value: line})

  it('a link re-pointed after the read changes nothing: the file read is replaced, keeping its mode; the new target is left alone', () => {
    const dir = tempDir('amctl-policy-')
    writeFileSync(join(dir, 'read.json'), 'a\n')
    chmodSync(join(dir, 'read.json'), 0o600)
    writeFileSync(join(dir, 'other.json'), 'secret\n')
    symlinkSync(join(dir, 'read.json'), join(dir, 'b.json'))
    const read = readFile(join(dir, 'b.json'), 1024, problem)
    expect(read.real).toBe(join(dir, 'read.json'))
    unlinkSync(join(dir, 'b.json'))
    symlinkSync(join(dir, 'other.json'), join(dir, 'b.json'))
    expect(replaceFile(read, 1024, problem, append('b'))).toBe('b')
    expect(readFileSync(join(dir, 'read.json'), 'utf8')).toBe('a\nb\n')
    expect(statSync(join(dir, 'read.json')).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(dir, 'other.json'), 'utf8')).toBe('secret\n')
  })

  it('a file another writer replaced meanwhile is read again and kept: two updates, both land', () => {
    const dir = tempDir('amctl-policy-')
    writeFileSync(join(dir, 'b.json'), 'a\n')
    const first = readFile(join(dir, 'b.json'), 1024, problem)
    const second = readFile(join(dir, 'b.json'), 1024, problem)
    replaceFile(first, 1024, problem, append('one'))
    replaceFile(second, 1024, problem, append('two'))
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe('a\none\ntwo\n')
  })

  it('the real path made a link to another file since the read: refused, nothing written', () => {
    const dir = tempDir('amctl-policy-')
    writeFileSync(join(dir, 'b.json'), 'a\n')
    writeFileSync(join(dir, 'other.json'), 'secret\n')
    const read = readFile(join(dir, 'b.json'), 1024, problem)
    renameSync(join(dir, 'b.json'), join(dir, 'moved.json'))
    symlinkSync(join(dir, 'other.json'), join(dir, 'b.json'))
    expect(() => replaceFile(read, 1024, problem, append('b'))).toThrow()
    expect(readFileSync(join(dir, 'other.json'), 'utf8')).toBe('secret\n')
  })

  it('a file swapped for another between its read and the rename: refused, the other file left as it is', () => {
    const dir = tempDir('amctl-policy-')
    writeFileSync(join(dir, 'b.json'), 'a\n')
    const read = readFile(join(dir, 'b.json'), 1024, problem)
    const swap = (now: {text: string}) => {
      // another process puts a file of its own there while this one computes
      writeFileSync(join(dir, 'swap.json'), 'theirs\n')
      renameSync(join(dir, 'swap.json'), join(dir, 'b.json'))
      return {text: `${now.text}b\n`, value: 'b'}
    }
    expect(() => replaceFile(read, 1024, problem, swap)).toThrow(/changed while amctl was replacing it/)
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe('theirs\n')
  })
})
