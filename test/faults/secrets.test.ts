import {chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {
  EVAL_SETS,
  EXPERIMENTS,
  MCP_SERVERS,
  OPTIMIZATIONS,
  PERSONAS,
  REPOSITORIES,
  TAGS,
  USERS,
  VARIANTS,
  VISIBILITY_PROMPTS,
} from '../../src/devserver/seed.js'
import {useE2E} from '../e2e/helpers.js'
import {type BinResult, freshConfigDir, runBin} from '../helpers/bin.js'
import {sendJson, startServer} from '../helpers/http-server.js'
import {figures} from './figures.js'
import {expectOneErrorLine, lines, STACK_FRAME} from './helpers.js'

// The token never leaks (cli-contract.md 1.3, 1.6): not in any output but `auth token` and the
// new token of `tokens create`, not to another origin after a redirect; the file fallback is
// private; concurrent logins never corrupt or lose the config and credentials files.

const e2e = useE2E()
const fig = figures('secrets')

/** How many times `needle` occurs in `text`. */
const count = (text: string, needle: string): number => text.split(needle).length - 1

/** Every output checked for a token, and how often a token showed where it must not. */
const tally = {commandRuns: 0, leaks: 0, verboseLines: 0}
function checked(r: BinResult, ...secrets: string[]): BinResult {
  tally.commandRuns += 1
  for (const secret of secrets) tally.leaks += count(r.stdout + r.stderr, secret)
  tally.verboseLines += lines(r.stderr).filter((line) => line.startsWith('→ ')).length
  fig.set('verbose', {...tally})
  return r
}

/** A token minted for this test alone. */
async function freshToken(who: keyof typeof USERS = 'ada'): Promise<string> {
  return ((await e2e.current.hook('POST', '/_dev/tokens', {email: USERS[who].email})) as {token: string}).token
}

describe('the token appears in no output, with --verbose, but where the contract prints it', () => {
  const ORG = ['--org', 'acme']
  const doc = join(freshConfigDir(), 'doc.json')
  writeFileSync(doc, '{"title":"How we build","sections":[]}\n')
  // every API command, with arguments that reach the server (most succeed; some answer an error)
  const COMMANDS: string[][] = [
    ['auth', 'status'],
    ['orgs', 'summary', ...ORG],
    ['orgs', 'implementation-doc', 'set', '--input', doc, ...ORG],
    ['connections', 'list', ...ORG],
    ['runs', 'list', '--limit', '5', ...ORG],
    ['runs', 'list', '--all', '--limit', '100', ...ORG],
    ['runs', 'fork', 'run_acme_0001', '-F', 'note=leak-check'],
    ['evals', 'update', EVAL_SETS.acmeSearch, '--samples', '4', '--cadence', 'weekly', ...ORG],
    ['evals', 'run', EVAL_SETS.acmeSearch, ...ORG],
    [
      'scenarios',
      'create',
      '--prompt',
      VISIBILITY_PROMPTS.acmePreference,
      '--repository',
      REPOSITORIES.acme[0],
      '--persona',
      PERSONAS.acme[0].name,
      ...ORG,
    ],
    ['experiments', 'launch', EXPERIMENTS.acmeOnboarding, ...ORG],
    ['experiments', 'variant-content', EXPERIMENTS.acmeOnboarding, VARIANTS.acmeOnboardingControl, ...ORG],
    ['optimizations', 'preview', OPTIMIZATIONS.acmeCheckout, ...ORG],
    ['optimizations', 'propose', OPTIMIZATIONS.acmeCheckout, ...ORG],
    ['optimizations', 'chat', OPTIMIZATIONS.acmeCheckout, '--message', 'hello', ...ORG],
    ['optimizations', 'propose', OPTIMIZATIONS.globexDocs, '--org', 'globex'], // 403
    ['mcp-servers', 'delete', MCP_SERVERS.acmeFilesystem.id, '--yes', ...ORG],
    ['tags', 'delete', TAGS.acmeNightly, '--yes', ...ORG],
    ['tags', 'delete', 'tag_missing', '--yes', ...ORG], // 404
    ['api', '/me'],
    ['api', '/orgs/{org}/runs', '--paginate', ...ORG],
    ['api', '-X', 'PATCH', `/orgs/{org}/eval-sets/${EVAL_SETS.acmeSearch}`, '-F', 'samplesPerTarget=5', ...ORG],
    ['runs', 'list'], // several orgs: exit 2 after GET /me
  ]

  it.each(COMMANDS.map((argv) => ({cmd: argv.join(' '), argv})))('amctl $cmd --verbose (and --json): no token', async ({argv}) => {
    const token = await freshToken()
    for (const json of [false, true]) {
      const r = checked(await e2e.current.amctl([...argv, '--verbose', ...(json ? ['--json'] : [])], {env: {AMCTL_TOKEN: token}}), token)
      expect(r.signal).toBeNull()
      expect(r.stderr).not.toMatch(STACK_FRAME)
      expect(r.stderr).toContain('authorization: Bearer [redacted]')
      expect(count(r.stdout, token), r.stdout).toBe(0)
      expect(count(r.stderr, token), r.stderr).toBe(0)
      // the secret part of a token never shows, however it is cut
      expect(r.stdout + r.stderr).not.toContain(token.slice(4, 16))
    }
  })

  it('on failure paths too: a rejected token, retries, and AMCTL_DEBUG=1 stack traces', async () => {
    const token = await freshToken()
    const unknown = `${token.slice(0, -6)}XXXXXX`
    await e2e.current.fault({match: {path: '/summary$'}, count: 2, actions: [{type: 'status', status: 503}]})
    // the first takes both faults (two 503s, then the answer); the others, side by side, get none
    const runs: BinResult[] = [
      await e2e.current.amctl(['orgs', 'summary', ...ORG, '--verbose'], {env: {AMCTL_TOKEN: token}}),
      ...(await Promise.all([
        e2e.current.amctl(['orgs', 'summary', ...ORG, '--verbose'], {env: {AMCTL_TOKEN: unknown}}),
        e2e.current.amctl(['orgs', 'summary', ...ORG], {env: {AMCTL_TOKEN: unknown, AMCTL_DEBUG: '1'}}),
        e2e.current.amctl(['evals', 'run', 'es_missing', ...ORG], {env: {AMCTL_TOKEN: token, AMCTL_DEBUG: '1'}}),
        e2e.current.amctl(['orgs', 'summary', ...ORG, '--timeout', '0.5'], {
          env: {AMCTL_TOKEN: token, AMCTL_DEBUG: '1', AMCTL_BASE_URL: 'http://127.0.0.1:9'},
        }),
      ])),
    ]
    await e2e.current.clearFaults()
    for (const r of runs) checked(r, token, unknown)
    expect(runs.map((r) => r.exitCode)).toEqual([0, 3, 3, 5, 1])
    expect(runs[0].stderr).toMatch(/retry 2 of 3/)
    expect(runs[2].stderr).toMatch(STACK_FRAME) // AMCTL_DEBUG=1 shows the trace …
    for (const r of runs) {
      expect(count(r.stdout + r.stderr, token)).toBe(0) // … but never the token
      expect(count(r.stdout + r.stderr, unknown)).toBe(0)
    }
  })

  it('a base URL holding user:password@ is refused (exit 2) without the password anywhere, --verbose and AMCTL_DEBUG=1 included', async () => {
    const base = 'https://ada:s3cr3t-pw@api.example.com'
    const runs = await Promise.all([
      e2e.current.amctl(['orgs', 'summary', '--org', 'acme', '--base-url', base, '--verbose']),
      e2e.current.amctl(['orgs', 'summary', '--org', 'acme', '--base-url', base, '--json']),
      e2e.current.amctl(['runs', 'list', '--org', 'acme'], {env: {AMCTL_BASE_URL: base, AMCTL_DEBUG: '1'}}),
      e2e.current.amctl(['config', 'set', 'base-url', base]),
      e2e.current.amctl(['auth', 'login', '--with-token', '--base-url', base], {as: null, input: 'svc_abcdefgh\n'}),
    ])
    for (const r of runs) {
      expect(r.exitCode, r.stderr).toBe(2)
      expect(r.stdout + r.stderr).not.toContain('s3cr3t')
      expect(r.stdout + r.stderr).toContain('must not carry a user name or password')
    }
  })

  it('auth token prints the token, and nothing else does, through a stored login', async () => {
    const token = await freshToken()
    const configDir = freshConfigDir()
    const opts = {configDir, as: null} as const
    const login = await e2e.current.amctl(['auth', 'login', '--with-token', '--verbose'], {...opts, input: `${token}\n`})
    const status = await e2e.current.amctl(['auth', 'status', '--verbose', '--json'], opts)
    const shown = await e2e.current.amctl(['auth', 'token'], opts)
    const shownJson = await e2e.current.amctl(['auth', 'token', '--json'], opts)
    const list = await e2e.current.amctl(['config', 'list', '--json'], {...opts, env: {AMCTL_DEBUG: '1'}})
    const logout = await e2e.current.amctl(['auth', 'logout'], opts)
    for (const r of [login, status, list, logout]) checked(r, token)
    expect([login, status, shown, shownJson, list, logout].map((r) => r.exitCode)).toEqual([0, 0, 0, 0, 0, 0])
    for (const r of [login, status, list, logout]) expect(count(r.stdout + r.stderr, token)).toBe(0)
    expect(JSON.parse(status.stdout).token).toBe(`svc_…${token.slice(-4)}`)
    expect(shown.stdout).toBe(`${token}\n`)
    expect(shown.stderr).toBe('')
    expect(JSON.parse(shownJson.stdout)).toMatchObject({token})
  })

  it('tokens create prints the new token once, and never the token it authenticated with', async () => {
    const token = await freshToken()
    for (const json of [false, true]) {
      const r = await e2e.current.amctl(
        ['tokens', 'create', '--name', 'leak-check', '--expires', '1d', '--verbose', ...(json ? ['--json'] : [])],
        {env: {AMCTL_TOKEN: token}},
      )
      checked(r, token)
      expect(r.exitCode, r.stderr).toBe(0)
      const created = json
        ? (JSON.parse(r.stdout).token as string)
        : lines(r.stdout)
            .find((line) => line.startsWith('token\t'))!
            .split('\t')[1]
      expect(created).toMatch(/^svc_/)
      expect(created).not.toBe(token)
      expect(count(r.stdout, created)).toBe(1)
      expect(count(r.stderr, created)).toBe(0)
      expect(count(r.stdout + r.stderr, token)).toBe(0)
      expect(r.stderr).toContain('store it now: it cannot be shown again')
    }
  })
})

describe('the credentials file fallback is private', () => {
  const mode = (path: string) => statSync(path).mode & 0o777

  it('login --with-token creates the directory 0700 and credentials.json 0600', async () => {
    const token = await freshToken()
    const configDir = join(freshConfigDir(), 'nested', 'amctl')
    const r = await e2e.current.amctl(['auth', 'login', '--with-token'], {configDir, as: null, input: token})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/keychain is not available .* stored in .*credentials\.json \(mode 0600\)/)
    const modes = {
      dir: mode(configDir),
      credentials: mode(join(configDir, 'credentials.json')),
      config: mode(join(configDir, 'config.json')),
    }
    fig.set('fileModes', {dir: modes.dir.toString(8), credentials: modes.credentials.toString(8), config: modes.config.toString(8)})
    expect(modes).toEqual({dir: 0o700, credentials: 0o600, config: 0o600})
    expect(readdirSync(configDir).sort()).toEqual(['config.json', 'credentials.json'])
  })

  it('a config directory that exists keeps its mode (never chmod-ed); one others can write draws a warning', async () => {
    const token = await freshToken()
    for (const [name, dirMode, warnings] of [
      ['plain', 0o755, 0],
      ['open', 0o777, 1],
    ] as const) {
      const configDir = join(freshConfigDir(), name)
      mkdirSync(configDir, {mode: dirMode})
      chmodSync(configDir, dirMode)
      const r = await e2e.current.amctl(['auth', 'login', '--with-token', '--insecure-storage'], {configDir, as: null, input: token})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(mode(configDir)).toBe(dirMode)
      expect(mode(join(configDir, 'credentials.json'))).toBe(0o600)
      expect(r.stderr.split('\n').filter((line) => line.startsWith(`warning: the config directory ${configDir}`))).toHaveLength(warnings)
    }
  })
})

describe('the token is not sent after a redirect to another origin', () => {
  const TOKEN = 'svc_redirect_check_0001'

  async function pair(status: number, host = '127.0.0.1') {
    const other = await startServer((_req, res) => sendJson(res, 200, {ok: true, items: []}))
    const api = await startServer((req, res) => {
      const target = `${other.url.replace('127.0.0.1', host)}${req.path}`
      res.writeHead(status, {location: target, 'content-type': 'text/plain'})
      res.end(`moved to ${target}`)
    })
    return {api, other, close: () => Promise.all([api.close(), other.close()])}
  }

  it.each([
    [302, 'GET', ['orgs', 'summary', '--org', 'acme']],
    [307, 'GET', ['runs', 'list', '--org', 'acme', '--all']],
    [301, 'GET', ['api', '/me']],
    [307, 'POST', ['evals', 'run', 'es_1', '--org', 'acme']],
    [308, 'POST', ['tokens', 'create', '--name', 'x', '--expires', '1d']],
    [307, 'PATCH', ['evals', 'update', 'es_1', '--samples', '3', '--org', 'acme']],
  ] as Array<[number, string, string[]]>)('%i on %s: refused, the other origin receives nothing', async (status, _method, argv) => {
    const {api, other, close} = await pair(status)
    try {
      const r = await runBin(argv, {env: {AMCTL_BASE_URL: api.url, AMCTL_TOKEN: TOKEN}})
      fig.add('redirectsRefused')
      fig.add('requestsAtOtherOrigin', other.requests.length)
      expect(api.requests).toHaveLength(1)
      expect(api.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`)
      expect(other.requests).toEqual([])
      expect(expectOneErrorLine(r, 1)).toMatch(
        /redirected to http:\/\/127\.0\.0\.1:\d+, another origin; amctl does not follow it with your token \(bad_response, HTTP 30\d\)$/,
      )
    } finally {
      await close()
    }
  })

  it('the same port under another host name (localhost) is another origin too', async () => {
    const {api, other, close} = await pair(307, 'localhost')
    try {
      const r = await runBin(['orgs', 'summary', '--org', 'acme'], {env: {AMCTL_BASE_URL: api.url, AMCTL_TOKEN: TOKEN}})
      expect(other.requests).toEqual([])
      expect(expectOneErrorLine(r, 1)).toContain('another origin')
    } finally {
      await close()
    }
  })

  it('control: a redirect within the origin is followed, with the token', async () => {
    const api = await startServer((req, res) => {
      if (req.path.startsWith('/api/v1/old')) {
        res.writeHead(307, {location: req.path.replace('/old', '')})
        res.end()
        return
      }
      sendJson(res, 200, {org: {slug: 'acme'}, moved: true})
    })
    try {
      const r = await runBin(['api', '/old/orgs/acme/summary', '--json'], {env: {AMCTL_BASE_URL: api.url, AMCTL_TOKEN: TOKEN}})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({moved: true})
      expect(api.requests.map((q) => [q.path, q.headers.authorization])).toEqual([
        ['/api/v1/old/orgs/acme/summary', `Bearer ${TOKEN}`],
        ['/api/v1/orgs/acme/summary', `Bearer ${TOKEN}`],
      ])
    } finally {
      await api.close()
    }
  })
})

describe('concurrent auth login --with-token never corrupts or loses the config and credentials', () => {
  interface Round {
    profiles: string[]
    tokens: string[]
  }
  const logins = {rounds: 0, processes: 0, failedLogins: 0, unreadableFiles: 0, lostProfiles: 0, lostCredentials: 0, leftoverFiles: 0}

  async function round({profiles, tokens}: Round): Promise<void> {
    const configDir = freshConfigDir()
    const results = await Promise.all(
      profiles.map((profile, i) =>
        e2e.current.amctl(['auth', 'login', '--with-token', '--profile', profile], {configDir, as: null, input: `${tokens[i]}\n`}),
      ),
    )
    const read = (name: string): any => {
      try {
        return JSON.parse(readFileSync(join(configDir, name), 'utf8'))
      } catch {
        logins.unreadableFiles += 1
        return undefined
      }
    }
    const config = read('config.json')
    const credentials = read('credentials.json')
    const wanted = [...new Set(profiles)]
    const origin = new URL(e2e.current.url).origin
    const lostProfiles = wanted.filter((p) => config?.profiles?.[p]?.['base-url'] !== e2e.current.url)
    const lostCredentials = wanted.filter((p) => {
      const stored = credentials?.tokens?.[`${p}@${origin}`]?.token
      return !tokens.filter((_, i) => profiles[i] === p).includes(stored)
    })
    const leftovers = readdirSync(configDir).filter((name) => !['config.json', 'credentials.json'].includes(name))
    logins.rounds += 1
    logins.processes += profiles.length
    logins.failedLogins += results.filter((r) => r.exitCode !== 0).length
    logins.lostProfiles += lostProfiles.length
    logins.lostCredentials += lostCredentials.length
    logins.leftoverFiles += leftovers.length
    fig.set('concurrentLogins', {...logins})

    for (const r of results) expect(r.exitCode, r.stderr).toBe(0)
    expect(config).toBeDefined()
    expect(credentials).toBeDefined()
    expect(lostProfiles).toEqual([])
    expect(lostCredentials).toEqual([])
    expect(leftovers).toEqual([]) // no .lock or .tmp file left behind
    expect(existsSync(join(configDir, 'credentials.json.lock'))).toBe(false)
  }

  it('two processes, two profiles (5 rounds)', async () => {
    const [a, b] = [await freshToken('ada'), await freshToken('grace')]
    for (let i = 0; i < 5; i++) await round({profiles: ['ci', 'dev'], tokens: [a, b]})
  }, 120_000)

  it('two processes, the same profile (5 rounds): one of the two tokens, intact', async () => {
    const [a, b] = [await freshToken('ada'), await freshToken('grace')]
    for (let i = 0; i < 5; i++) await round({profiles: ['shared', 'shared'], tokens: [a, b]})
  }, 120_000)

  it('a login waits for the config lock another process holds, then keeps both profiles', async () => {
    const token = await freshToken('ada')
    const configDir = freshConfigDir()
    const first = await e2e.current.amctl(['auth', 'login', '--with-token', '--profile', 'first'], {configDir, as: null, input: token})
    expect(first.exitCode, first.stderr).toBe(0)
    const configFile = join(configDir, 'config.json')
    const before = readFileSync(configFile, 'utf8')
    // another process is in the middle of writing config.json
    writeFileSync(`${configFile}.lock`, '')
    const second = e2e.current.amctl(['auth', 'login', '--with-token', '--profile', 'second'], {configDir, as: null, input: token})
    // its token is stored (credentials.json has its own lock) …
    const credentials = join(configDir, 'credentials.json')
    // (waited for as long as it takes: the test's time limit ends a login that never stores it)
    while (!readFileSync(credentials, 'utf8').includes('second@')) await new Promise((resolve) => setTimeout(resolve, 50))
    // … but config.json is left alone while the lock is held
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(readFileSync(configFile, 'utf8')).toBe(before)
    rmSync(`${configFile}.lock`)
    const r = await second
    expect(r.exitCode, r.stderr).toBe(0)
    expect(Object.keys(JSON.parse(readFileSync(configFile, 'utf8')).profiles).sort()).toEqual(['first', 'second'])
  }, 60_000)

  it('eight processes, eight profiles (4 rounds)', async () => {
    const token = await freshToken('ada')
    const profiles = Array.from({length: 8}, (_, i) => `p${i + 1}`)
    for (let i = 0; i < 4; i++) await round({profiles, tokens: profiles.map(() => token)})
  }, 180_000)
})
