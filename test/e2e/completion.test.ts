import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'
import {recentPath} from '../../src/core/recent.js'
import {amctlOnPath, runBin} from '../helpers/bin.js'
import {ROOT} from '../helpers/cli.js'
import {tempDir} from '../helpers/temp.js'
import {useE2E} from './helpers.js'
import {harness, machinePath, sealedEnv} from '../helpers/env.js'
import {lines} from '../helpers/output.js'

// Shell completion as people get it: the script of `amctl autocomplete script SHELL`, loaded into
// a real interactive bash and zsh on a pseudo-terminal (`script`), Tab pressed, what the shell
// shows read off the screen. The built amctl is on PATH; the IDs come from what `runs list` and
// `evals run` against the dev server left in the completion cache. fish answers `complete -C`.

const e2e = useE2E({runSeconds: 0})
const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`], {env: sealedEnv()}).status === 0
// CI installs zsh (and fish) with the system packages (.ci/run); elsewhere a missing shell is skipped, and says so
const needs = (shell: string) => {
  if (!has(shell) && harness.ci) throw new Error(`${shell} is not installed: .ci/run installs it`)
  if (!has(shell)) console.warn(`skipped: ${shell} is not installed (apt-get install ${shell})`)
  return has(shell)
}

let home: string
let env: Record<string, string>

beforeAll(async () => {
  home = tempDir('amctl-completion-')
  env = {
    // (TMPDIR too: fish keeps a directory of its own there, which goes with the home)
    ...sealedEnv({PATH: `${amctlOnPath()}:${machinePath()}`, HOME: home, TMPDIR: home}),
    TERM: 'dumb',
    AMCTL_CONFIG_DIR: join(home, 'config'),
    AMCTL_CACHE_DIR: join(home, 'cache'),
    AMCTL_KEYCHAIN: 'off',
    AMCTL_BASE_URL: e2e.current.url,
  }
  const token = await e2e.current.token('ada')
  for (const argv of [
    ['auth', 'login', '--with-token'],
    ['config', 'set', 'org', 'acme'],
    ['config', 'set', 'org', 'globex', '--profile', 'other'],
    ['runs', 'list', '--limit', '3'],
    ['evals', 'run', 'es_acme_search'],
  ]) {
    const r = await runBin(argv, {env, input: `${token}\n`})
    expect(r.exitCode, `${argv.join(' ')}: ${r.stderr}`).toBe(0)
  }
}, 60_000)

/** An ID of `ids` and a prefix of it that no other has. */
function uniquePrefix(ids: string[]): [string, string] {
  for (const id of ids) {
    const prefix = id.slice(0, -1)
    if (ids.filter((other) => other.startsWith(prefix)).length === 1) return [id, prefix]
  }
  throw new Error(`no ID of ${ids.join(', ')} has a prefix of its own`)
}

/** The IDs the built CLI kept: those `evals run` launched, then the three newest runs `runs list` showed. */
function seenRuns(): string[] {
  return (JSON.parse(readFileSync(recentPath(env), 'utf8')) as {runs: {id: string}[]}).runs.map((r) => r.id)
}

/**
 * Types `setup` lines, then each of `keys` (a partial command line and Tabs) into one interactive
 * `shell` on a pseudo-terminal, each followed by Ctrl-A, `# ` (or `opts.before`) and Enter (the line
 * is commented out: nothing runs) and a marker; resolves with what the screen showed for each, once the last
 * marker is printed. Everything is typed at once: no character the terminal's line discipline acts
 * on (Ctrl-U, Ctrl-C) is sent before the shell reads it.
 */
function typeInto(
  shell: string[],
  setup: string[],
  keys: string[],
  opts: {env?: Record<string, string>; before?: string} = {},
): Promise<string[]> {
  const quoted = shell.map((word) => `'${word}'`).join(' ')
  const child = spawn('script', ['-qfec', quoted, '/dev/null'], {env: opts.env ?? env, stdio: ['pipe', 'pipe', 'pipe']})
  // (`before`: typed at the start of the completed line, before Enter; by default it comments it out)
  const lines = keys.flatMap((line) => [`${line}\u0001${opts.before ?? '# '}`, 'echo __ST""EP__'])
  let screen = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`not every marker after 25 s; the screen:\n${screen}`))
    }, 25_000)
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString('utf8')
      const parts = screen.split(/^__STEP__\r?$/m)
      if (parts.length > keys.length) {
        clearTimeout(timer)
        child.stdin.end('exit\n')
        resolve(
          parts.slice(0, keys.length).map((part) => part.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[=>]|[\b\r]/g, '').replace(/ +$/gm, '')),
        )
      }
    })
    child.on('error', reject)
    child.stdin.write(`${[...setup, ...lines].join('\n')}\n`)
  })
}

describe('amctl autocomplete script, loaded by bash', () => {
  const bash = (keys: string[], cwd = home) => {
    const script = join(home, 'amctl.bash')
    writeFileSync(script, spawnSync('amctl', ['autocomplete', 'script', 'bash'], {env, encoding: 'utf8'}).stdout)
    const setup = [
      `source ${script}; cd ${cwd}`,
      ...['show-all-if-ambiguous on', 'completion-query-items 0', 'page-completions off', 'print-completions-horizontally on'].map(
        (setting) => `bind 'set ${setting}'`,
      ),
    ]
    return typeInto(['bash', '--norc', '--noprofile', '-i'], setup, keys)
  }

  it.runIf(needs('bash'))('completes run IDs from the cache, newest first, then one to the end', async () => {
    const runs = seenRuns()
    // the three listed and those the launch made
    expect(runs.length).toBeGreaterThan(3)
    const [id, prefix] = uniquePrefix(runs)
    const [all, one] = await bash(['amctl runs watch \t', `amctl runs watch ${prefix}\t`])
    // the listing: lines of IDs alone, across the terminal's width
    const listed = all
      .split('\n')
      .filter((line) => /^(run_\w+ *)+$/.test(line))
      .flatMap((line) => line.split(/ +/))
    expect(listed).toEqual(runs)
    expect(one).toContain(`# amctl runs watch ${id} `)
  })

  it.runIf(needs('bash'))('completes eval set IDs, commands, flags, --status lists, --org= and --profile', async () => {
    const screens = await bash([
      'amctl evals run es_acme_s\t',
      'amctl ru\tli\t',
      'amctl runs list --stat\t',
      'amctl runs list --status failed,can\t',
      'amctl runs list --org=\t',
      'amctl runs list --org=glo\t',
      'amctl runs list --profile ot\t',
    ])
    expect(screens[0]).toContain('# amctl evals run es_acme_search ')
    expect(screens[1]).toContain('# amctl runs list ')
    expect(screens[2]).toContain('# amctl runs list --status ')
    expect(screens[3]).toContain('# amctl runs list --status failed,cancelled ')
    expect(screens[4]).toMatch(/^acme +globex$/m)
    expect(screens[5]).toContain('# amctl runs list --org=globex ')
    expect(screens[6]).toContain('# amctl runs list --profile other ')
  })

  it.runIf(needs('bash'))('--input completes file names', async () => {
    mkdirSync(join(home, 'bodies'), {recursive: true})
    writeFileSync(join(home, 'bodies', 'fork-body.json'), '{}')
    const [screen] = await bash(['amctl runs fork run_1 --input fork-b\t'], join(home, 'bodies'))
    expect(screen).toContain('# amctl runs fork run_1 --input fork-body.json ')
  })
})

describe('amctl autocomplete script, loaded by zsh', () => {
  const zsh = (keys: string[]) => {
    const dir = join(home, 'zfunc')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, '_amctl'), spawnSync('amctl', ['autocomplete', 'script', 'zsh'], {env, encoding: 'utf8'}).stdout)
    const setup = [
      `fpath=(${dir} $fpath); autoload -Uz compinit; compinit -u -D`,
      'LISTMAX=1000; PS1="% "; setopt interactive_comments; unsetopt list_ambiguous',
    ]
    return typeInto(['zsh', '-f', '-i'], setup, keys)
  }

  it.runIf(needs('zsh'))('completes run IDs of the profile’s organization with their status and eval set', async () => {
    const runs = seenRuns()
    const [id, prefix] = uniquePrefix(runs)
    const [all, one, globex] = await zsh([
      'amctl runs watch run_\t',
      `amctl runs watch ${prefix}\t`,
      'amctl runs watch --org globex run_\t',
    ])
    const listed = all.match(/^run_\w+ +-- .*$/gm) ?? []
    expect(listed.map((line) => line.split(' ')[0])).toEqual(runs)
    expect(listed[0]).toMatch(/ -- launched, es_acme_search, seen just now$/)
    expect(listed.at(-1)).toMatch(/ -- (succeeded|failed|running|queued|cancelled), es_acme_\w+, seen just now$/)
    expect(one).toContain(`# amctl runs watch ${id}`)
    // another organization's runs: none seen
    expect(globex).not.toMatch(/^run_/m)
  })

  it.runIf(needs('zsh'))('completes eval set IDs, commands with their summaries, flags, org slugs and config keys', async () => {
    const screens = await zsh([
      'amctl evals run es_acme_s\t',
      'amctl ru\t',
      'amctl runs \t',
      'amctl runs list --stat\t',
      'amctl runs list --org \t',
      'amctl config get \t',
    ])
    expect(screens[0]).toContain('# amctl evals run es_acme_search')
    expect(screens[1]).toContain('# amctl runs')
    expect(screens[2]).toMatch(/^watch +-- Wait until runs finish/m)
    expect(screens[3]).toContain('# amctl runs list --status')
    expect(screens[4]).toMatch(/^acme +-- org of profile "default"\nglobex +-- org of profile "other"$/m)
    expect(screens[5]).toMatch(/^base-url\norg$/m)
  })
})

describe('amctl autocomplete script, loaded by fish', () => {
  it.runIf(needs('fish'))('complete -C offers run IDs with descriptions, and org slugs', () => {
    const script = join(home, 'amctl.fish')
    writeFileSync(script, spawnSync('amctl', ['autocomplete', 'script', 'fish'], {env, encoding: 'utf8'}).stdout)
    const complete = (line: string) =>
      spawnSync('fish', ['--no-config', '-c', `source ${script}; complete -C '${line}'`], {env, encoding: 'utf8'}).stdout
    const runs = seenRuns()
    const lines = complete('amctl runs watch ').trim().split('\n')
    expect(lines.map((l) => l.split('\t')[0]).slice(0, runs.length)).toEqual(runs)
    expect(lines[0]).toMatch(/\tlaunched, es_acme_search, seen just now$/)
    expect(complete('amctl runs list --org ')).toMatch(/^acme\torg of profile "default"\nglobex\torg of profile "other"\n/)
  })
})

// Issue 32 item 1: IDs are the server's choice, kept in the completion cache by `runs list`. Each
// is completed in a real shell, then the completed line is RUN with `printf '<%s>\n'` put before
// it: the shell must hand printf the ID as one literal word, and nothing in it may run (each of
// the commands hidden in them would create a marker file).
describe('IDs a server chose are inserted as literal words and never run', () => {
  const marker = (n: number) => join(home, `ran-${n}`)
  // a unique prefix each (what is typed before Tab), then what a shell would act on
  const hostile = () => [
    `run_q1\`touch\${IFS}${marker(1)}\``,
    `run_q2$(touch\${IFS}${marker(2)})`,
    `run_q3;touch\${IFS}${marker(3)}`,
    `run_q4|touch\${IFS}${marker(4)}`,
    `run_q5&touch\${IFS}${marker(5)}&`,
    `run_q6'x"y\\z`,
    `run_q7 two  words $(touch ${marker(7)})`,
    `~q8*`,
    `run_q9>${marker(9)}`,
  ]
  const hostileEnv = () => {
    const cache = join(home, 'hostile-cache')
    mkdirSync(cache, {recursive: true})
    const at = Date.now()
    writeFileSync(
      join(cache, 'recent.json'),
      JSON.stringify({version: 1, orgs: [], evalSets: [], runs: hostile().map((id) => ({id, org: 'acme', at}))}),
    )
    return {...env, AMCTL_CACHE_DIR: cache}
  }
  const prefixes = () => hostile().map((id) => (id.slice(0, 4).startsWith('~') ? id.slice(0, 3) : id.slice(0, 6)))
  const printed = (screen: string) => (screen.match(/^<.*>$/gm) ?? []).map((line) => line.slice(1, -1))
  const noMarkers = () => {
    for (let n = 1; n <= 9; n++) expect(existsSync(marker(n)), `marker ${n}: something in an ID ran`).toBe(false)
  }

  it('amctl __complete, as scripts of earlier versions ask (they insert unquoted): the plain IDs only; __complete-v2: all', async () => {
    const e = hostileEnv()
    const ids = (r: {stdout: string}) =>
      r.stdout
        .split('\n')
        .filter((line) => line !== '' && line !== ':')
        .map((line) => line.split('\t')[0])
    expect(ids(await runBin(['__complete', 'runs', 'watch', ''], {env: e}))).toEqual([])
    expect(ids(await runBin(['__complete-stdin'], {env: e, input: 'runs\nwatch\n\n'}))).toEqual([])
    expect(ids(await runBin(['__complete-v2', 'runs', 'watch', ''], {env: e}))).toEqual(hostile())
    expect(ids(await runBin(['__complete-v2-stdin'], {env: e, input: 'runs\nwatch\n\n'}))).toEqual(hostile())
  })

  /**
   * Completes each hostile ID in `shell` (its script set up by `setup(env)`, from the prefix that
   * `typed` makes of the ID's own), runs each completed line through printf and checks that
   * printf got the ID as one word and that nothing in any ID ran.
   */
  async function completeAndRun(shell: string[], setup: (e: Record<string, string>) => string[], typed = (prefix: string) => prefix) {
    const e = hostileEnv()
    const keys = prefixes().map((prefix) => `amctl runs watch ${typed(prefix)}\t`)
    const screens = await typeInto(shell, [...setup(e), `cd ${home}`], keys, {env: e, before: "printf '<%s>\\n' "})
    for (const [i, screen] of screens.entries()) expect(printed(screen), screen).toEqual(['amctl', 'runs', 'watch', hostile()[i]])
    noMarkers()
  }
  const script = (shell: string, e: Record<string, string>, file: string) => {
    writeFileSync(file, spawnSync('amctl', ['autocomplete', 'script', shell], {env: e, encoding: 'utf8'}).stdout)
    return file
  }

  it.runIf(needs('bash'))('bash', async () => {
    await completeAndRun(['bash', '--norc', '--noprofile', '-i'], (e) => [`source ${script('bash', e, join(home, 'amctl-hostile.bash'))}`])
  })

  it.runIf(needs('zsh'))('zsh', async () => {
    const dir = join(home, 'zfunc-hostile')
    mkdirSync(dir, {recursive: true})
    await completeAndRun(
      ['zsh', '-f', '-i'],
      (e) => [
        `fpath=(${dirname(script('zsh', e, join(dir, '_amctl')))} $fpath); autoload -Uz compinit; compinit -u -D`,
        'PS1="% "; setopt interactive_comments',
      ],
      // (a word that starts with ~ is a user's or named directory to zsh, which completes those
      // there and never asks amctl: a zsh user types \~)
      (prefix) => prefix.replace(/^~/, '\\~'),
    )
  })

  it.runIf(needs('fish'))('fish', async () => {
    await completeAndRun(['fish', '--no-config', '-i'], (e) => [`source ${script('fish', e, join(home, 'amctl-hostile.fish'))}`])
  })
})

describe('amctl __complete (what the scripts ask)', () => {
  it('dist/complete.cjs, which answers them, holds no network module at all', () => {
    const source = readFileSync(join(ROOT, 'dist', 'complete.cjs'), 'utf8')
    const required = [...source.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])
    expect(new Set(required)).toEqual(new Set(['node:fs', 'node:os', 'node:path']))
  })

  it('answers from local files only: no request reaches the server', async () => {
    await e2e.current.clearRequests()
    const r = await runBin(['__complete', 'runs', 'watch', ''], {env})
    expect(r.exitCode).toBe(0)
    const runs = seenRuns()
    expect(
      r.stdout
        .split('\n')
        .slice(0, runs.length)
        .map((line) => line.split('\t')[0]),
    ).toEqual(runs)
    expect(r.stdout.endsWith('\n:\n')).toBe(true)
    expect(await e2e.current.requests()).toEqual([])
  })

  it('__complete-stdin takes the words one per line, an empty last word included', async () => {
    const r = await runBin(['__complete-stdin'], {env, input: 'runs\r\nlist\r\n--org\r\n\r\n'})
    expect(lines(r.stdout)).toEqual(['acme\torg of profile "default"', 'globex\torg of profile "other"', ':'])
  })

  it('a broken config or cache gives fewer candidates, never an error', async () => {
    const broken = {...env, AMCTL_CONFIG_DIR: join(home, 'nothing-here'), AMCTL_CACHE_DIR: join(home, 'config', 'config.json')}
    const r = await runBin(['__complete', 'runs', 'watch', ''], {env: broken})
    expect(r).toMatchObject({exitCode: 0, stdout: ':\n', stderr: ''})
  })
})
