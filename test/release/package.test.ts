import {execFileSync, spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {beforeAll, describe, expect, it} from 'vitest'
import {manFiles} from '../../src/base/help/docs.js'
import {ROOT} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp.js'
import {sealedEnv} from '../helpers/env.js'

// The npm package as `npm run release` packs it (bin/release.js --tarball): what goes in, what its
// package.json tells npm, and that the same inputs pack the same bytes. .ci/run then installs it
// into an empty prefix and runs the end-to-end suite against it.

const EXACT = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
const release = await import(pathToFileURL(join(ROOT, 'bin', 'release.js')).href)

function pack(): {tarball: string; sha256: string} {
  const out = tempDir('amctl-pack-test-')
  // (npm on Node >= 22 keeps a compile cache in the temp directory, which the run's must not keep)
  execFileSync(process.execPath, [join(ROOT, 'bin', 'release.js'), '--tarball', '--no-build', '--out', out], {
    cwd: ROOT,
    stdio: 'pipe',
    env: sealedEnv({NODE_DISABLE_COMPILE_CACHE: '1'}),
  })
  const tarball = join(out, release.tarballName(pkg))
  return {tarball, sha256: createHash('sha256').update(readFileSync(tarball)).digest('hex')}
}

describe('the npm package', () => {
  let first: {tarball: string; sha256: string}
  let files: string[]
  let shipped: Record<string, any>
  beforeAll(() => {
    first = pack()
    files = execFileSync('tar', ['-tzf', first.tarball], {encoding: 'utf8', env: sealedEnv()}).trim().split('\n').sort()
    shipped = JSON.parse(execFileSync('tar', ['-xzOf', first.tarball, 'package/package.json'], {encoding: 'utf8', env: sealedEnv()}))
  }, 120_000)

  it('holds what runs, and no build, demo or release script, source, test or machine-specific cache', () => {
    const entry = String(pkg.bin.amctl).replace(/^\.\//, '')
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'man/amctl.1',
      'oclif.manifest.json',
      entry,
      'dist/amctl.cjs',
      'dist/xml.cjs',
      'dist/stats.cjs',
    ]) {
      expect(files, needed).toContain(`package/${needed}`)
    }
    const unexpected = files.filter(
      (file) =>
        !/^package\/(package\.json|README\.md|LICENSE|man\/amctl(-[a-z-]+)?\.1|oclif\.manifest\.json|bin\/[^/]+|dist\/.+)$/.test(file) ||
        /^package\/bin\/(build|demo|docs|release)\.js$|^package\/bin\/sea\.cjs$/.test(file) ||
        /\.(ts|map|cache|tmp|old)$/.test(file) ||
        file.startsWith('package/dist/core/') ||
        // the seed of the dev server as a module of its own is for bin/demo.js (devserver.cjs holds it)
        file === 'package/dist/devserver/seed.js',
    )
    expect(unexpected).toEqual([])
  })

  it('has a package.json for users: one runtime dependency pinned exactly, no scripts, no devDependencies', () => {
    expect(shipped.dependencies).toEqual({'@napi-rs/keyring': expect.stringMatching(EXACT)})
    expect(shipped.scripts).toBeUndefined()
    expect(shipped.devDependencies).toBeUndefined()
    expect(shipped.allowScripts).toBeUndefined()
    expect(shipped.engines).toEqual({node: '>=20.18.1'})
    expect(shipped.license).toBe('MIT')
    expect(shipped.author).toBeTruthy()
    expect(shipped.keywords.length).toBeGreaterThan(0)
    // every man page npm links (amctl(1) and one per command), made at pack time, is in the package
    expect(shipped.man).toEqual(manFiles(JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'))))
    expect(shipped.man[0]).toBe('./man/amctl.1')
    expect(shipped.man).toContain('./man/amctl-runs-list.1')
    for (const page of shipped.man) expect(files).toContain(`package/${page.replace(/^\.\//, '')}`)
    expect(shipped.oclif).toEqual(pkg.oclif)
    expect(shipped.bin).toEqual(pkg.bin)
  })

  it('pins every dependency of the checkout exactly (what the bundle holds is what was tested)', () => {
    const loose = Object.entries({...pkg.dependencies, ...pkg.devDependencies}).filter(([, range]) => !EXACT.test(String(range)))
    expect(loose).toEqual([])
  })

  // (a pack makes the man pages too: about 10 s on a busy 2-core machine)
  it('--repository OWNER/NAME goes into the shipped package.json (npm provenance checks it); nothing else does', {timeout: 120_000}, () => {
    const out = tempDir('amctl-pack-test-')
    const pack = (repository: string) =>
      spawnSync(process.execPath, [join(ROOT, 'bin', 'release.js'), '--tarball', '--no-build', '--out', out, '--repository', repository], {
        cwd: ROOT,
        encoding: 'utf8',
        env: sealedEnv({NODE_DISABLE_COMPILE_CACHE: '1'}),
      })
    expect(pack('acme-labs/amctl').status).toBe(0)
    const json = JSON.parse(
      execFileSync('tar', ['-xzOf', join(out, release.tarballName(pkg)), 'package/package.json'], {encoding: 'utf8', env: sealedEnv()}),
    )
    expect(json.repository).toEqual({type: 'git', url: 'git+https://github.com/acme-labs/amctl.git'})
    expect(shipped.repository).toBeUndefined()
    const bad = pack('https://example.com/x')
    expect(bad.status).toBe(1)
    expect(bad.stderr).toBe('release: --repository "https://example.com/x" is not a GitHub OWNER/NAME\n')
  })

  it('packs the same bytes from the same inputs', {timeout: 120_000}, () => {
    expect(pack().sha256).toBe(first.sha256)
  })
})
