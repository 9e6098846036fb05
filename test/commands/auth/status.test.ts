import {describe, expect, it} from 'vitest'
import AuthStatus from '../../../src/commands/auth/status.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, reply, unchecked, useFakeApi} from '../../helpers/fake-api.js'
import {AMCTL_TOKEN_HINT, lines} from '../../helpers/output.js'

const TOKEN = 'svc_status_test_token_1234'
const ME = {id: 'usr_1', email: 'ada@acme.test', name: 'Ada', orgs: [{slug: 'acme', publicId: 'org_1', name: 'Acme'}], plan: 'team'}

const api = useFakeApi(
  {'GET /me': (req) => (req.headers.authorization === `Bearer ${TOKEN}` ? reply(200, ME) : envelope(401, 'unauthorized', 'invalid token'))},
  {},
)

describe('auth status', () => {
  it('shows the user, server, org and masked token; --json adds user, tokenSource, baseUrl', async () => {
    const r = await runCommand(AuthStatus, ['--json'], {env: {AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: api.url}})
    expect(r.exitCode).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({user: ME, tokenSource: 'env', baseUrl: api.url, org: 'acme', token: 'svc_…1234'})
    expect(r.stdout + r.stderr).not.toContain(TOKEN)
    const last = api.requests().at(-1)!
    expect(last.method).toBe('GET')
    expect(last.path).toBe('/api/v1/me')
  })

  it('renders key/value on a TTY and key<TAB>value when piped', async () => {
    const tty = await runCommand(AuthStatus, [], {tty: true, env: {AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: api.url}})
    expect(tty.stdout).toMatch(/user:\s+Ada <ada@acme.test>/)
    expect(tty.stdout).toMatch(/token storage:\s+env/)
    const piped = await runCommand(AuthStatus, [], {env: {AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: api.url}})
    expect(piped.stdout).toContain(`base URL\t${api.url}\n`)
    expect(piped.stdout).toContain('token\tsvc_…1234\n')
  })

  it('a /me without the email and orgs amctl relies on is bad_response (exit 1)', async () => {
    api.stub('GET /me', unchecked('a /me without email and orgs: amctl must refuse it', 200, {id: 'usr_1', name: 'Ada'}))
    const r = await runCommand(AuthStatus, [], {env: {AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: api.url}})
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toBe('error: GET /me did not answer the "email" and "orgs" amctl relies on (bad_response)\n')
  })

  it('exits 3 when the token is rejected, with a hint naming AMCTL_TOKEN, where it came from', async () => {
    const r = await runCommand(AuthStatus, [], {env: {AMCTL_TOKEN: 'svc_wrong', AMCTL_BASE_URL: api.url}})
    expect(r.exitCode).toBe(3)
    expect(r.stdout).toBe('')
    const [error, hint, ...rest] = lines(r.stderr)
    expect(error).toBe('error: invalid token (unauthorized, HTTP 401)')
    expect(hint).toMatch(AMCTL_TOKEN_HINT)
    expect(rest).toEqual([])
  })

  it('exits 3 without a request when not logged in', async () => {
    const r = await runCommand(AuthStatus, ['--json'], {env: {AMCTL_BASE_URL: api.url}})
    expect(r.exitCode).toBe(3)
    expect(JSON.parse(r.stdout)).toEqual({error: {code: 'unauthorized', message: `not logged in to ${api.url}`}})
    expect(api.requests()).toHaveLength(0)
  })

  it('an empty AMCTL_TOKEN (the secret a pull request from a fork does not get): exit 3 saying so, nothing sent', async () => {
    const tty = await runCommand(AuthStatus, [], {tty: true, env: {AMCTL_TOKEN: '', AMCTL_BASE_URL: api.url}})
    expect(tty.exitCode).toBe(3)
    expect(tty.stdout).toBe('')
    const [error, hint, ...rest] = lines(tty.stderr)
    expect(error).toBe('error: AMCTL_TOKEN is set but empty (pull requests from forks receive no secrets) (unauthorized)')
    expect(hint).toBe('hint: give the job its token secret, or unset AMCTL_TOKEN to use a stored login')
    expect(rest).toEqual([])
    const json = await runCommand(AuthStatus, ['--json'], {env: {AMCTL_TOKEN: '', AMCTL_BASE_URL: api.url}})
    expect(json.exitCode).toBe(3)
    expect(JSON.parse(json.stdout)).toEqual({
      error: {code: 'unauthorized', message: 'AMCTL_TOKEN is set but empty (pull requests from forks receive no secrets)'},
    })
    expect(api.requests()).toHaveLength(0)
  })

  it('exits 2 without sending anything for an http base URL that is not loopback', async () => {
    const r = await runCommand(AuthStatus, [], {env: {AMCTL_TOKEN: 'svc_x', AMCTL_BASE_URL: 'http://api.example.invalid'}})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: AMCTL_BASE_URL "http:\/\/api.example.invalid" must use https/)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
  })
})

describe('auth status: typed result and renderer', () => {
  it('returns the user and token facts; the renderer gets one object for people', async () => {
    const r = await runCommand(AuthStatus, [], {env: {AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: api.url}})
    expect(r.result).toEqual({user: ME, tokenSource: 'env', baseUrl: api.url, profile: 'default', org: 'acme', token: 'svc_…1234'})
    expect(r.rendered).toEqual([
      {
        method: 'object',
        value: {
          user: 'Ada <ada@acme.test>',
          'base URL': api.url,
          profile: 'default',
          org: 'acme',
          token: 'svc_…1234',
          'token storage': 'env (AMCTL_TOKEN)',
        },
      },
    ])
  })
})
