import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import AuthStatus from '../../../src/commands/auth/status.js'
import {runCommand} from '../../helpers/cli.js'
import {sendJson, startServer, type TestServer} from '../../helpers/http-server.js'

const TOKEN = 'svc_status_test_token_1234'
const ME = {id: 'usr_1', email: 'ada@acme.test', name: 'Ada', orgs: [{slug: 'acme', publicId: 'org_1', name: 'Acme'}], plan: 'team'}

let server: TestServer
beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.headers.authorization === `Bearer ${TOKEN}`) sendJson(res, 200, ME)
    else sendJson(res, 401, {error: {code: 'unauthorized', message: 'invalid token'}})
  })
})
afterAll(() => server.close())

describe('auth status', () => {
  it('shows the user, server, org and masked token; --json adds user, tokenSource, baseUrl', async () => {
    const r = await runCommand(AuthStatus, ['--json'], {env: {AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: server.url}})
    expect(r.exitCode).toBe(0)
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({user: ME, tokenSource: 'env', baseUrl: server.url, org: 'acme', token: 'svc_…1234'})
    expect(r.stdout + r.stderr).not.toContain(TOKEN)
    const last = server.requests.at(-1)!
    expect(last.method).toBe('GET')
    expect(last.path).toBe('/api/v1/me')
  })

  it('renders key/value on a TTY and key<TAB>value when piped', async () => {
    const tty = await runCommand(AuthStatus, [], {tty: true, env: {AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: server.url}})
    expect(tty.stdout).toMatch(/user:\s+Ada <ada@acme.test>/)
    expect(tty.stdout).toMatch(/token storage:\s+env/)
    const piped = await runCommand(AuthStatus, [], {env: {AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: server.url}})
    expect(piped.stdout).toContain(`base URL\t${server.url}\n`)
    expect(piped.stdout).toContain('token\tsvc_…1234\n')
  })

  it('a /me without the email and orgs amctl relies on is bad_response (exit 1)', async () => {
    const other = await startServer((_req, res) => sendJson(res, 200, {id: 'usr_1', name: 'Ada'}))
    try {
      const r = await runCommand(AuthStatus, [], {env: {AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: other.url}})
      expect(r.exitCode).toBe(1)
      expect(r.stderr).toBe('error: GET /me did not answer the "email" and "orgs" amctl relies on (bad_response)\n')
    } finally {
      await other.close()
    }
  })

  it('exits 3 with a login hint when the token is rejected', async () => {
    const r = await runCommand(AuthStatus, [], {env: {AMCTL_TOKEN: 'svc_wrong', AMCTL_BASE_URL: server.url}})
    expect(r.exitCode).toBe(3)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe('error: invalid token (unauthorized, HTTP 401)\nhint: run `amctl auth login`\n')
  })

  it('exits 3 without a request when not logged in', async () => {
    const before = server.requests.length
    const r = await runCommand(AuthStatus, ['--json'], {env: {AMCTL_BASE_URL: server.url}})
    expect(r.exitCode).toBe(3)
    expect(JSON.parse(r.stdout)).toEqual({error: {code: 'unauthorized', message: `not logged in to ${server.url}`}})
    expect(server.requests.length).toBe(before)
  })

  it('exits 2 without sending anything for an http base URL that is not loopback', async () => {
    const r = await runCommand(AuthStatus, [], {env: {AMCTL_TOKEN: 'svc_x', AMCTL_BASE_URL: 'http://api.example.invalid'}})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: AMCTL_BASE_URL "http:\/\/api.example.invalid" must use https/)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
  })
})
