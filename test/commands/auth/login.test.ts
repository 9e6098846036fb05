import {existsSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {beforeEach, describe, expect, it} from 'vitest'
import AuthLogin from '../../../src/commands/auth/login.js'
import AuthToken from '../../../src/commands/auth/token.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, ME, type Recorded, reply, unchecked, useFakeApi} from '../../helpers/fake-api.js'
import {tempDir} from '../../helpers/temp.js'
import {lines} from '../../helpers/output.js'

const GOOD = 'svc_login_good_token_5678'
const GRANTED = 'svc_device_granted_token_4242'
const DEVICE_CODE = 'dc_very_secret_device_code'

// GET /me answers only for a token the server knows
const api = useFakeApi({
  'GET /me': (req: Recorded) =>
    req.headers.authorization === `Bearer ${GOOD}` || req.headers.authorization === `Bearer ${GRANTED}`
      ? reply(200, ME)
      : envelope(401, 'unauthorized', 'invalid token'),
})
let dir: string

beforeEach(() => {
  dir = join(tempDir('amctl-login-'), 'cfg')
})

/** Env for a login against the fake server: no AMCTL_TOKEN, a fresh config dir, not in CI (whatever runs the tests). */
const env = (extra: Record<string, string | undefined> = {}) => ({AMCTL_CONFIG_DIR: dir, AMCTL_BASE_URL: api.url, CI: undefined, ...extra})
const credentials = () => JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8')) as {tokens: Record<string, {token: string}>}
const account = (profile = 'default') => `${profile}@${api.url}`

describe('auth login --with-token', () => {
  it.each(['not-a-token', 'svc_', 'svc_has space', 'Bearer svc_abc', ''])('refuses %j from stdin: exit 2, no request', async (bad) => {
    const r = await runCommand(AuthLogin, ['--with-token'], {env: env(), stdin: `${bad}\n`})
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: the token read from stdin is not a valid token: .* \(invalid_request\)\n$/)
    expect(api.requests()).toHaveLength(0)
    expect(existsSync(join(dir, 'credentials.json'))).toBe(false)
  })

  it('verifies a good token with GET /me, stores it in the credentials file (0600, 0700 dir) and says so once', async () => {
    const r = await runCommand(AuthLogin, ['--with-token'], {env: env(), stdin: `${GOOD}\n`})
    expect(r.exitCode).toBe(0)
    expect(api.requests().map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v1/me'])
    expect(api.requests()[0].headers.authorization).toBe(`Bearer ${GOOD}`)

    expect(credentials().tokens[account()].token).toBe(GOOD)
    expect(statSync(join(dir, 'credentials.json')).mode & 0o777).toBe(0o600)
    expect(statSync(dir).mode & 0o777).toBe(0o700)

    // stdout carries data only; the notices go to stderr
    expect(r.stdout).toBe('')
    const notices = r.stderr.split('\n').filter((l) => l.includes('keychain'))
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(/^warning: the OS keychain is not available .*credentials\.json \(mode 0600\)$/)
    expect(r.stderr).toContain(`Logged in to ${api.url} as ada@acme.test (acme)\n`)
    expect(r.stdout + r.stderr).not.toContain(GOOD)
  })

  it('--json prints one document without the token', async () => {
    const r = await runCommand(AuthLogin, ['--with-token', '--json'], {env: env(), stdin: GOOD})
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({user: ME, tokenSource: 'file', baseUrl: api.url, profile: 'default'})
    expect(r.stdout + r.stderr).not.toContain(GOOD)
  })

  it('--insecure-storage stores in the file on purpose, without the keychain notice', async () => {
    const r = await runCommand(AuthLogin, ['--with-token', '--insecure-storage'], {env: env(), stdin: GOOD})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).not.toContain('keychain')
    expect(credentials().tokens[account()].token).toBe(GOOD)
  })

  it('a token the server rejects is exit 3 and is not stored', async () => {
    const r = await runCommand(AuthLogin, ['--with-token'], {env: env(), stdin: 'svc_revoked_token_0000'})
    expect(r.exitCode).toBe(3)
    const [error, hint, ...rest] = lines(r.stderr)
    expect(error).toBe('error: invalid token (unauthorized, HTTP 401)')
    expect(hint).toBe('hint: run `amctl auth login`')
    expect(rest).toEqual([])
    expect(existsSync(join(dir, 'credentials.json'))).toBe(false)
  })

  it('saves a --base-url in the profile, so later commands find the server and the token', async () => {
    const r = await runCommand(AuthLogin, ['--with-token', '--base-url', `${api.url}/`, '--profile', 'local'], {
      env: env({AMCTL_BASE_URL: undefined}),
      stdin: GOOD,
    })
    expect(r.exitCode).toBe(0)
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))
    expect(config.profiles.local['base-url']).toBe(api.url)
    expect(credentials().tokens[account('local')].token).toBe(GOOD)

    const token = await runCommand(AuthToken, ['--profile', 'local'], {env: env({AMCTL_BASE_URL: undefined})})
    expect(token).toMatchObject({exitCode: 0, stdout: `${GOOD}\n`})
  })

  it('refuses an http base URL that is not loopback before reading anything', async () => {
    const r = await runCommand(AuthLogin, ['--with-token', '--base-url', 'http://api.example.com'], {env: env(), stdin: GOOD})
    expect(r.exitCode).toBe(2)
    expect(api.requests()).toHaveLength(0)
  })
})

describe('auth login without a terminal', () => {
  it.each([
    ['stdin is not a terminal', {stdinTTY: false, env: {CI: undefined}}, 'stdin is not a terminal'],
    ['CI is set', {stdinTTY: true, tty: true, env: {CI: 'true'}}, 'CI is set'],
    ['CI=1, everything piped', {stdinTTY: false, env: {CI: '1'}}, 'CI is set'],
  ] as const)('%s: exit 2 at once, no request, pointing to --with-token and AMCTL_TOKEN', async (_what, opts, why) => {
    const r = await runCommand(AuthLogin, ['--no-browser'], {...opts, env: env(opts.env)})
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      `error: cannot log in here: ${why}, so no one can approve a device login (invalid_request)\n` +
        'hint: pipe a token to `amctl auth login --with-token`, or set AMCTL_TOKEN\n',
    )
    expect(api.requests()).toEqual([])
  })

  it('--json: the error document alone; --profile is kept in the hint', async () => {
    const r = await runCommand(AuthLogin, ['--json', '--profile', 'ci'], {env: env({CI: 'true'})})
    expect(r.exitCode).toBe(2)
    expect(JSON.parse(r.stdout)).toEqual({
      error: {code: 'invalid_request', message: 'cannot log in here: CI is set, so no one can approve a device login'},
    })
    const human = await runCommand(AuthLogin, ['--profile', 'ci'], {env: env({CI: 'true'})})
    expect(human.stderr).toContain('hint: pipe a token to `amctl auth login --with-token --profile ci`, or set AMCTL_TOKEN\n')
    expect(api.requests()).toEqual([])
  })

  it('CI=false or an empty CI is no CI', async () => {
    api.stub('POST /cli/token', {token: GRANTED})
    for (const CI of ['false', '0', '']) {
      const r = await runCommand(AuthLogin, [], {stdinTTY: true, env: env({CI})})
      expect(r.exitCode, r.stderr).toBe(0)
    }
  })
})

describe('auth login (device flow)', () => {
  it('takes a token answered at once: POST /cli/token {} without Authorization, then GET /me', async () => {
    api.stub('POST /cli/token', {token: GRANTED})
    const r = await runCommand(AuthLogin, [], {stdinTTY: true, env: env({AMCTL_TOKEN: undefined})})
    expect(r.exitCode).toBe(0)
    const [start, me] = api.requests()
    expect(`${start.method} ${start.path}`).toBe('POST /api/v1/cli/token')
    expect(start.body).toBe('{}')
    expect(start.headers.authorization).toBeUndefined()
    expect(`${me.method} ${me.path}`).toBe('GET /api/v1/me')
    expect(me.headers.authorization).toBe(`Bearer ${GRANTED}`)
    expect(credentials().tokens[account()].token).toBe(GRANTED)
  })

  it('shows the code and URL on stderr, polls with the device code, and never prints the token or the code in the log', async () => {
    let polls = 0
    api.stub('POST /cli/token', (req: Recorded) => {
      if (!req.path.includes('deviceCode=')) {
        return reply(200, {
          deviceCode: DEVICE_CODE,
          userCode: 'WXYZ-1234',
          verificationUri: 'https://app.example/device',
          interval: 0.01,
          expiresIn: 60,
        })
      }
      polls++
      return reply(200, polls < 2 ? {status: 'pending'} : {token: GRANTED})
    })
    const r = await runCommand(AuthLogin, ['--verbose', '--no-browser'], {stdinTTY: true, env: env()})
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('WXYZ-1234')
    expect(r.stderr).toContain('https://app.example/device')
    expect(r.stderr).toContain('deviceCode=[redacted]')
    expect(r.stderr).not.toContain(DEVICE_CODE)
    expect(r.stderr).not.toContain(GRANTED)
    const paths = api.requests().map((q) => `${q.method} ${q.path}`)
    expect(paths).toEqual([
      'POST /api/v1/cli/token',
      `POST /api/v1/cli/token?deviceCode=${DEVICE_CODE}`,
      `POST /api/v1/cli/token?deviceCode=${DEVICE_CODE}`,
      'GET /api/v1/me',
    ])
    for (const q of api.requests().slice(0, 3)) {
      expect(q.body).toBe('{}')
      expect(q.headers.authorization).toBeUndefined()
    }
    expect(credentials().tokens[account()].token).toBe(GRANTED)
  })

  it('a denied login is exit 3 and stores nothing', async () => {
    api.stub('POST /cli/token', (req: Recorded) =>
      reply(
        200,
        req.path.includes('deviceCode=')
          ? {status: 'denied'}
          : {deviceCode: 'd', userCode: 'U', verificationUri: 'https://x.example', interval: 0.01},
      ),
    )
    const r = await runCommand(AuthLogin, ['--json'], {stdinTTY: true, env: env()})
    expect(r.exitCode).toBe(3)
    expect(JSON.parse(r.stdout)).toMatchObject({error: {code: 'unauthorized'}})
    expect(existsSync(join(dir, 'credentials.json'))).toBe(false)
  })

  it('an answer that is neither a token nor a device code is exit 1 naming its members', async () => {
    api.stub('POST /cli/token', unchecked('neither a token nor a device code: amctl must refuse it', 200, {hello: 'world'}))
    const r = await runCommand(AuthLogin, [], {stdinTTY: true, env: env()})
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toMatch(/^error: .*"hello".* \(bad_response\)\n$/)
  })
})

describe('auth login: typed result and renderer', () => {
  it('returns the user and where the token went; the renderer gets the logged-in notice', async () => {
    const r = await runCommand(AuthLogin, ['--with-token', '--insecure-storage'], {env: env(), stdin: `${GOOD}\n`})
    expect(r.result).toEqual({user: ME, tokenSource: 'file', baseUrl: api.url, profile: 'default'})
    expect(r.rendered).toEqual([{method: 'notice', text: `Logged in to ${api.url} as ada@acme.test (acme)`}])
  })
})
