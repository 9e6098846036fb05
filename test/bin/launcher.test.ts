import {spawnSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {useE2E} from '../e2e/helpers.js'
import {runBin, runOnTerminal} from '../helpers/bin.js'
import {ROOT} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp.js'
import {machinePath} from '../helpers/env.js'

// bin/launcher.cjs: the run-time half of the start-up machinery (the code cache, help drawn at
// build time, stdout without process.stdout), and what a built run loads. Every piece leans on how
// Node, V8 or a dependency behaves today; these tests fail loudly when an update changes that. No
// timings: what each piece buys is measured by `npm run bench` and `node bench/ablate.mjs`.

const require = createRequire(import.meta.url)
const launcher = require(join(ROOT, 'bin', 'launcher.cjs'))
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
      env: {PATH: machinePath(), HOME: home, AMCTL_KEYCHAIN: 'off', ...env},
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
  const source = readFileSync(BUNDLE, 'utf8')

  it('holds no undici: dist/undici.cjs does, which it requires for a request through a proxy', () => {
    const undici = readFileSync(join(ROOT, 'dist', 'undici.cjs'), 'utf8')
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

  it('is pure ASCII: one character beyond it makes its source a two-byte string at every run (about 1 ms)', () => {
    expect(source.match(/[^\0-\x7F]/g) ?? []).toEqual([])
    // (ansis's regex of escape sequences held a raw U+009B: escaped, it means the same)
    expect(source).toContain('\\u009b')
  })

  it('ends with its build mark, the hash of what comes before it', () => {
    const at = source.lastIndexOf(launcher.BUILD_MARK)
    expect(at).toBeGreaterThan(0)
    const mark = source.slice(at + launcher.BUILD_MARK.length).trim()
    expect(mark).toBe(createHash('sha256').update(source.slice(0, at)).digest('hex').slice(0, 16))
  })

  it('the build puts no code cache and nothing machine-specific into dist/', () => {
    expect(readdirSync(join(ROOT, 'dist')).filter((f) => /cache|\.bin$/.test(f))).toEqual([])
  })
})

describe('what a run loads (a dependency that starts requiring these at load time shows here)', () => {
  const LAZY = ['child_process', 'tty', 'net', 'v8', 'http', 'http2', 'tls', 'crypto', 'worker_threads']

  it('config list and auth token, stdout and stderr pipes: no stream made for either (no net, no stream modules)', () => {
    for (const argv of [
      ['config', 'list'],
      ['auth', 'token'],
    ]) {
      const {hook, read} = recorder()
      const r = spawnSync(process.execPath, ['--require', hook, BIN, ...argv], {
        env: {
          PATH: machinePath(),
          HOME: tempDir('amctl-startup-home-'),
          AMCTL_KEYCHAIN: 'off',
          AMCTL_TOKEN: 'svc_pipe_token_1234',
        },
        encoding: 'utf8',
      })
      expect(r.status, r.stderr).toBe(0)
      if (argv[0] === 'auth') expect(r.stdout).toBe('svc_pipe_token_1234\n')
      const loaded = read().builtins
      for (const name of ['net', 'stream', 'tty']) expect(loaded, `${argv.join(' ')}: ${name}`).not.toContain(name)
    }
  })

  it('config list, stdout a file and stderr a pipe: no net (neither oclif nor amctl makes process.stderr to ask about it)', () => {
    const {hook, dir, read} = recorder()
    const fd = openSync(join(dir, 'out.txt'), 'w')
    const r = spawnSync(process.execPath, ['--require', hook, BIN, 'config', 'list'], {
      env: {PATH: machinePath(), HOME: tempDir('amctl-startup-home-'), AMCTL_KEYCHAIN: 'off'},
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
    const source = readFileSync(BUNDLE, 'utf8')
    expect(source).toMatch(/require\(["']\.\/xml\.cjs["']\)/)
    expect(source).not.toContain('replaceEntitiesValue') // a method of the builder
    expect(await distRequired(['runs', 'watch', 'run_acme_0251'])).not.toContain('xml.cjs')
    const dir = tempDir('amctl-startup-xml-')
    expect(await distRequired(['runs', 'watch', 'run_acme_0251', '--junit', join(dir, 'e.xml')])).toContain('xml.cjs')
  })

  it("jstat (the history gate's t quantile) is not in the bundle either: ./stats.cjs is required only by --baseline history and evals stats", async () => {
    const source = readFileSync(BUNDLE, 'utf8')
    expect(source).toMatch(/require\(["']\.\/stats\.cjs["']\)/)
    expect(source).not.toContain('ibetainv') // a function of jstat
    expect(await distRequired(['runs', 'watch', 'run_acme_0251', '--baseline', 'previous'])).not.toContain('stats.cjs')
    expect(await distRequired(['runs', 'list'])).not.toContain('stats.cjs')
    expect(await distRequired(['runs', 'watch', 'run_acme_0251', '--baseline', 'history'])).toContain('stats.cjs')
    expect(await distRequired(['evals', 'stats', 'es_acme_search'])).toContain('stats.cjs')
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
    const mark = readFileSync(BUNDLE, 'utf8').trim().split('\n').at(-1)?.slice(launcher.BUILD_MARK.length)
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

  it('a cache with bytes flipped in the middle of what V8 reads is discarded and rewritten, never handed to V8 (it crashed: exit 133)', async () => {
    const dir = tempDir('amctl-startup-flip-')
    const env = {HOME: home, AMCTL_CACHE_DIR: dir}
    expect((await bundled(['config', 'list'], env)).status).toBe(0)
    const [file] = cacheFiles(join(dir, 'code-cache'))
    const path = join(dir, 'code-cache', file)
    const damaged = readFileSync(path)
    for (let i = 0; i < 8; i++) damaged[(damaged.length >> 2) + i] ^= 0x5a
    writeFileSync(path, damaged)
    for (let run = 0; run < 2; run++) {
      const r = await bundled(['config', 'list', '--json'], env)
      expect(r.stderr, `run ${run}`).toBe('')
      expect(r.status, `run ${run}`).toBe(0)
    }
    expect(readFileSync(path).equals(damaged), 'rewritten').toBe(false)
  })

  it('the check: one flipped bit anywhere is caught, and so is a file cut short', () => {
    const bytes = createHash('sha256').update('seed').digest()
    const data = Buffer.alloc(300_001)
    for (let i = 0; i < data.length; i++) data[i] = bytes[i % bytes.length] ^ (i & 0xff)
    const sealed = launcher.sealCache(data)
    expect(launcher.openCache(sealed).equals(data)).toBe(true)
    for (const at of [0, 150_000, data.length, sealed.length - 1]) {
      const damaged = Buffer.from(sealed)
      damaged[at] ^= 0x10
      expect(launcher.openCache(damaged), `bit flipped at ${at}`).toBeUndefined()
    }
    for (const cut of [1, 2, data.length]) expect(launcher.openCache(sealed.subarray(0, sealed.length - cut)), `${cut} cut`).toBeUndefined()
  })

  it('a cache directory that cannot be made (under /proc) is skipped silently: the command ends, no spinning', () => {
    const r = spawnSync(process.execPath, [BIN, 'config', 'list', '--json'], {
      env: {PATH: machinePath(), HOME: home, AMCTL_CACHE_DIR: '/proc/nope/amctl', AMCTL_KEYCHAIN: 'off'},
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(r.error, 'still running after 20 s').toBeUndefined()
    expect(r.status).toBe(0)
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout)).toBeTypeOf('object')
  })

  it('a cache directory others can write, or a link, is neither written nor read', async () => {
    for (const make of ['writable', 'link'] as const) {
      const dir = tempDir('amctl-startup-shared-')
      const other = tempDir('amctl-startup-other-')
      if (make === 'writable') {
        mkdirSync(join(dir, 'code-cache'))
        chmodSync(join(dir, 'code-cache'), 0o777)
      } else symlinkSync(other, join(dir, 'code-cache'))
      for (let run = 0; run < 2; run++) expect((await bundled(['config', 'list'], {HOME: home, AMCTL_CACHE_DIR: dir})).status).toBe(0)
      expect(cacheFiles(join(dir, 'code-cache')), make).toEqual([])
      expect(readdirSync(other), make).toEqual([])
    }
  })

  it.runIf(process.getuid?.() === 0)(
    'a cache directory another user owns is neither written nor read (root with a HOME of someone else)',
    async () => {
      const dir = tempDir('amctl-startup-theirs-')
      mkdirSync(join(dir, 'code-cache'), {mode: 0o755})
      chownSync(join(dir, 'code-cache'), 65534, 65534)
      for (let run = 0; run < 2; run++) expect((await bundled(['config', 'list'], {HOME: home, AMCTL_CACHE_DIR: dir})).status).toBe(0)
      expect(cacheFiles(join(dir, 'code-cache'))).toEqual([])
      expect(readdirSync(join(dir, 'code-cache'))).toEqual([])
    },
  )

  it('a temporary file planted as a link to another file is never written through', () => {
    const dir = tempDir('amctl-startup-plant-')
    mkdirSync(join(dir, 'code-cache'), {mode: 0o700})
    const victim = join(tempDir('amctl-startup-victim-'), 'victim.txt')
    writeFileSync(victim, 'precious\n', {mode: 0o600})
    const mark = readFileSync(BUNDLE, 'utf8').trim().split('\n').at(-1)?.slice(launcher.BUILD_MARK.length)
    const name = `amctl-${mark}-config-list-node${process.versions.node}-${process.arch}.bin`
    // the name a temporary file had (its pid), planted by the process itself just before amctl runs in it
    const wrapper = join(dir, 'plant.cjs')
    writeFileSync(
      wrapper,
      `require('node:fs').symlinkSync(${JSON.stringify(victim)}, ${JSON.stringify(join(dir, 'code-cache'))} + '/${name}.' + process.pid + '.tmp')
process.argv = [process.argv[0], ${JSON.stringify(BIN)}, 'config', 'list']
require(${JSON.stringify(BIN)})
`,
    )
    const r = spawnSync(process.execPath, [wrapper], {
      env: {PATH: machinePath(), HOME: home, AMCTL_CACHE_DIR: dir, AMCTL_KEYCHAIN: 'off', AMCTL_HELP_CACHE: 'off'},
      encoding: 'utf8',
    })
    expect(r.status, r.stderr).toBe(0)
    expect(readFileSync(victim, 'utf8')).toBe('precious\n')
    expect(cacheFiles(join(dir, 'code-cache'))).toEqual([name])
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

describe('--liftoff-only when undici loads', () => {
  /** setLiftoffOnly in a process that says it is Node `version`: whether the loader was told (it is, just before the flag is set). */
  function toldOn(version: string): boolean {
    const script = `Object.defineProperty(process, 'versions', {value: {...process.versions, node: ${JSON.stringify(version)}}})
let told = false
process[Symbol.for('amctl.test.beforeV8Flags')] = () => { told = true }
require(${JSON.stringify(join(ROOT, 'bin', 'launcher.cjs'))}).setLiftoffOnly('amctl.test.beforeV8Flags')
process.stdout.write(String(told))`
    const r = spawnSync(process.execPath, ['-e', script], {env: {PATH: machinePath()}, encoding: 'utf8'})
    expect(r.stderr).toBe('')
    return r.stdout === 'true'
  }

  it('is set on Node 20 only (on 22 and 24 it measured slower): the loader is told only there', () => {
    expect(toldOn('20.20.2')).toBe(true)
    expect(toldOn('22.23.3')).toBe(false)
    expect(toldOn('24.21.0')).toBe(false)
  })

  it('dist/undici.cjs sets it as undici loads, with the loader told first', () => {
    const source = readFileSync(join(ROOT, 'dist', 'undici.cjs'), 'utf8')
    expect(source).toContain(`setLiftoffOnly(${JSON.stringify(launcher.BEFORE_V8_FLAGS.description)})`)
  })
})

describe('which cache a run uses', () => {
  it('one per command, one for any help', () => {
    expect(launcher.cacheSlug([])).toBe('help')
    expect(launcher.cacheSlug(['--help'])).toBe('help')
    expect(launcher.cacheSlug(['runs', 'list', '-h'])).toBe('help')
    expect(launcher.cacheSlug(['help', 'runs'])).toBe('help')
    expect(launcher.cacheSlug(['runs', 'list', '--json', '--limit', '50'])).toBe('runs-list')
    expect(launcher.cacheSlug(['orgs', 'implementation-doc', 'set'])).toBe('orgs-implementation-doc')
    expect(launcher.cacheSlug(['runs', 'watch', 'run_acme_0001'])).toBe('runs-watch')
    expect(launcher.cacheSlug(['api', '/me'])).toBe('api')
    expect(launcher.cacheSlug(['--json'])).toBe('other')
    expect(launcher.cacheSlug(['../../etc/passwd'])).toBe('other')
  })
})

describe('help drawn at build time (dist/help/), printed without the bundle', () => {
  const helpDir = join(ROOT, 'dist', launcher.HELP_DIR)
  const built = JSON.parse(readFileSync(join(helpDir, launcher.HELP_META), 'utf8')) as {id: string; package: string}
  /** Every argv dist/help/ holds, by its file (words and flags joined by '_'). */
  const forms = readdirSync(helpDir)
    .filter((f) => f.endsWith('.txt'))
    .map((f) => (f === '_.txt' ? [] : f.slice(0, -'.txt'.length).split('_')))
  /** The help dist/help/ holds for this argv. */
  const drawnFor = (argv: string[]) => readFileSync(join(helpDir, launcher.helpFile(argv)), 'utf8')
  const home = tempDir('amctl-startup-help-home-')

  /** A piped run, with `record`ed modules; what it printed. */
  function piped(argv: string[], env: Record<string, string> = {}) {
    const {hook, read} = recorder()
    const r = spawnSync(process.execPath, ['--require', hook, BIN, ...argv], {
      env: {PATH: machinePath(), HOME: home, AMCTL_KEYCHAIN: 'off', ...env},
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
    expect(built.package).toBe(launcher.helpPackage(pkg))
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
      env: {PATH: machinePath(), HOME: home},
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

  it.each(launcher.HELP_ENV as string[])('%s set: oclif draws the help from the bundle', (name) => {
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
      cpSync(helpDir, join(root, 'dist', launcher.HELP_DIR), {recursive: true})
      return root
    }
    const pipe = () => 'piped'
    const text = drawnFor(['runs', 'list', '--help'])

    it('prints it when both are what it was drawn from', () => {
      const root = fakeRoot()
      expect(launcher.help(['runs', 'list', '--help'], root, pkg, {}, pipe)).toEqual({text})
      expect(launcher.help(['runs', 'list', '-h'], root, pkg, {}, pipe)).toEqual({text})
      expect(launcher.help(['help', 'runs', 'list'], root, pkg, {}, pipe)).toEqual({text})
    })

    it('not for another manifest, another package.json, no dist/help/help.json, stdout neither piped nor a terminal, or AMCTL_HELP_CACHE=off', () => {
      const root = fakeRoot()
      const argv = ['runs', 'list', '--help']
      expect(launcher.help(argv, root, {...pkg, description: 'another'}, {}, pipe)).toBeUndefined()
      expect(launcher.help(argv, root, {...pkg, version: '9.9.9'}, {}, pipe)).toBeUndefined()
      expect(launcher.help(argv, root, pkg, {}, () => 'other')).toBeUndefined()
      expect(launcher.help(argv, root, pkg, {AMCTL_HELP_CACHE: 'off'}, pipe)).toBeUndefined()
      const manifest = readFileSync(join(root, 'oclif.manifest.json'), 'utf8')
      // the same length, one character changed
      writeFileSync(join(root, 'oclif.manifest.json'), manifest.replace('List runs', 'List Runs'))
      expect(launcher.help(argv, root, pkg, {}, pipe)).toBeUndefined()
      writeFileSync(join(root, 'oclif.manifest.json'), manifest)
      expect(launcher.help(argv, root, pkg, {}, pipe)).toEqual({text})
      rmSync(join(root, 'dist', launcher.HELP_DIR, launcher.HELP_META))
      expect(launcher.help(argv, root, pkg, {}, pipe)).toBeUndefined()
    })

    it('not for an argv it does not hold word for word', () => {
      const root = fakeRoot()
      for (const argv of [
        ['runs', 'list', '--help', '--help'],
        ['RUNS', '--help'],
        ['runs list', '--help'],
        ['runs', '--', '--help'],
      ]) {
        expect(launcher.help(argv, root, pkg, {}, pipe), argv.join(' ')).toBeUndefined()
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
      {env: {PATH: machinePath(), HOME: home}, encoding: 'utf8', timeout: 20_000},
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

    it('a cache file that is a link, even to a file of the user, is not printed', async () => {
      const cache = tempDir('amctl-startup-tty-link-')
      await onTerminal(['--help'], cache, 80)
      const [file] = helpFiles(cache)
      const secret = join(tempDir('amctl-startup-secret-'), 'secret.txt')
      writeFileSync(secret, 'a root-only secret\n', {mode: 0o600})
      rmSync(join(cache, 'help', file))
      symlinkSync(secret, join(cache, 'help', file))
      const r = await onTerminal(['--help'], cache, 80)
      expect(r.screen).not.toContain('a root-only secret')
      expect(r.screen).toContain('USAGE')
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
