import {statSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {freshConfigDir, runBin} from '../helpers/bin.js'
import {sendJson, startServer, type TestServer} from '../helpers/http-server.js'

// The built CLI as a user runs it: a subprocess whose stdin is a terminal (a device login needs
// one) and whose output is captured, talking real HTTP to a node:http server on 127.0.0.1 that
// implements the device flow of cli-contract.md section 2.
const TOKEN = 'svc_device_flow_token_9f3a'
const ME = {id: 'usr_1', email: 'ada@acme.test', name: 'Ada', orgs: [{slug: 'acme', publicId: 'org_1', name: 'Acme'}]}

let server: TestServer
let polls = 0
beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.method === 'POST' && req.path === '/api/v1/cli/token') {
      return sendJson(res, 200, {
        deviceCode: 'dev_secret_code',
        userCode: 'WXYZ-1234',
        verificationUri: `${server.url}/device`,
        interval: 0.05,
        expiresIn: 60,
      })
    }
    if (req.method === 'POST' && req.path === '/api/v1/cli/token?deviceCode=dev_secret_code') {
      polls++
      return sendJson(res, 200, polls < 3 ? {status: 'pending'} : {token: TOKEN})
    }
    if (req.method === 'GET' && req.path === '/api/v1/me') {
      if (req.headers.authorization === `Bearer ${TOKEN}`) return sendJson(res, 200, ME)
      return sendJson(res, 401, {error: {code: 'unauthorized', message: 'invalid token'}})
    }
    sendJson(res, 404, {error: {code: 'not_found', message: 'no route'}})
  })
})
afterAll(() => server.close())

describe('amctl auth login (device flow) then auth status, as a subprocess', () => {
  it('logs in, stores the token in the 0600 file fallback, and status reads it back', async () => {
    const configDir = freshConfigDir()
    const env = {AMCTL_CONFIG_DIR: configDir}
    const login = await runBin(['auth', 'login', '--base-url', server.url, '--verbose'], {env, stdinTerminal: true})
    expect(login.stderr).toContain('WXYZ-1234')
    expect(login.stderr).toContain(`${server.url}/device`)
    expect(login.stderr).toContain(`Logged in to ${server.url} as ada@acme.test (acme)`)
    expect(login.stderr).toMatch(/keychain is not available .* stored in .*credentials\.json \(mode 0600\)/)
    expect(login.exitCode).toBe(0)
    expect(login.stdout).toBe('')

    const [start, ...rest] = server.requests.filter((r) => r.path.startsWith('/api/v1/cli/token'))
    expect(start).toMatchObject({method: 'POST', body: '{}'})
    expect(start.headers.authorization).toBeUndefined()
    expect(rest).toHaveLength(3)
    for (const poll of rest) {
      expect(poll.body).toBe('{}')
      expect(poll.headers.authorization).toBeUndefined()
    }
    // the verbose log names every request but never the token or the device code
    expect(login.stderr).toContain('POST')
    expect(login.stderr).toContain('deviceCode=[redacted]')
    expect(login.stderr).not.toContain('dev_secret_code')
    expect(login.stderr).not.toContain(TOKEN)

    const file = join(configDir, 'credentials.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(configDir).mode & 0o777).toBe(0o700)

    // the base URL given at login is remembered by the profile
    const status = await runBin(['auth', 'status', '--json'], {env})
    expect(status.exitCode).toBe(0)
    const doc = JSON.parse(status.stdout)
    expect(doc).toMatchObject({user: ME, tokenSource: 'file', baseUrl: server.url, token: 'svc_…9f3a'})
    expect(status.stdout + status.stderr).not.toContain(TOKEN)
    expect(server.requests.at(-1)).toMatchObject({method: 'GET', path: '/api/v1/me'})
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`)
  })

  it('refuses a clear-text base URL to a non-loopback host before sending anything', async () => {
    const r = await runBin(['auth', 'status'], {env: {AMCTL_TOKEN: 'svc_x', AMCTL_BASE_URL: 'http://api.example.invalid'}})
    expect(r.exitCode).toBe(2)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(/^error: AMCTL_BASE_URL .* must use https/)
  })
})
