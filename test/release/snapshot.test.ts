import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp.js'

// release-snapshot/: what `npm run release` (bin/release.js --snapshot) records of the scripts'
// contract, once per version, and the refusal to pack a version whose contract was never recorded.
// test/generated.test.ts compares the code's contract with it.

const release = await import(pathToFileURL(join(ROOT, 'bin', 'release.js')).href)

/** A checkout's contract files: the snapshot and one schema holding `text`. */
function checkout(root: string, text: string): void {
  mkdirSync(join(root, 'schemas'), {recursive: true})
  writeFileSync(join(root, 'command-snapshot.json'), '{"commands": []}\n')
  writeFileSync(join(root, 'schemas', 'runs-list.json'), text)
}

describe('release-snapshot/', () => {
  it('is written for a new version, kept while package.json keeps that version, written again for the next', () => {
    const root = tempDir('amctl-release-snapshot-')
    checkout(root, '{"first": true}\n')
    expect(release.releasedContract(root)).toBeUndefined()
    expect(release.recordContract(root, '0.1.0')).toBe("release-snapshot/ records 0.1.0's contract: commit it with the version")
    const first = release.releasedContract(root)
    expect(first.version).toBe('0.1.0')
    expect([...first.files]).toEqual([
      ['command-snapshot.json', '{"commands": []}\n'],
      ['schemas/runs-list.json', '{"first": true}\n'],
    ])
    expect(JSON.parse(readFileSync(join(root, 'release-snapshot', 'release.json'), 'utf8')).$comment).toMatch(
      /^Written by `npm run release`/,
    )

    // packed again between releases (to try it): the released contract stays what it was
    checkout(root, '{"second": true}\n')
    expect(release.recordContract(root, '0.1.0')).toBe(
      "release-snapshot/ kept: it holds 0.1.0's contract (set a new version in package.json to record this one)",
    )
    expect(release.releasedContract(root).files.get('schemas/runs-list.json')).toBe('{"first": true}\n')

    // the next version: recorded afresh, a schema gone from the checkout gone from it too
    checkout(root, '{"second": true}\n')
    writeFileSync(join(root, 'release-snapshot', 'schemas', 'tags-delete.json'), '{}\n')
    release.recordContract(root, '0.2.0')
    expect(release.releasedContract(root).version).toBe('0.2.0')
    expect([...release.releasedContract(root).files.keys()]).toEqual(['command-snapshot.json', 'schemas/runs-list.json'])
    expect(existsSync(join(root, 'release-snapshot', 'schemas', 'tags-delete.json'))).toBe(false)
  })

  it('a package of a version whose contract was never recorded is refused, naming the command that records it', () => {
    const root = tempDir('amctl-release-snapshot-')
    checkout(root, '{}\n')
    release.recordContract(root, '0.1.0')
    expect(() => release.checkRecorded(root, '0.1.0')).not.toThrow()
    expect(() => release.checkRecorded(root, '0.2.0')).toThrow(
      "package.json says 0.2.0, but release-snapshot/ holds 0.1.0's contract: run `npm run release` to record 0.2.0's, and commit it with the version",
    )
  })

  it("this checkout's records package.json's version", () => {
    expect(release.releasedContract(ROOT).version).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version)
  })
})
