import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {freshConfigDir} from '../../helpers/bin.js'
import {useE2E} from '../helpers.js'
import {API, expectError, expectJsonError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll, sorted} from './util.js'

// auth login (device flow against the dev server, and --with-token), status, token, logout;
// tokens create; how a missing, malformed or rejected token fails.

const e2e = useE2E({deviceInterval: 0.05})

describe('amctl auth login (device flow) / status / token / logout', () => {
  it('login: cli/token without Authorization, polled, verified with /me; the file store; nothing on stdout', async () => {
    const configDir = freshConfigDir()
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['auth', 'login'], {as: null, configDir, stdinTerminal: true}))
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toBe('')
    const err = lines(r.stderr)
    expect(err[0]).toMatch(/^First copy your one-time code: [A-Z]{4}-[A-Z]{4}$/)
    expect(err[1]).toBe(`Then approve the login at ${e2e.current.url}/device`)
    expect(err.at(-1)).toBe(`Logged in to ${e2e.current.url} as ada@example.com (acme, globex)`)

    const log = await e2e.current.requests()
    expect(log[0]).toMatchObject({method: 'POST', path: `${API}/cli/token`, authorization: 'absent', status: 200})
    const polls = log.slice(1, -1)
    expect(polls.length).toBeGreaterThanOrEqual(1)
    for (const poll of polls)
      expect(poll).toMatchObject({
        method: 'POST',
        authorization: 'absent',
        path: expect.stringMatching(/^\/api\/v1\/cli\/token\?deviceCode=[\w-]+$/),
      })
    expect(log.at(-1)).toMatchObject({method: 'GET', path: `${API}/me`, authorization: 'present'})
    expect(reqs).toHaveLength(log.length)

    const file = join(configDir, 'credentials.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const token = readFileSync(file, 'utf8').match(/svc_[\w-]+/)?.[0]
    expect(token).toBeDefined()

    // status (human and --json) and token at once; the base URL is remembered from login
    const [[status, statusJson, printed], reqs2] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['auth', 'status'], {as: null, configDir, env: {AMCTL_BASE_URL: undefined}}),
      () => e2e.current.amctl(['auth', 'status', '--json'], {as: null, configDir}),
      () => e2e.current.amctl(['auth', 'token'], {as: null, configDir}),
    ])
    expect(reqs2).toEqual([`GET ${API}/me`, `GET ${API}/me`]) // auth token sends nothing
    expectOk(status)
    expect(lines(status.stdout)).toEqual([
      'user\tAda Lovelace <ada@example.com>',
      `base URL\t${e2e.current.url}`,
      'profile\tdefault',
      'org\tnone chosen (member of acme, globex; pass --org)',
      `token\tsvc_…${token!.slice(-4)}`,
      'token storage\tfile',
    ])
    expect(status.stdout).not.toContain(token!)
    expectOk(statusJson)
    expect(jsonDoc(statusJson)).toMatchObject({
      user: {id: 'usr_ada', email: 'ada@example.com', orgs: [{slug: 'acme'}, {slug: 'globex'}]},
      tokenSource: 'file',
      baseUrl: e2e.current.url,
    })
    // auth token: printed (the one place besides tokens create)
    expectOk(printed)
    expect(printed.stdout).toBe(`${token}\n`)

    // logout: removed, nothing sent; then status exits 3 with the hint, and token too
    const [logout, logoutReqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['auth', 'logout'], {as: null, configDir}))
    expectOk(logout, `Logged out of ${e2e.current.url} (removed from file)\n`)
    expect(logout.stdout).toBe('')
    expect(logoutReqs).toEqual([])
    const [[after, tokenAfter, again], reqs3] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['auth', 'status'], {as: null, configDir}),
      () => e2e.current.amctl(['auth', 'token'], {as: null, configDir}),
      () => e2e.current.amctl(['auth', 'logout', '--json'], {as: null, configDir}),
    ])
    expect(reqs3).toEqual([])
    expect(expectError(after, 3, 'unauthorized')).toBe(`not logged in to ${e2e.current.url}`)
    expect(lines(after.stderr)[1]).toBe('hint: run `amctl auth login`')
    expectError(tokenAfter, 3, 'unauthorized')
    expectOk(again, `No stored token for ${e2e.current.url}\n`)
    expect(jsonDoc(again)).toEqual({baseUrl: e2e.current.url, profile: 'default', removed: []})
  })

  it('login without a terminal (CI=true, or stdin a pipe) exits 2 at once: no request, the way out in the hint', async () => {
    await e2e.current.clearRequests()
    const ci = await e2e.current.amctl(['auth', 'login'], {as: null, env: {CI: 'true'}, stdinTerminal: true})
    const piped = await e2e.current.amctl(['auth', 'login', '--profile', 'ci'], {as: null})
    for (const [r, why, flags] of [
      [ci, 'CI is set', ''],
      [piped, 'stdin is not a terminal', ' --profile ci'],
    ] as const) {
      expect(r.exitCode).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe(
        `error: cannot log in here: ${why}, so no one can approve a device login (invalid_request)\n` +
          `hint: pipe a token to \`amctl auth login --with-token${flags}\`, or set AMCTL_TOKEN\n`,
      )
    }
    expect(await e2e.current.requests()).toEqual([])
  })

  it('login --with-token --json: reads stdin, verifies with /me, stores it; auth token --json', async () => {
    const configDir = freshConfigDir()
    const token = await e2e.current.token('grace')
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['auth', 'login', '--with-token', '--insecure-storage', '--json'], {as: null, configDir, input: `${token}\n`}),
    )
    expect(r.exitCode, r.stderr).toBe(0)
    expect(reqs).toEqual([`GET ${API}/me`])
    expect(jsonDoc(r)).toMatchObject({user: {email: 'grace@example.com'}, tokenSource: 'file', baseUrl: e2e.current.url})
    expect(r.stderr).toContain(`Logged in to ${e2e.current.url} as grace@example.com (globex)`)
    expect(r.stdout).not.toContain(token)

    const printed = await e2e.current.amctl(['auth', 'token', '--json'], {as: null, configDir})
    expectOk(printed)
    expect(jsonDoc(printed)).toEqual({token, source: 'file'})
  })

  it('login --with-token refuses a token of the wrong form before any request (exit 2)', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['auth', 'login', '--with-token'], {as: null, input: 'ghp_notours\n'}),
    )
    expect(expectError(r, 2, 'invalid_request')).toMatch(/^the token read from stdin is not a valid token/)
    expect(reqs).toEqual([])
  })
})

describe('amctl tokens create, and AMCTL_TOKEN', () => {
  it('tokens create: POST /tokens; printed once with the warning on stderr; the new token works', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['tokens', 'create', '--name', 'ci', '--expires', '30d']))
    expectOk(r, 'warning: store it now: it cannot be shown again\n')
    expect(reqs).toEqual([`POST ${API}/tokens`])
    const out = Object.fromEntries(lines(r.stdout).map((line) => line.split('\t')))
    expect(Object.keys(out)).toEqual(['id', 'name', 'token', 'expiresAt', 'createdAt'])
    expect(out.name).toBe('ci')
    expect(out.token).toMatch(/^svc_[\w-]+$/)
    // expiresIn "30d" reached the server: 30 days after creation
    expect(Math.abs(Date.parse(out.expiresAt) - Date.parse(out.createdAt) - 30 * 86_400_000)).toBeLessThan(1000)

    const status = await e2e.current.amctl(['auth', 'status', '--json'], {env: {AMCTL_TOKEN: out.token}})
    expectOk(status)
    expect(jsonDoc(status)).toMatchObject({user: {email: 'ada@example.com'}, tokenSource: 'env', token: `svc_…${out.token.slice(-4)}`})
  })

  it("tokens create --json: the API object; grace's token authenticates as grace", async () => {
    const r = await e2e.current.amctl(['tokens', 'create', '--name', 'deploy', '--expires', '3650d', '--json'], {as: 'grace'})
    expectOk(r, 'warning: store it now: it cannot be shown again\n')
    const doc = jsonDoc(r)
    expect(doc).toMatchObject({name: 'deploy', token: expect.stringMatching(/^svc_/)})
    const me = await e2e.current.amctl(['api', '/me'], {env: {AMCTL_TOKEN: doc.token}})
    expect(jsonDoc(me).email).toBe('grace@example.com')
  })

  it('tokens create with a bad --expires: exit 2 naming the form, nothing sent', async () => {
    const cases: Array<[string, string]> = [
      ['30', '--expires must be a number of days written as <N>d (e.g. 30d), got "30"'],
      ['0d', '--expires must be from 1d to 3650d, got "0d"'],
      ['3651d', '--expires must be from 1d to 3650d, got "3651d"'],
    ]
    const [results, reqs] = await requestsOfAll(
      e2e.current,
      cases.map(
        ([expires]) =>
          () =>
            e2e.current.amctl(['tokens', 'create', '--name', 'ci', '--expires', expires]),
      ),
    )
    for (const [i, [, message]] of cases.entries()) expect(expectError(results[i], 2, 'invalid_request')).toBe(message)
    expect(reqs).toEqual([])
  })

  it('a rejected AMCTL_TOKEN of the right form: 401 → exit 3 with the hint naming AMCTL_TOKEN; --json: only the error document', async () => {
    const env = {AMCTL_TOKEN: 'svc_revokedOrNeverIssued_abcd'}
    const [[r, json], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['runs', 'list', '--org', 'acme'], {env}),
      () => e2e.current.amctl(['auth', 'status', '--json'], {env}),
    ])
    expect(expectError(r, 3, 'unauthorized', 401)).toBe('invalid or revoked token')
    expect(lines(r.stderr)[1]).toBe(
      'hint: the token in AMCTL_TOKEN was rejected, and it is used before any stored login: set AMCTL_TOKEN to a valid token, or unset it',
    )
    expect(reqs).toEqual(sorted([`GET ${API}/orgs/acme/runs`, `GET ${API}/me`])) // a 401 is not retried
    expect(expectJsonError(json, 3, 'unauthorized', 401).message).toBe('invalid or revoked token')
  })

  it('an AMCTL_TOKEN of the wrong form: exit 2 before any request; no token at all: exit 3, nothing sent', async () => {
    const [[bad, none, staging], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['orgs', 'summary', '--org', 'acme'], {env: {AMCTL_TOKEN: 'Bearer abc'}}),
      () => e2e.current.amctl(['orgs', 'summary', '--org', 'acme'], {as: null}),
      () => e2e.current.amctl(['orgs', 'summary', '--org', 'acme', '--profile', 'staging'], {as: null}),
    ])
    expect(expectError(bad, 2, 'invalid_request')).toMatch(/^AMCTL_TOKEN is not a valid token/)
    expect(bad.stderr).not.toContain('abc')
    expect(expectError(none, 3, 'unauthorized')).toBe(`not logged in to ${e2e.current.url}`)
    expect(lines(none.stderr)[1]).toBe('hint: run `amctl auth login`')
    // the login that would help is the one of the profile given
    expect(lines(staging.stderr)[1]).toBe('hint: run `amctl auth login --profile staging`')
    expect(reqs).toEqual([])
  })

  it('--verbose logs each request on stderr with the Authorization redacted; stdout unchanged', async () => {
    const token = await e2e.current.token('ada')
    const r = await e2e.current.amctl(['orgs', 'summary', '--org', 'acme', '--json', '--verbose'])
    expect(r.exitCode).toBe(0)
    expect(jsonDoc(r).org.slug).toBe('acme')
    expect(r.stderr).toContain(`→ GET ${e2e.current.url}${API}/orgs/acme/summary authorization: Bearer [redacted]`)
    expect(r.stderr).toMatch(/← 200 GET \S+\/orgs\/acme\/summary \d+ ms attempt 1/)
    expect(r.stderr + r.stdout).not.toContain(token)
  })
})
