import {build} from 'esbuild'
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {applyPatch} from 'diff'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/temp.js'

// The patches of dependencies (patches/<name>@<version>.patch, applied by bin/build/patches.cjs)
// and bin/patch.js, which ports them when a package is bumped.

const require = createRequire(import.meta.url)
const {dependencyPatches, patchText, readPatches} = require(join(ROOT, 'bin', 'build', 'patches.cjs'))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
// (bin/patch.js is a script of the checkout, without types)
const {copiesOf, portPatch} = (await import(pathToFileURL(join(ROOT, 'bin', 'patch.js')).href)) as {
  copiesOf(root: string, name: string): {dir: string; version: string}[]
  portPatch(root: string, spec: string, dir: string): string
}

type Patch = {name: string; version: string; path: string; file: string; files: {file: string; patch: unknown}[]}
const BUMP = 'docs/performance.md, "Bumping oclif or undici"'

describe('patches/', () => {
  const patches = readPatches() as Patch[]

  it('holds a patch per package, named <name>@<version>.patch', () => {
    expect(patches.map((p) => p.path)).toEqual(patches.map((p) => `patches/${p.name}@${p.version}.patch`))
    expect(new Set(patches.map((p) => p.name)).size).toBe(patches.length)
  })

  it.each(patches.map((p) => ({path: p.path, p})))(
    '$path: its version is installed, and it applies to every copy at that version',
    ({p}) => {
      const copies = copiesOf(ROOT, p.name)
      const at = copies.filter((c) => c.version === p.version)
      // a bump with no port of its patch: the build goes on without it; here it fails, by name
      expect(
        at.length,
        `${p.path} was not applied: ${p.name} is ${copies.map((c) => c.version).join(', ')} now; see ${BUMP}`,
      ).toBeGreaterThan(0)
      for (const {dir} of at) {
        for (const {file, patch} of p.files) {
          expect(applyPatch(readFileSync(join(dir, file), 'utf8'), patch as never), `${p.path} on ${dir}/${file}`).not.toBe(false)
        }
      }
      // a package of amctl's own at the patched version is pinned to it exactly
      const top = copies.find((c) => c.dir === join(ROOT, 'node_modules', ...p.name.split('/')))
      if (top?.version === p.version) expect(pkg.devDependencies[p.name], `${p.name}: exact pin in package.json`).toBe(p.version)
    },
  )
})

/** A package `fake` at `version` in a project of its own, and a patch dir holding `patches`. */
function project(version: string, source: string) {
  const root = tempDir('amctl-patch-project-')
  const dir = join(root, 'node_modules', 'fake')
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, 'package.json'), JSON.stringify({name: 'fake', version, main: 'index.js'}))
  writeFileSync(join(dir, 'index.js'), source)
  return {root, dir, patches: join(root, 'patches')}
}

const SOURCE = "'use strict'\nconst os = require('node:os')\nexports.name = () => 'fake'\nexports.tmp = () => os.tmpdir()\n"
const EDITED = "'use strict'\nconst os = () => require('node:os')\nexports.name = () => 'fake'\nexports.tmp = () => os().tmpdir()\n"

/** Writes the patch of a fake package (`patches/<name>@<version>.patch`) turning SOURCE into EDITED. */
function writePatch(patches: string, version: string) {
  mkdirSync(patches, {recursive: true})
  writeFileSync(join(patches, `fake@${version}.patch`), patchText('fake', [{file: 'index.js', before: SOURCE, after: EDITED}]))
}

/** Bundles require('fake') from `root` with the patches plugin (`without` those pieces); the bundle's text and the warnings. */
async function bundle(root: string, patches: string, without: string[] = []) {
  const warnings: string[] = []
  const result = await build({
    stdin: {contents: "module.exports = require('fake')", resolveDir: root, loader: 'js'},
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
    plugins: [
      dependencyPatches(new Set(without), () => true, {patches: readPatches(patches), warn: (text: string) => warnings.push(text)}),
    ],
  })
  return {text: result.outputFiles[0].text, warnings}
}

describe('the build applies them', () => {
  it('to the copy at the patch version: in the bundle only, node_modules unchanged', async () => {
    const {root, dir, patches} = project('1.0.0', SOURCE)
    writePatch(patches, '1.0.0')
    const {text, warnings} = await bundle(root, patches)
    expect(text).toMatch(/os = \(\) => require\("node:os"\)/)
    expect(warnings).toEqual([])
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).toBe(SOURCE)
  })

  it('a bump with no patch of its own: built without it, and a warning naming the patch and the version found', async () => {
    const {root, patches} = project('1.0.1', SOURCE)
    writePatch(patches, '1.0.0')
    const {text, warnings} = await bundle(root, patches)
    expect(text).toContain('os.tmpdir()')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /fake@1\.0\.0\.patch was not applied \(the bundle has fake 1\.0\.1\): built without it; see docs\/performance\.md/,
    )
  })

  it('a patch that does not apply to the very version it names fails the build, naming it', async () => {
    const {root, patches} = project('1.0.0', SOURCE.replace('os.tmpdir()', 'os.homedir()'))
    writePatch(patches, '1.0.0')
    await expect(bundle(root, patches)).rejects.toThrow(/fake@1\.0\.0\.patch does not apply to .*fake\/index\.js, which is fake@1\.0\.0/)
  })

  it('leaves out a patch, or one file of it, that `without` names (bench/ablate.mjs)', async () => {
    const {root, patches} = project('1.0.0', SOURCE)
    writePatch(patches, '1.0.0')
    for (const piece of ['patch:fake', 'patch:fake/index.js']) {
      const {text, warnings} = await bundle(root, patches, [piece])
      expect(text, piece).toContain('os.tmpdir()')
      expect(warnings, piece).toEqual([])
    }
  })
})

describe('bin/patch.js port (docs/performance.md, "Bumping oclif or undici")', () => {
  it('moves the patch to the installed version when it still applies, the old one removed', () => {
    const {root, patches} = project('1.0.1', `${SOURCE}// a line the bump added\n`)
    writePatch(patches, '1.0.0')
    const out = portPatch(root, 'fake', patches)
    expect(out).toBe(join(patches, 'fake@1.0.1.patch'))
    expect(readdirSync(patches)).toEqual(['fake@1.0.1.patch'])
    const [ported] = readPatches(patches) as Patch[]
    expect(applyPatch(`${SOURCE}// a line the bump added\n`, ported.files[0].patch as never)).toBe(`${EDITED}// a line the bump added\n`)
  })

  it('names the files whose change no longer applies, and writes nothing', () => {
    const {root, patches} = project('2.0.0', SOURCE.replace("require('node:os')", "require('os')"))
    writePatch(patches, '1.0.0')
    expect(() => portPatch(root, 'fake', patches)).toThrow(
      /fake@1\.0\.0\.patch does not apply to fake@2\.0\.0 in index\.js: edit node_modules\/fake/,
    )
    expect(readdirSync(patches)).toEqual(['fake@1.0.0.patch'])
  })

  it("the patches of this checkout are in the format it writes (patch-package's)", () => {
    for (const p of readPatches() as Patch[]) {
      const text = readFileSync(p.file, 'utf8')
      expect(text.startsWith(`diff --git a/node_modules/${p.name}/`), p.path).toBe(true)
      expect(text).toMatch(/^index [0-9a-f]{7}\.\.[0-9a-f]{7} 100644$/m)
      expect(existsSync(p.file)).toBe(true)
    }
  })
})
