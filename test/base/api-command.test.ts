import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import AuthStatus from '../../src/commands/auth/status.js'
import RunsList from '../../src/commands/runs/list.js'
import {fileStore} from '../../src/core/auth/file-store.js'
import {runCommand} from '../helpers/cli.js'
import {envelope, reply, useFakeApi} from '../helpers/fake-api.js'
import {runAt} from '../helpers/pages.js'
import {tempDir} from '../helpers/temp.js'
import {lines} from '../helpers/output.js'

// The hint of a missing or rejected token (contract 1.5): what would help given where the token
// came from, and the login command with the --profile (and --base-url) the command was given.

const api = useFakeApi({}, {me: false})
const rejected = () => envelope(401, 'unauthorized', 'token revoked')
const ENV_HINT =
  'hint: the token in AMCTL_TOKEN was rejected, and it is used before any stored login: set AMCTL_TOKEN to a valid token, or unset it\n'

/** A config directory with `token` stored for `profile` at the fake API. */
function stored(profile: string, token = 'svc_stored_token_1111'): Record<string, string> {
  const env = {AMCTL_CONFIG_DIR: join(tempDir('amctl-hint-'), 'cfg'), AMCTL_BASE_URL: api.url}
  fileStore.set(`${profile}@${api.url}`, token, env)
  return env
}

describe('the hint of a rejected token', () => {
  it('names AMCTL_TOKEN when the token came from it: logging in again would not help (terminal or piped)', async () => {
    for (const tty of [false, true]) {
      api.stub('GET /me', rejected)
      const r = await runCommand(AuthStatus, [], {env: api.env(), tty})
      expect(r.exitCode).toBe(3)
      expect(r.stderr).toBe(`error: token revoked (unauthorized, HTTP 401)\n${ENV_HINT}`)
    }
  })

  it('--json: the error document alone, as before', async () => {
    api.stub('GET /me', rejected)
    const r = await runCommand(AuthStatus, ['--json', '--profile', 'ci'], {env: api.env()})
    expect(r.exitCode).toBe(3)
    expect(JSON.parse(r.stdout)).toEqual({error: {code: 'unauthorized', message: 'token revoked', status: 401}})
    expect(r.stderr).toBe('')
  })

  it('a stored token rejected: log in again, with the --profile given', async () => {
    api.stub('GET /orgs/acme/runs', rejected)
    const r = await runCommand(RunsList, ['--org', 'acme', '--profile', 'staging'], {env: stored('staging')})
    expect(r.exitCode).toBe(3)
    const [error, hint, ...rest] = lines(r.stderr)
    expect(error).toBe('error: token revoked (unauthorized, HTTP 401)')
    expect(hint).toBe('hint: run `amctl auth login --profile staging`')
    expect(rest).toEqual([])
  })

  it('a page of runs list --all rejected midway names AMCTL_TOKEN too', async () => {
    api.stub('GET /orgs/acme/runs', (req) =>
      req.path.includes('cursor')
        ? rejected()
        : reply(200, {items: [runAt('run_1', '2026-01-01T00:00:00Z', {status: 'queued'})], nextCursor: 'c1'}),
    )
    const r = await runCommand(RunsList, ['--org', 'acme', '--all'], {env: api.env()})
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain(`(unauthorized, HTTP 401)\n${ENV_HINT}`)
  })
})

describe('the hint of a missing token', () => {
  it('keeps --profile and --base-url as given, so the login it suggests is the one that was missing', async () => {
    const env = {AMCTL_CONFIG_DIR: join(tempDir('amctl-hint-'), 'cfg'), AMCTL_TOKEN: undefined, AMCTL_BASE_URL: undefined}
    const r = await runCommand(AuthStatus, ['--profile', 'staging', '--base-url', `${api.url}/`], {env})
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toBe(
      `error: not logged in to ${api.url} (profile "staging") (unauthorized)\n` +
        `hint: run \`amctl auth login --profile staging --base-url ${api.url}/\`\n`,
    )
    expect(api.requests()).toEqual([])
  })

  it('without flags (AMCTL_PROFILE carries over by itself): the plain login', async () => {
    const env = {
      AMCTL_CONFIG_DIR: join(tempDir('amctl-hint-'), 'cfg'),
      AMCTL_TOKEN: undefined,
      AMCTL_BASE_URL: api.url,
      AMCTL_PROFILE: 'staging',
    }
    const r = await runCommand(AuthStatus, [], {env})
    const [error, hint, ...rest] = lines(r.stderr)
    expect(error).toBe(`error: not logged in to ${api.url} (profile "staging") (unauthorized)`)
    expect(hint).toBe('hint: run `amctl auth login`')
    expect(rest).toEqual([])
  })

  it('a base URL that needs quoting is quoted for the shell', async () => {
    const env = {AMCTL_CONFIG_DIR: join(tempDir('amctl-hint-'), 'cfg'), AMCTL_TOKEN: undefined, AMCTL_BASE_URL: api.url}
    const r = await runCommand(AuthStatus, ['--base-url', `${api.url}/a b`], {env})
    expect(r.stderr).toContain(`hint: run \`amctl auth login --base-url '${api.url}/a b'\`\n`)
  })
})
