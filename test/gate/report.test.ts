import {mkdirSync, symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {checkReportPaths} from '../../src/gate/report.js'
import {tempDir} from '../helpers/temp.js'

// Where the CI reports may be written: checked before anything is launched.

describe('checkReportPaths: one file through a link is one file (issue 32 item 7)', () => {
  const check = (junit: string, summary?: string) => () => checkReportPaths({junit, summary, annotations: false})
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
