import {build, type Plugin} from 'esbuild'
import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/temp.js'

// bin/build/: the build-time half of the start-up machinery (lazy stand-ins, undici by its parts,
// the patches of dependencies). Every piece leans on how a dependency behaves today; these tests
// fail loudly when an update changes that. What each piece buys: `node bench/ablate.mjs`.

const require = createRequire(import.meta.url)
const plugins = require(join(ROOT, 'bin', 'build', 'plugins.cjs'))
const lazy = require(join(ROOT, 'bin', 'build', 'lazy.cjs'))
const undiciParts = require(join(ROOT, 'bin', 'build', 'undici.cjs'))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))

describe('pieceNames (what bench/ablate.mjs and bin/build.js --without take)', () => {
  it('names each piece once: a lazy module, slim-undici, liftoff, a whole patch and each file of one', () => {
    const names = plugins.pieceNames() as string[]
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual(
      expect.arrayContaining([
        'lazy:assert',
        'undici-apart',
        'slim-undici',
        'liftoff',
        'patch:undici',
        'patch:@oclif/core',
        'patch:@oclif/core/lib/screen.js',
      ]),
    )
  })
})

describe('lazy stand-ins for built-ins', () => {
  /** The stand-in's source run as a module, with a require() that counts what it loads. */
  const standInOf = (name: string) => {
    const loaded: string[] = []
    const counting = (id: string) => {
      loaded.push(id)
      return require(id)
    }
    const module = {exports: {} as Record<string, unknown>}
    new Function('module', 'require', lazy.lazyBuiltinSource(name))(module, counting)
    return {standIn: module.exports as any, loaded}
  }

  it.each(lazy.LAZY_BUILTINS as string[])('node:%s: the real module, loaded on first use, with its keys', (name) => {
    const real = require(`node:${name}`)
    const {standIn, loaded} = standInOf(name)
    expect(Object.keys(standIn).sort()).toEqual(Object.keys(real).sort())
    expect(standIn.__esModule).toBeUndefined()
    expect(loaded, 'nothing loaded before first use').toEqual([])
    const key = Object.keys(real).find((k) => typeof real[k] === 'function') as string
    expect(standIn[key]).toBe(real[key])
    expect(loaded).toEqual([`node:${name}`])
  })

  it('node:assert: a passing assertion loads nothing; a failing one throws the real AssertionError', () => {
    const {standIn: assert, loaded} = standInOf('assert')
    expect(assert(true)).toBeUndefined()
    expect(assert(1, 'message')).toBeUndefined()
    expect(loaded).toEqual([])
    const {AssertionError} = require('node:assert')
    expect(() => assert(false, 'the invariant')).toThrow(
      expect.objectContaining({name: 'AssertionError', message: 'the invariant', actual: false, expected: true}),
    )
    expect(() => assert(0)).toThrow(AssertionError)
    expect(() => assert()).toThrow(AssertionError)
    expect(loaded).toEqual(['node:assert'])
  })
})

/**
 * Bundles `require(name)` with the start-up plugins and a marker on the real package's files,
 * runs it, and returns the module with a probe saying whether the real package was evaluated.
 */
async function bundledStandIn(name: string): Promise<{standIn: any; evaluated: () => boolean}> {
  const dir = tempDir('amctl-build-lazy-')
  const outfile = join(dir, 'out.cjs')
  const marker = `__amctlEvaluated_${name.replace(/\W/g, '_')}`
  const realDir = plugins.packageDir(name)
  await build({
    stdin: {contents: `module.exports = require(${JSON.stringify(name)})`, resolveDir: ROOT, loader: 'js'},
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile,
    logLevel: 'silent',
    plugins: [
      {
        name: 'marker',
        setup(b) {
          b.onLoad({filter: /\.(c|m)?js$/}, (args): {contents: string; loader: 'js'} | undefined => {
            if (!args.path.startsWith(`${realDir}/`) || args.path.slice(realDir.length).includes('node_modules')) return undefined
            const contents = readFileSync(args.path, 'utf8')
            // (a marker first, after any 'use strict' the module starts with)
            return {contents: `globalThis.${marker} = true;\n${contents}`, loader: 'js'}
          })
        },
      } satisfies Plugin,
      // (without the patches, which expect the whole CLI to be bundled)
      ...plugins.plugins(new Set((plugins.pieceNames() as string[]).filter((n) => n.startsWith('patch:')))),
    ],
  })
  delete (globalThis as Record<string, unknown>)[marker]
  const standIn = require(outfile)
  return {standIn, evaluated: () => (globalThis as Record<string, unknown>)[marker] === true}
}

describe('lazy stand-ins for packages (each export of the real one, which is evaluated on first use)', () => {
  const importReal = async (name: string) => {
    const file = require.resolve(name, {paths: [ROOT]})
    return import(pathToFileURL(file).href)
  }

  it('string-width', async () => {
    const {standIn, evaluated} = await bundledStandIn('string-width')
    expect(evaluated()).toBe(false)
    const real = (await importReal('string-width')).default
    expect(standIn.default('日本 abc')).toBe(real('日本 abc'))
    expect(evaluated()).toBe(true)
  })

  it('wsl-utils: isWsl from is-wsl at once, the rest on first use', async () => {
    const {standIn, evaluated} = await bundledStandIn('wsl-utils')
    const real = await importReal('wsl-utils')
    expect(Object.keys(standIn).sort()).toEqual(Object.keys(real).sort())
    expect(standIn.isWsl).toBe(real.isWsl)
    expect(evaluated()).toBe(false)
    expect(standIn.isUncPath('\\\\server\\share')).toBe(real.isUncPath('\\\\server\\share'))
    expect(evaluated()).toBe(true)
  })

  it('tinyglobby', async () => {
    const {standIn, evaluated} = await bundledStandIn('tinyglobby')
    const real = require(require.resolve('tinyglobby', {paths: [ROOT]}))
    expect(Object.keys(standIn).sort()).toEqual(Object.keys(real).sort())
    expect(evaluated()).toBe(false)
    expect(standIn.globSync(['package.json'], {cwd: ROOT})).toEqual(real.globSync(['package.json'], {cwd: ROOT}))
    expect(evaluated()).toBe(true)
  })

  it('supports-color', async () => {
    const {standIn, evaluated} = await bundledStandIn('supports-color')
    const real = require(require.resolve('supports-color', {paths: [ROOT]}))
    expect(evaluated()).toBe(false)
    expect(standIn.stdout).toEqual(real.stdout)
    expect(evaluated()).toBe(true)
  })

  it('debug: without DEBUG a debugger that is off and debug never evaluated; with DEBUG the real one', async () => {
    const saved = process.env.DEBUG
    try {
      delete process.env.DEBUG
      const {standIn, evaluated} = await bundledStandIn('debug')
      const off = standIn('amctl:test')
      expect(off.enabled).toBe(false)
      expect(off.namespace).toBe('amctl:test')
      expect(off.extend('child').namespace).toBe('amctl:test:child')
      off('nothing to say')
      expect(evaluated()).toBe(false)
      process.env.DEBUG = 'amctl:*'
      const on = standIn('amctl:test')
      expect(evaluated()).toBe(true)
      expect(on.enabled).toBe(true)
    } finally {
      if (saved === undefined) delete process.env.DEBUG
      else process.env.DEBUG = saved
    }
  })

  it.each([
    ['ejs', (ejs: any) => ejs.render('<%= a %>', {a: 1}), '1'],
    ['cli-spinners', (spinners: any) => spinners.dots.frames[0], '⠋'],
    ['minimatch', (m: any) => m.minimatch('runs', 'r*'), true],
    ['lilconfig', (l: any) => typeof l.lilconfig('x').search, 'function'],
    ['wrap-ansi', (wrap: any) => wrap('aaa bbb', 3), 'aaa\nbbb'],
  ])('%s: evaluated on first use, then the real one', async (name, use, expected) => {
    const {standIn, evaluated} = await bundledStandIn(name)
    const real = require(require.resolve(name, {paths: [ROOT]}))
    expect(Object.keys(standIn).sort()).toEqual(Object.keys(real).sort())
    expect(evaluated()).toBe(false)
    expect(use(standIn)).toEqual(expected)
    expect(evaluated()).toBe(true)
  })

  it('every package listed has a test here', () => {
    expect(Object.keys(lazy.LAZY_PACKAGES).sort()).toEqual([
      'cli-spinners',
      'debug',
      'ejs',
      'lilconfig',
      'minimatch',
      'string-width',
      'supports-color',
      'tinyglobby',
      'wrap-ansi',
      'wsl-utils',
    ])
  })
})

/** The version package.json pins a package to: bundled ones are devDependencies, the keychain a dependency. */
function pinned(name: string): string | undefined {
  return pkg.dependencies?.[name] ?? pkg.devDependencies?.[name]
}

describe('dependency internals: pinned, and still what the patches and imports expect', () => {
  const installed = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version

  it("oclif's command sort: amctl's command IDs sort the same by code unit as by localeCompare", () => {
    const ids = Object.keys(JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')).commands)
    const byLocale = [...ids].sort((a, b) => a.localeCompare(b))
    const byCodeUnit = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    expect(byCodeUnit).toEqual(byLocale)
  })

  it("undici's client: the HTTP/2 half is only ever called", () => {
    const source = readFileSync(join(plugins.packageDir('undici'), 'lib', 'dispatcher', 'client.js'), 'utf8')
    expect(source.match(/\bconnectH2\b(?!\()/g)).toEqual(['connectH2'])
  })

  it("undici by its parts is undici's index: the same classes, the same request API", () => {
    const undici = require(require.resolve('undici', {paths: [ROOT]}))
    const part = (path: string) => require(require.resolve(path, {paths: [ROOT]}))
    for (const [name, path] of Object.entries(undiciParts.UNDICI_PARTS as Record<string, string>))
      expect(part(path), name).toBe(undici[name])
    for (const [name, path] of Object.entries(undiciParts.UNDICI_API as Record<string, string>)) {
      expect(part(path), name).toBe(undici.Dispatcher.prototype[name])
    }
    expect(installed(plugins.packageDir('undici'))).toBe(pinned('undici'))
  })
})
