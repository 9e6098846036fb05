import {describe, expect, it} from 'vitest'
import AuthLogin from '../../src/commands/auth/login.js'
import AuthStatus from '../../src/commands/auth/status.js'
import OrgsSummary from '../../src/commands/orgs/summary.js'
import RunsList from '../../src/commands/runs/list.js'
import {runCommand} from '../helpers/cli.js'
import {ME, type Recorded, reply, unchecked, useFakeApi} from '../helpers/fake-api.js'
import {tempDir} from '../helpers/temp.js'

/**
 * Contract 1.4: text from the server is never a terminal command. A hostile server answers with
 * escape sequences (clear the screen, set the window title, a C1 CSI) in every place amctl shows
 * server text to a person; on a terminal each control character must come out as \u00XX.
 */
const EVIL = 'x\u001b[2J\u001b]0;pwned\u0007\u009b31my'
const SAFE = 'x\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31my'
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/

const api = useFakeApi()
/** the answers of this file break the document on purpose: control sequences where it wants IDs, dates, URLs */
const HOSTILE = 'a hostile server: terminal control sequences in its text'
const evil =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () => {
    return unchecked(HOSTILE, status, JSON.stringify(body), {'content-type': 'application/json', ...headers})
  }

describe('server text on a terminal is written visibly, never obeyed', () => {
  it('the error line: an envelope message', async () => {
    api.stub('GET /orgs/acme/summary', evil(409, {error: {code: 'conflict', message: EVIL}}))
    const r = await runCommand(OrgsSummary, ['--org', 'acme'], {env: api.env(), tty: true})
    expect(r.exitCode).toBe(6)
    expect(r.stderr).toBe(`error: ${SAFE} (conflict, HTTP 409)\n`)
  })

  it('the error line: an unknown code and a non-envelope body snippet', async () => {
    api.stub('GET /orgs/acme/summary', evil(418, {error: {code: EVIL, message: 'm'}}))
    const code = await runCommand(OrgsSummary, ['--org', 'acme'], {env: api.env(), tty: true})
    expect(code.stderr).not.toMatch(RAW)
    api.stub('GET /orgs/acme/summary', () => {
      return unchecked(HOSTILE, 418, `<h1>${EVIL}</h1>`, {'content-type': 'text/html'})
    })
    const html = await runCommand(OrgsSummary, ['--org', 'acme'], {env: api.env(), tty: true})
    expect(html.stderr).toContain(SAFE)
    expect(html.stderr).not.toMatch(RAW)
  })

  it('tables, key/value and the more: hint', async () => {
    api.stub(
      'GET /orgs/acme/runs',
      unchecked(HOSTILE, 200, {items: [{id: EVIL, status: EVIL, evalSetId: 'es', createdAt: EVIL}], nextCursor: EVIL}),
    )
    const list = await runCommand(RunsList, ['--org', 'acme'], {env: api.env(), tty: true})
    expect(list.stdout).toContain(SAFE)
    expect(list.stdout + list.stderr).not.toMatch(RAW)
    expect(list.stderr).toContain(`more: amctl runs list --cursor '${SAFE}'`)
    api.stub('GET /orgs/acme/summary', {[EVIL]: EVIL, nested: {[EVIL]: [EVIL]}})
    const kv = await runCommand(OrgsSummary, ['--org', 'acme'], {env: api.env(), tty: true})
    expect(kv.stdout).toContain(SAFE)
    expect(kv.stdout).not.toMatch(RAW)
  })

  it('bidi controls and line/paragraph separators: a run name cannot show reversed or break the table', async () => {
    const name = 'run_\u202egpj.exe\u2066x\u2028y'
    const run = {id: name, status: 'succeeded', evalSetId: 'es', batchId: 'b', createdAt: '2026-11-01T00:00:00Z', forkedFrom: null}
    api.stub('GET /orgs/acme/runs', {items: [{...run, agent: name, model: 'm', score: 0.5}], nextCursor: null})
    const tty = await runCommand(RunsList, ['--org', 'acme'], {env: api.env(), tty: true})
    expect(tty.stdout).toContain('run_\\u202egpj.exe\\u2066x\\u2028y')
    expect(tty.stdout).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u2028\u2029]/)
    const piped = await runCommand(RunsList, ['--org', 'acme'], {env: api.env()})
    expect(piped.stdout.split('\n')[0].split('\t')[0]).toBe('run_\\u202egpj.exe\\u2066x\\u2028y')
  })

  it('auth status and "Logged in as": the user as the server names it', async () => {
    const me = {...ME, email: `ada${EVIL}@acme.test`, name: EVIL, orgs: [{slug: EVIL, publicId: 'org_1', name: 'A'}]}
    api.stub('GET /me', me)
    const status = await runCommand(AuthStatus, [], {env: api.env(), tty: true})
    expect(status.stdout).toContain(SAFE)
    expect(status.stdout + status.stderr).not.toMatch(RAW)
    const login = await runCommand(AuthLogin, ['--with-token'], {
      env: {...api.env(), AMCTL_TOKEN: undefined, AMCTL_CONFIG_DIR: tempDir('amctl-safe-')},
      stdin: 'svc_login_token_9999\n',
      stderrTTY: true,
    })
    expect(login.exitCode, login.stderr).toBe(0)
    expect(login.stderr).toContain(`Logged in to ${api.url} as ada${SAFE}@acme.test (${SAFE})`)
    expect(login.stderr).not.toMatch(RAW)
  })

  it('the device code and the approval URL', async () => {
    let polls = 0
    api.stub('POST /cli/token', (req: Recorded) => {
      if (!req.path.includes('deviceCode'))
        return unchecked(HOSTILE, 200, {deviceCode: 'dc', userCode: EVIL, verificationUri: `https://x.example/${EVIL}`, interval: 1})
      polls += 1
      return reply(200, {token: 'svc_device_token_1234'})
    })
    const r = await runCommand(AuthLogin, ['--no-browser'], {
      env: {...api.env(), AMCTL_TOKEN: undefined, AMCTL_CONFIG_DIR: tempDir('amctl-safe-'), CI: undefined},
      stdinTTY: true,
      stderrTTY: true,
    })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(polls).toBe(1)
    expect(r.stderr).toContain(`First copy your one-time code: ${SAFE}`)
    expect(r.stderr).not.toMatch(RAW)
  }, 10_000)
})
