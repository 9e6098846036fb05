import {build, type Plugin} from 'esbuild'
import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {chmodSync, closeSync, cpSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {beforeAll, describe, expect, it} from 'vitest'
import {useE2E} from '../e2e/helpers.js'
import {runBin, runOnTerminal} from '../helpers/bin.js'
import {ROOT} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp.js'

// bin/startup.cjs: the start-up machinery. Every piece of it leans on how Node, V8 or a dependency
// behaves today; these tests fail loudly when an update changes that. No timings: what each
// piece buys is measured by `npm run bench` and `node bench/ablate.mjs`.

const require = createRequire(import.meta.url)
const startup = require(join(ROOT, 'bin', 'startup.cjs'))
const BIN = join(ROOT, 'bin', 'run.cjs')
const BUNDLE = join(ROOT, 'dist', 'amctl.cjs')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))

/** The built amctl in a clean environment (PATH, HOME and what the test gives). */
async function amctl(argv: string[], env: Record<string, string>) {
  const r = await runBin(argv, {env})
  return {status: r.exitCode, stdout: r.stdout, stderr: r.stderr}
}

/** The same with help drawn by oclif, from the bundle (never the help drawn at build time). */
function bundled(argv: string[], env: Record<string, string>) {
  return amctl(argv, {AMCTL_HELP_CACHE: 'off', ...env})
}

/**
 * A --require hook that writes, at exit, the built-in modules the process loaded and the files
 * it required (`read()` gives both).
 */
function recorder() {
  const dir = tempDir('amctl-startup-mods-')
  const hook = join(dir, 'record.cjs')
  const list = join(dir, 'modules.json')
  writeFileSync(
    hook,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify({builtins: process.moduleLoadList, files: Object.keys(require.cache)})))\n`,
  )
  const read = () => {
    const {builtins, files} = JSON.parse(readFileSync(list, 'utf8')) as {builtins: string[]; files: string[]}
    return {
      builtins: builtins
        .filter((m) => m.startsWith('NativeModule ') && !m.startsWith('NativeModule internal/'))
        .map((m) => m.slice('NativeModule '.length)),
      bundle: files.includes(BUNDLE),
    }
  }
  return {hook, dir, read}
}

/** The built-in modules a run of amctl loaded (stdout and stderr to files, so no tty or net of its own). */
function builtinsLoaded(argv: string[], env: Record<string, string> = {}): string[] {
  const {hook, dir, read} = recorder()
  const out = join(dir, 'out.txt')
  const fd = openSync(out, 'w')
  const home = env.HOME ?? tempDir('amctl-startup-home-')
  // twice: the second run is the one measured, with its code cache
  for (let i = 0; i < 2; i++) {
    const r = spawnSync(process.execPath, ['--require', hook, BIN, ...argv], {
      env: {PATH: process.env.PATH ?? '', HOME: home, AMCTL_KEYCHAIN: 'off', ...env},
      stdio: ['ignore', fd, fd],
    })
    expect(r.status, readFileSync(out, 'utf8')).toBe(0)
  }
  closeSync(fd)
  return read().builtins
}

function cacheFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.bin'))
  } catch {
    return []
  }
}

describe('the bundle', () => {
  const source = readFileSync(BUNDLE, 'latin1')

  it('holds no undici: dist/undici.cjs does, which it requires for a request through a proxy', () => {
    const undici = readFileSync(join(ROOT, 'dist', 'undici.cjs'), 'latin1')
    for (const text of ['llhttp', 'HTTPParserError']) {
      expect(source, text).not.toContain(text)
      expect(undici, text).toContain(text)
    }
    expect(source).toContain('require("./undici.cjs")')
  })

  it('calls no import() (Node 20 loses its callback in code restored from a cache)', () => {
    // (the text "import()" may appear inside a string)
    expect(source.match(/(?<!["'`$])\bimport\s*\(/g) ?? []).toEqual([])
  })

  it('is ASCII and ends with its build mark, the hash of what comes before it', () => {
    expect(/[^\0-\x7F]/.test(source)).toBe(false)
    const at = source.lastIndexOf(startup.BUILD_MARK)
    expect(at).toBeGreaterThan(0)
    const mark = source.slice(at + startup.BUILD_MARK.length).trim()
    expect(mark).toBe(createHash('sha256').update(source.slice(0, at)).digest('hex').slice(0, 16))
  })

  it('the build puts no code cache and nothing machine-specific into dist/', () => {
    expect(readdirSync(join(ROOT, 'dist')).filter((f) => /cache|\.bin$/.test(f))).toEqual([])
  })
})

describe('what a run loads (a dependency that starts requiring these at load time shows here)', () => {
  const LAZY = ['child_process', 'tty', 'net', 'v8', 'http', 'http2', 'tls', 'crypto', 'worker_threads']

  it('config list and auth token, stdout and stderr pipes: no stream made for either (no net, no stream modules), no node:module', () => {
    for (const argv of [
      ['config', 'list'],
      ['auth', 'token'],
    ]) {
      const {hook, read} = recorder()
      const r = spawnSync(process.execPath, ['--require', hook, BIN, ...argv], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: tempDir('amctl-startup-home-'),
          AMCTL_KEYCHAIN: 'off',
          AMCTL_TOKEN: 'svc_pipe_token_1234',
        },
        encoding: 'utf8',
      })
      expect(r.status, r.stderr).toBe(0)
      if (argv[0] === 'auth') expect(r.stdout).toBe('svc_pipe_token_1234\n')
      const loaded = read().builtins
      for (const name of ['net', 'stream', 'tty', 'module']) expect(loaded, `${argv.join(' ')}: ${name}`).not.toContain(name)
    }
  })

  it('config list, stdout a file and stderr a pipe: no net (neither oclif nor amctl makes process.stderr to ask about it)', () => {
    const {hook, dir, read} = recorder()
    const fd = openSync(join(dir, 'out.txt'), 'w')
    const r = spawnSync(process.execPath, ['--require', hook, BIN, 'config', 'list'], {
      env: {PATH: process.env.PATH ?? '', HOME: tempDir('amctl-startup-home-'), AMCTL_KEYCHAIN: 'off'},
      stdio: ['ignore', fd, 'pipe'],
    })
    closeSync(fd)
    expect(r.status).toBe(0)
    const loaded = read().builtins
    for (const name of ['net', 'tty', 'fs/promises', 'timers/promises']) expect(loaded, name).not.toContain(name)
  })

  it('--version: no module, vm or fs/promises', () => {
    const loaded = builtinsLoaded(['--version'])
    for (const name of ['module', 'vm', 'fs/promises', ...LAZY]) expect(loaded, name).not.toContain(name)
  })

  it('--help and config list: none of the built-ins only some commands use', () => {
    for (const [argv, env] of [
      [['--help'], {}],
      [['--help'], {AMCTL_HELP_CACHE: 'off'}],
      [['config', 'list'], {}],
    ] as const) {
      const loaded = builtinsLoaded([...argv], env)
      for (const name of LAZY) expect(loaded, `${argv.join(' ')} ${JSON.stringify(env)}: ${name}`).not.toContain(name)
    }
  })

  it('--help (help drawn at build time): not even the module loader, vm, or the stream modules of a pipe', () => {
    const loaded = builtinsLoaded(['--help'])
    for (const name of ['vm', 'fs/promises', 'stream', 'os']) expect(loaded, name).not.toContain(name)
  })
})

describe('the XML library of --junit (fast-xml-builder): a file of its own, like the jq engine', () => {
  const e2e = useE2E()

  /** The files of the amctl's dist/ a run required (recorded at exit through NODE_OPTIONS=--require). */
  async function distRequired(argv: string[]): Promise<string[]> {
    const dir = tempDir('amctl-startup-xml-')
    const list = join(dir, 'required.txt')
    writeFileSync(
      join(dir, 'record.cjs'),
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, Object.keys(require.cache).join('\\n')))\n`,
    )
    const r = await runBin([...argv, '--org', 'acme'], {
      env: {AMCTL_BASE_URL: e2e.current.url, AMCTL_TOKEN: await e2e.current.token(), NODE_OPTIONS: `--require ${join(dir, 'record.cjs')}`},
    })
    expect(r.exitCode, r.stderr).toBe(0)
    return readFileSync(list, 'utf8')
      .split('\n')
      .filter((file) => file.includes('/dist/'))
      .map((file) => file.slice(file.lastIndexOf('/dist/') + '/dist/'.length))
  }

  it('is not in the bundle, which requires ./xml.cjs only when --junit is given', async () => {
    const source = readFileSync(BUNDLE, 'latin1')
    expect(source).toMatch(/require\(["']\.\/xml\.cjs["']\)/)
    expect(source).not.toContain('replaceEntitiesValue') // a method of the builder
    expect(await distRequired(['runs', 'watch', 'run_acme_0251'])).not.toContain('xml.cjs')
    const dir = tempDir('amctl-startup-xml-')
    expect(await distRequired(['runs', 'watch', 'run_acme_0251', '--junit', join(dir, 'e.xml')])).toContain('xml.cjs')
  })

  it("jstat (the history gate's t quantile) is not in the bundle either: ./stats.cjs is required only by --baseline history", async () => {
    const source = readFileSync(BUNDLE, 'latin1')
    expect(source).toMatch(/require\(["']\.\/stats\.cjs["']\)/)
    expect(source).not.toContain('ibetainv') // a function of jstat
    expect(await distRequired(['runs', 'watch', 'run_acme_0251', '--baseline', 'previous'])).not.toContain('stats.cjs')
    expect(await distRequired(['runs', 'list'])).not.toContain('stats.cjs')
    expect(await distRequired(['runs', 'watch', 'run_acme_0251', '--baseline', 'history'])).toContain('stats.cjs')
  })
})

describe('the code cache (vm.Script and a V8 cache, on every Node version)', () => {
  const e2e = useE2E()
  let home: string
  beforeAll(() => {
    home = tempDir('amctl-startup-home-')
  })
  const cacheDir = () => join(home, '.cache', 'amctl', 'code-cache')

  it('is written under $HOME/.cache/amctl (never into dist/), then used as it is', async () => {
    const before = readdirSync(join(ROOT, 'dist')).sort()
    expect((await bundled(['--help'], {HOME: home})).status).toBe(0)
    const [file] = cacheFiles(cacheDir())
    const mark = readFileSync(BUNDLE, 'latin1').trim().split('\n').at(-1)?.slice(startup.BUILD_MARK.length)
    expect(file).toBe(`amctl-${mark}-help-node${process.versions.node}-${process.arch}.bin`)
    expect(statSync(join(cacheDir(), file)).mode & 0o777).toBe(0o600)
    const written = statSync(join(cacheDir(), file)).mtimeMs
    expect((await bundled(['runs', 'list', '--help'], {HOME: home})).status).toBe(0)
    expect(statSync(join(cacheDir(), file)).mtimeMs, 'V8 accepted the cache: it was not written again').toBe(written)
    // another command: a cache of its own
    expect((await bundled(['config', 'list'], {HOME: home})).status).toBe(0)
    expect(cacheFiles(cacheDir()).sort()).toEqual([file, file.replace('-help-', '-config-list-')].sort())
    expect(readdirSync(join(ROOT, 'dist')).sort()).toEqual(before)
  })

  it("never Node's compile cache (module.enableCompileCache), which measured slower", async () => {
    const dir = tempDir('amctl-startup-cc-')
    expect((await bundled(['config', 'list'], {HOME: home, AMCTL_CACHE_DIR: dir})).status).toBe(0)
    expect(readdirSync(dir)).toEqual(['code-cache'])
  })

  it('follows XDG_CACHE_HOME and AMCTL_CACHE_DIR; AMCTL_CODE_CACHE=off writes none', async () => {
    const xdg = tempDir('amctl-startup-xdg-')
    expect((await bundled(['--help'], {HOME: home, XDG_CACHE_HOME: xdg})).status).toBe(0)
    expect(cacheFiles(join(xdg, 'amctl', 'code-cache'))).toHaveLength(1)
    const own = tempDir('amctl-startup-own-')
    expect((await bundled(['--help'], {HOME: home, AMCTL_CACHE_DIR: own})).status).toBe(0)
    expect(cacheFiles(join(own, 'code-cache'))).toHaveLength(1)
    const none = tempDir('amctl-startup-none-')
    expect((await bundled(['--help'], {HOME: home, AMCTL_CACHE_DIR: none, AMCTL_CODE_CACHE: 'off'})).status).toBe(0)
    expect(cacheFiles(join(none, 'code-cache'))).toEqual([])
  })

  it('an API command keeps the cache V8 accepts (undici sets --liftoff-only only after it was saved)', async () => {
    const dir = tempDir('amctl-startup-api-')
    const env = {
      HOME: home,
      AMCTL_CACHE_DIR: dir,
      AMCTL_BASE_URL: e2e.current.url,
      AMCTL_TOKEN: await e2e.current.token(),
      AMCTL_ORG: 'acme',
    }
    const first = await bundled(['runs', 'list', '--json', '--limit', '1'], env)
    expect(first.status, first.stderr).toBe(0)
    const [file] = cacheFiles(join(dir, 'code-cache'))
    const written = statSync(join(dir, 'code-cache', file)).mtimeMs
    for (const argv of [['runs', 'list', '--json', '--limit', '1'], ['--help']]) {
      const again = await bundled(argv, env)
      expect(again.status, again.stderr).toBe(0)
      expect(statSync(join(dir, 'code-cache', file)).mtimeMs, `${argv.join(' ')}: cache accepted`).toBe(written)
    }
  })

  it('a cache others could have written is not used but replaced; a corrupt one is replaced', async () => {
    const dir = tempDir('amctl-startup-bad-')
    expect((await bundled(['--help'], {HOME: home, AMCTL_CACHE_DIR: dir})).status).toBe(0)
    const [file] = cacheFiles(join(dir, 'code-cache'))
    const path = join(dir, 'code-cache', file)
    const good = readFileSync(path)
    chmodSync(path, 0o666)
    const planted = await bundled(['--help'], {HOME: home, AMCTL_CACHE_DIR: dir})
    expect(planted.status).toBe(0)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    writeFileSync(path, Buffer.alloc(good.length, 7))
    const corrupt = await bundled(['--help'], {HOME: home, AMCTL_CACHE_DIR: dir})
    expect(corrupt.status).toBe(0)
    expect(corrupt.stdout).toContain('GETTING STARTED')
    expect(readFileSync(path).equals(Buffer.alloc(good.length, 7))).toBe(false)
  })

  it('a cache directory that cannot be written costs nothing but the speed', async () => {
    const dir = tempDir('amctl-startup-ro-')
    mkdirSync(join(dir, 'code-cache'), {mode: 0o500})
    const r = await bundled(['config', 'list', '--json'], {HOME: home, AMCTL_CACHE_DIR: dir})
    expect(r.status).toBe(0)
    expect(r.stderr).toBe('')
    chmodSync(join(dir, 'code-cache'), 0o700)
  })

  it('the keychain module loads from a cached bundle (require, not import())', async () => {
    const dir = tempDir('amctl-startup-kc-')
    const env = {HOME: home, AMCTL_CACHE_DIR: dir, AMCTL_KEYCHAIN: '', AMCTL_BASE_URL: e2e.current.url}
    for (let i = 0; i < 2; i++) {
      const r = await amctl(['auth', 'token'], env)
      expect(r.stderr).not.toMatch(/dynamic import|import\(\)/i)
      expect(r.status).toBe(3)
    }
  })
})

describe('which cache a run uses', () => {
  it('one per command, one for any help', () => {
    expect(startup.cacheSlug([])).toBe('help')
    expect(startup.cacheSlug(['--help'])).toBe('help')
    expect(startup.cacheSlug(['runs', 'list', '-h'])).toBe('help')
    expect(startup.cacheSlug(['help', 'runs'])).toBe('help')
    expect(startup.cacheSlug(['runs', 'list', '--json', '--limit', '50'])).toBe('runs-list')
    expect(startup.cacheSlug(['orgs', 'implementation-doc', 'set'])).toBe('orgs-implementation-doc')
    expect(startup.cacheSlug(['runs', 'watch', 'run_acme_0001'])).toBe('runs-watch')
    expect(startup.cacheSlug(['api', '/me'])).toBe('api')
    expect(startup.cacheSlug(['--json'])).toBe('other')
    expect(startup.cacheSlug(['../../etc/passwd'])).toBe('other')
  })
})

describe('pieceNames (what bench/ablate.mjs and bin/build.js --without take)', () => {
  it('names each piece once: a lazy module, slim-undici, liftoff, and one edit:<package> for all its edits', () => {
    const names = startup.pieceNames() as string[]
    expect(new Set(names).size).toBe(names.length)
    expect(names).toEqual(
      expect.arrayContaining(['lazy:assert', 'slim-undici', 'liftoff', 'undici-apart', 'edit:undici', 'edit:@oclif/core']),
    )
    expect(names.filter((n) => n === 'edit:undici')).toHaveLength(1)
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
    new Function('module', 'require', startup.lazyBuiltinSource(name))(module, counting)
    return {standIn: module.exports as any, loaded}
  }

  it.each(startup.LAZY_BUILTINS as string[])('node:%s: the real module, loaded on first use, with its keys', (name) => {
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
  const dir = tempDir('amctl-startup-lazy-')
  const outfile = join(dir, 'out.cjs')
  const marker = `__amctlEvaluated_${name.replace(/\W/g, '_')}`
  const realDir = startup.packageDir(name)
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
      // (without the source edits, which expect the whole CLI to be bundled)
      ...startup.plugins(new Set((startup.pieceNames() as string[]).filter((n) => n.startsWith('edit:')))),
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
    expect(Object.keys(startup.LAZY_PACKAGES).sort()).toEqual([
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

describe('dependency internals: pinned, and still what the edits and imports expect', () => {
  const installed = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version

  type Edit = {package: string; version: string; file: string; from: string}
  it.each((startup.EDITS as Edit[]).map((e) => ({name: e.package, e})))('edit of $name: the pinned version holds the text', ({e}) => {
    // every copy at the edited version (nested ones included) holds the text
    const copies = spawnSync('find', ['node_modules', '-path', `*node_modules/${e.package}/package.json`], {cwd: ROOT, encoding: 'utf8'})
      .stdout.trim()
      .split('\n')
      .map((p) => join(ROOT, p, '..'))
      .filter((dir) => installed(dir) === e.version)
    expect(copies.length, `no ${e.package}@${e.version} installed`).toBeGreaterThan(0)
    for (const dir of copies) expect(readFileSync(join(dir, e.file), 'utf8')).toContain(e.from)
    // a dependency of amctl's own, at the edited version, is pinned to it exactly
    if (installed(startup.packageDir(e.package)) === e.version) expect(pinned(e.package), 'exact pin in package.json').toBe(e.version)
  })

  it("oclif's shell, found on first use: SHELL's last segment, else the password database's (autocomplete's instructions)", () => {
    const home = tempDir('amctl-startup-shell-')
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [BIN, 'autocomplete'], {
        env: {PATH: process.env.PATH ?? '', HOME: home, AMCTL_CACHE_DIR: join(home, 'cache'), ...env},
        encoding: 'utf8',
      })
    expect(run({SHELL: '/usr/local/bin/zsh'}).stdout).toContain('amctl autocomplete script zsh')
    const login = (require('node:os').userInfo().shell ?? '').split('/').at(-1)
    if (login === 'bash' || login === 'zsh') expect(run({}).stdout).toContain(`amctl autocomplete script ${login}`)
    // and a command that does not ask never reads the password database
    const dir = tempDir('amctl-startup-userinfo-')
    const hook = join(dir, 'count.cjs')
    writeFileSync(
      hook,
      `const os = require('node:os'); const real = os.userInfo; let calls = 0
os.userInfo = (...a) => { calls++; return real(...a) }
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'calls'))}, String(calls)))\n`,
    )
    const r = spawnSync(process.execPath, ['--require', hook, BIN, 'config', 'list'], {env: {PATH: process.env.PATH ?? '', HOME: home}})
    expect(r.status).toBe(0)
    expect(readFileSync(join(dir, 'calls'), 'utf8')).toBe('0')
  })

  it("oclif's command sort: amctl's command IDs sort the same by code unit as by localeCompare", () => {
    const ids = Object.keys(JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')).commands)
    const byLocale = [...ids].sort((a, b) => a.localeCompare(b))
    const byCodeUnit = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    expect(byCodeUnit).toEqual(byLocale)
  })

  it('string-width 4 with its ASCII shortcut measures as before', () => {
    const edit = startup.EDITS.find((e: {package: string}) => e.package === 'string-width')
    const dir = join(ROOT, 'node_modules', '@oclif', 'core', 'node_modules', 'string-width')
    const source = readFileSync(join(dir, 'index.js'), 'utf8')
    const load = (text: string) => {
      const module = {exports: {} as unknown}
      new Function('module', 'exports', 'require', text)(module, module.exports, createRequire(join(dir, 'index.js')))
      return module.exports as (s: string) => number
    }
    const original = load(source)
    const edited = load(source.replace(edit.from, edit.to))
    const samples = ['', 'runs list', '\u001b[1mbold\u001b[22m', 'naïve', '日本語', 'a\u0301', '👍 ok', '\t tab', '#️⃣ *️⃣ 0️⃣']
    for (let c = 0x20; c < 0x7f; c++) samples.push(String.fromCharCode(c), String.fromCharCode(c).repeat(3))
    for (const s of samples) expect(edited(s), JSON.stringify(s)).toBe(original(s))
  })

  it("undici's client: the HTTP/2 half is only ever called", () => {
    const source = readFileSync(join(startup.packageDir('undici'), 'lib', 'dispatcher', 'client.js'), 'utf8')
    expect(source.match(/\bconnectH2\b(?!\()/g)).toEqual(['connectH2'])
  })

  it("undici by its parts is undici's index: the same classes, the same request API", () => {
    const undici = require(require.resolve('undici', {paths: [ROOT]}))
    const part = (path: string) => require(require.resolve(path, {paths: [ROOT]}))
    for (const [name, path] of Object.entries(startup.UNDICI_PARTS as Record<string, string>)) expect(part(path), name).toBe(undici[name])
    for (const [name, path] of Object.entries(startup.UNDICI_API as Record<string, string>)) {
      expect(part(path), name).toBe(undici.Dispatcher.prototype[name])
    }
    expect(installed(startup.packageDir('undici'))).toBe(pinned('undici'))
  })

  it("plugin-autocomplete's commands: the pinned version, where the bundle imports them", () => {
    for (const [name, {version, under}] of Object.entries(startup.DEEP_IMPORTS as Record<string, {version: string; under: string}>)) {
      const dir = startup.packageDir(name)
      expect(installed(dir)).toBe(version)
      expect(pinned(name)).toBe(version)
      for (const file of ['index.js', 'create.js', 'script.js']) expect(statSync(join(dir, under, file)).isFile()).toBe(true)
    }
  })
})

describe('help drawn at build time (dist/help/), printed without the bundle', () => {
  const helpDir = join(ROOT, 'dist', startup.HELP_DIR)
  const built = JSON.parse(readFileSync(join(helpDir, startup.HELP_META), 'utf8')) as {id: string; package: string}
  /** Every argv dist/help/ holds, by its file (words and flags joined by '_'). */
  const forms = readdirSync(helpDir)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => (f === '_.txt' ? [] : f.slice(0, -'.txt'.length).split('_')))
  /** The help dist/help/ holds for this argv. */
  const drawnFor = (argv: string[]) => readFileSync(join(helpDir, startup.helpFile(argv)), 'utf8')
  const home = tempDir('amctl-startup-help-home-')

  /** A piped run, with `record`ed modules; what it printed. */
  function piped(argv: string[], env: Record<string, string> = {}) {
    const {hook, read} = recorder()
    const r = spawnSync(process.execPath, ['--require', hook, BIN, ...argv], {
      env: {PATH: process.env.PATH ?? '', HOME: home, AMCTL_KEYCHAIN: 'off', ...env},
      encoding: 'utf8',
    })
    return {status: r.status, stdout: r.stdout, stderr: r.stderr, ...read()}
  }

  /** Runs `work` over `items`, four at a time. */
  async function eachAtOnce<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
    const queue = [...items]
    await Promise.all(
      Array.from({length: 4}, async () => {
        for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item)
      }),
    )
  }

  it('holds every argv oclif answers with help: the root, and each command, topic and help topic of the manifest', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, unknown>}
    const expected = [[], ['--help'], ['-h'], ['help']].map((a) => a.join(' '))
    for (const id of Object.keys(manifest.commands)) {
      const words = id.replaceAll(':', ' ')
      expected.push(`${words} --help`, `${words} -h`)
      if (!words.startsWith('help')) expected.push(`help ${words}`)
    }
    for (const topic of ['environment', 'exit-codes', 'formatting']) expected.push(`${topic} --help`, `help ${topic}`)
    // a topic alone (`amctl runs`) shows its commands
    expected.push('runs', 'orgs implementation-doc', 'runs --help', 'help runs')
    expect(forms.map((f) => f.join(' '))).toEqual(expect.arrayContaining(expected))
    expect(built.package).toBe(startup.helpPackage(pkg))
  })

  it('every one prints, piped, byte for byte what oclif draws at run time (AMCTL_HELP_CACHE=off), exit 0, nothing on stderr', async () => {
    await eachAtOnce(forms, async (argv) => {
      const [fast, drawn] = await Promise.all([amctl(argv, {HOME: home}), bundled(argv, {HOME: home})])
      const what = `amctl ${argv.join(' ')}`
      expect(drawn.status, what).toBe(0)
      expect(drawn.stderr, what).toBe('')
      expect(fast, what).toEqual(drawn)
      expect(fast.stdout, what).toBe(drawnFor(argv))
    })
  }, 240_000)

  it('is printed without loading the bundle, to a pipe and to /dev/null', () => {
    const r = piped(['runs', 'list', '--help'])
    expect(r.bundle).toBe(false)
    expect(r.status).toBe(0)
    expect(r.stdout).toBe(drawnFor(['runs', 'list', '--help']))
    const {hook, read} = recorder()
    const devNull = spawnSync(process.execPath, ['--require', hook, BIN, '--help'], {
      env: {PATH: process.env.PATH ?? '', HOME: home},
      stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
    })
    expect(devNull.status).toBe(0)
    expect(read().bundle).toBe(false)
    // not a help argv, or one it does not hold: the bundle
    expect(piped(['runs', 'list', '--org', 'acme', '--help']).bundle).toBe(true)
    expect(piped(['runs', 'lst', '--help']).bundle).toBe(true)
  })

  it('COLUMNS, NO_COLOR and TERM change nothing piped: the build help is printed, and it is what oclif draws with them', () => {
    const env = {COLUMNS: '50', NO_COLOR: '1', TERM: 'dumb'}
    for (const argv of [['--help'], ['runs', 'list', '--help']]) {
      const fast = piped(argv, env)
      expect(fast.bundle).toBe(false)
      const drawn = piped(argv, {...env, AMCTL_HELP_CACHE: 'off'})
      expect(drawn.bundle).toBe(true)
      expect(fast.stdout).toBe(drawn.stdout)
    }
  })

  it.each(startup.HELP_ENV as string[])('%s set: oclif draws the help from the bundle', (name) => {
    const value = {OCLIF_COLUMNS: '50', FORCE_COLOR: '1', DEBUG: 'amctl-nothing', AMCTL_DEBUG: '1'}[name] ?? '1'
    const r = piped(['runs', 'list', '--help'], {[name]: value})
    expect(r.bundle).toBe(true)
    expect(r.status).toBe(0)
    const plain = drawnFor(['runs', 'list', '--help'])
    if (name === 'OCLIF_COLUMNS') {
      expect(r.stdout).not.toBe(plain)
      const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length))
      expect(widest(plain)).toBeGreaterThan(70)
      // drawn for 50 columns: oclif lets an indented line or a long unbreakable word run a few past
      expect(widest(r.stdout)).toBeLessThanOrEqual(55)
    } else if (name === 'FORCE_COLOR') expect(r.stdout).toContain('\u001b[1mUSAGE\u001b[22m')
    else expect(r.stdout).toBe(plain)
  })

  describe('help(): only the help drawn from this package.json and this manifest', () => {
    /** A package root like the real one: package.json, manifest, dist/help/. */
    function fakeRoot() {
      const root = tempDir('amctl-startup-root-')
      for (const file of ['package.json', 'oclif.manifest.json']) writeFileSync(join(root, file), readFileSync(join(ROOT, file)))
      cpSync(helpDir, join(root, 'dist', startup.HELP_DIR), {recursive: true})
      return root
    }
    const pipe = () => 'piped'
    const text = drawnFor(['runs', 'list', '--help'])

    it('prints it when both are what it was drawn from', () => {
      const root = fakeRoot()
      expect(startup.help(['runs', 'list', '--help'], root, pkg, {}, pipe)).toEqual({text})
      expect(startup.help(['runs', 'list', '-h'], root, pkg, {}, pipe)).toEqual({text})
      expect(startup.help(['help', 'runs', 'list'], root, pkg, {}, pipe)).toEqual({text})
    })

    it('not for another manifest, another package.json, no dist/help/help.json, stdout neither piped nor a terminal, or AMCTL_HELP_CACHE=off', () => {
      const root = fakeRoot()
      const argv = ['runs', 'list', '--help']
      expect(startup.help(argv, root, {...pkg, description: 'another'}, {}, pipe)).toBeUndefined()
      expect(startup.help(argv, root, {...pkg, version: '9.9.9'}, {}, pipe)).toBeUndefined()
      expect(startup.help(argv, root, pkg, {}, () => 'other')).toBeUndefined()
      expect(startup.help(argv, root, pkg, {AMCTL_HELP_CACHE: 'off'}, pipe)).toBeUndefined()
      const manifest = readFileSync(join(root, 'oclif.manifest.json'), 'utf8')
      // the same length, one character changed
      writeFileSync(join(root, 'oclif.manifest.json'), manifest.replace('List runs', 'List Runs'))
      expect(startup.help(argv, root, pkg, {}, pipe)).toBeUndefined()
      writeFileSync(join(root, 'oclif.manifest.json'), manifest)
      expect(startup.help(argv, root, pkg, {}, pipe)).toEqual({text})
      rmSync(join(root, 'dist', startup.HELP_DIR, startup.HELP_META))
      expect(startup.help(argv, root, pkg, {}, pipe)).toBeUndefined()
    })

    it('not for an argv it does not hold word for word', () => {
      const root = fakeRoot()
      for (const argv of [
        ['runs', 'list', '--help', '--help'],
        ['RUNS', '--help'],
        ['runs list', '--help'],
        ['runs', '--', '--help'],
      ]) {
        expect(startup.help(argv, root, pkg, {}, pipe), argv.join(' ')).toBeUndefined()
      }
    })
  })

  it('a reader that went away (EPIPE): exit 0, nothing on stderr', async () => {
    const r = await runBin(['--help'], {env: {HOME: home}, onSpawn: (child) => child.stdout?.destroy()})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toBe('')
  })

  it('a non-blocking stdout that is full (EAGAIN): the rest is written once the reader reads', () => {
    // a parent that made the pipe non-blocking (as Node's process.stdout does) and filled it,
    // then amctl in the same process; the reader starts half a second later
    const dir = tempDir('amctl-startup-eagain-')
    const wrapper = join(dir, 'full.cjs')
    writeFileSync(
      wrapper,
      `const {writeFileSync, writeSync} = require('node:fs')
process.stdout // makes the pipe non-blocking
let filled = 0
// (full: not even one byte more fits)
for (const size of [4096, 1]) {
  try { for (;;) filled += writeSync(1, Buffer.alloc(size, 120)) } catch (error) { if (error.code !== 'EAGAIN') throw error }
}
writeFileSync(${JSON.stringify(join(dir, 'filled'))}, String(filled))
process.argv = [process.argv[0], ${JSON.stringify(BIN)}, '--help']
require(${JSON.stringify(BIN)})
`,
    )
    const q = (path: string) => `'${path}'`
    const r = spawnSync(
      'sh',
      ['-c', `{ ${q(process.execPath)} ${q(wrapper)}; echo $? > ${q(join(dir, 'status'))}; } | (sleep 0.5; cat > ${q(join(dir, 'out'))})`],
      {env: {PATH: process.env.PATH ?? '', HOME: home}, encoding: 'utf8', timeout: 20_000},
    )
    expect(r.stderr).toBe('')
    expect(readFileSync(join(dir, 'status'), 'utf8').trim()).toBe('0')
    const filled = Number(readFileSync(join(dir, 'filled'), 'utf8'))
    expect(filled).toBeGreaterThan(0)
    const out = readFileSync(join(dir, 'out'))
    expect(out.subarray(filled).toString('utf8')).toBe(drawnFor(['--help']))
  })

  describe('on a terminal: a cache per width and colour', () => {
    /** amctl on a terminal `columns` wide, with its cache in `cache`; the screen, and whether the bundle was loaded. */
    async function onTerminal(argv: string[], cache: string, columns: number, env: Record<string, string> = {}) {
      const {hook, read} = recorder()
      const r = await runOnTerminal(argv, {columns, env: {HOME: home, AMCTL_CACHE_DIR: cache, NODE_OPTIONS: `--require ${hook}`, ...env}})
      return {...r, ...read()}
    }
    const helpFiles = (cache: string) => {
      try {
        return readdirSync(join(cache, 'help')).sort()
      } catch {
        return []
      }
    }

    it('the first run at a width draws it and keeps it (mode 0600); the next prints it without the bundle, the same', async () => {
      const cache = tempDir('amctl-startup-tty-')
      const first = await onTerminal(['runs', 'list', '--help'], cache, 70)
      expect(first.exitCode).toBe(0)
      expect(first.bundle).toBe(true)
      expect(first.screen).toContain('\u001b[1mUSAGE\u001b[22m')
      const files = helpFiles(cache)
      expect(files).toEqual([`${built.id}-runs_list_--help-70-1.txt`])
      expect(statSync(join(cache, 'help', files[0])).mode & 0o777).toBe(0o600)
      const second = await onTerminal(['runs', 'list', '--help'], cache, 70)
      expect(second.bundle).toBe(false)
      expect(second.screen).toBe(first.screen)
      // another width: drawn again, kept apart
      const wide = await onTerminal(['runs', 'list', '--help'], cache, 120)
      expect(wide.bundle).toBe(true)
      expect(wide.screen).not.toBe(first.screen)
      expect(helpFiles(cache)).toHaveLength(2)
    })

    it('colour as oclif decides it: NO_COLOR and TERM=dumb are another cache, each what oclif draws', async () => {
      const cache = tempDir('amctl-startup-tty-colour-')
      for (const env of [{NO_COLOR: '1'}, {TERM: 'dumb'}] as Record<string, string>[]) {
        const drawn = await onTerminal(['--help'], cache, 80, {...env, AMCTL_HELP_CACHE: 'off'})
        await onTerminal(['--help'], cache, 80, env)
        const cached = await onTerminal(['--help'], cache, 80, env)
        expect(cached.bundle, JSON.stringify(env)).toBe(false)
        expect(cached.screen, JSON.stringify(env)).toBe(drawn.screen)
      }
      const coloured = await onTerminal(['runs', '--help'], cache, 80)
      const plain = await onTerminal(['runs', '--help'], cache, 80, {NO_COLOR: '1'})
      expect(plain.bundle).toBe(true)
      expect(plain.screen).not.toBe(coloured.screen)
      expect(helpFiles(cache).map((f) => f.replace(/^\w+-/, ''))).toEqual([
        '--help-80-0.txt',
        'runs_--help-80-0.txt',
        'runs_--help-80-1.txt',
      ])
    })

    it('not with a theme of the user (theme.json): oclif draws it every time', async () => {
      const cache = tempDir('amctl-startup-tty-theme-')
      const config = tempDir('amctl-startup-theme-')
      writeFileSync(join(config, 'theme.json'), '{"sectionHeader": "red"}')
      for (let i = 0; i < 2; i++) {
        const r = await onTerminal(['--help'], cache, 80, {AMCTL_CONFIG_DIR: config})
        expect(r.bundle).toBe(true)
      }
      expect(helpFiles(cache)).toEqual([])
    })

    it('a cache file others could have written is not used', async () => {
      const cache = tempDir('amctl-startup-tty-own-')
      await onTerminal(['--help'], cache, 80)
      const [file] = helpFiles(cache)
      writeFileSync(join(cache, 'help', file), 'planted\n', {mode: 0o666})
      chmodSync(join(cache, 'help', file), 0o666)
      const r = await onTerminal(['--help'], cache, 80)
      expect(r.bundle).toBe(true)
      expect(r.screen).not.toContain('planted')
    })
  })
})
