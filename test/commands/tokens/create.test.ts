import {describe, expect, it} from 'vitest'
import TokensCreate from '../../../src/commands/tokens/create.js'
import {runCommand} from '../../helpers/cli.js'
import {json, reply, TOKEN, useFakeApi} from '../../helpers/fake-api.js'
import {tempDir} from '../../helpers/temp.js'
import {AMCTL_TOKEN_HINT, lines} from '../../helpers/output.js'

const NEW = 'svc_freshly_created_token_7777'
const CREATED = {id: 'tok_1', name: 'ci', token: NEW, expiresAt: '2026-12-22T00:00:00Z', createdAt: '2026-11-22T00:00:00Z'}
const WARNING = 'store it now: it cannot be shown again'

const api = useFakeApi({'POST /tokens': CREATED}, {me: false})

describe('tokens create', () => {
  it('sends POST /api/v1/tokens {"name","expiresIn"} with the bearer token', async () => {
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(api.requests()).toHaveLength(1)
    const [req] = api.requests()
    expect(req.method).toBe('POST')
    expect(req.path).toBe('/api/v1/tokens')
    expect(req.body).toBe('{"name":"ci","expiresIn":"30d"}')
    expect(req.headers['content-type']).toBe('application/json')
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(req.headers['user-agent']).toMatch(/^amctl\/\S+ node\/v\d+\.\d+\.\d+ \w+$/)
  })

  it('piped: key<TAB>value on stdout with the new token once; the warning on stderr', async () => {
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d'], {env: api.env()})
    expect(r.stdout).toBe(`id\ttok_1\nname\tci\ntoken\t${NEW}\nexpiresAt\t2026-12-22T00:00:00Z\ncreatedAt\t2026-11-22T00:00:00Z\n`)
    expect(r.stdout.split(NEW)).toHaveLength(2)
    expect(r.stderr).toBe(`warning: ${WARNING}\n`)
    // the caller's own token never shows
    expect(r.stdout + r.stderr).not.toContain(TOKEN)
  })

  it('--verbose logs the request without the bearer token', async () => {
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d', '--verbose'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(r.stderr).toContain(`POST ${api.url}/api/v1/tokens`)
    expect(r.stderr).toContain('Bearer [redacted]')
    expect(r.stderr).toMatch(/← 200 POST \S+ \d+ ms attempt 1/)
    expect(r.stdout + r.stderr).not.toContain(TOKEN)
  })

  it('TTY: aligned key/value with the token, the warning on stderr', async () => {
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d'], {env: api.env(), tty: true})
    expect(r.stdout).toMatch(new RegExp(`^token:\\s+${NEW}$`, 'm'))
    expect(r.stdout.split(NEW)).toHaveLength(2)
    expect(r.stderr).toContain(WARNING)
  })

  it('--json: the created object alone on stdout, compact when piped and pretty on a TTY', async () => {
    const piped = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d', '--json'], {env: api.env()})
    expect(piped.stdout).toBe(`${JSON.stringify(CREATED)}\n`)
    expect(piped.stderr).toContain(WARNING)
    const tty = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d', '--json'], {env: api.env(), tty: true})
    expect(tty.stdout).toBe(`${JSON.stringify(CREATED, null, 2)}\n`)
  })

  it('sends the canonical expiry and a trimmed name', async () => {
    await runCommand(TokensCreate, ['--name', ' deploy ', '--expires', '0090d'], {env: api.env()})
    expect(json(api.requests()[0])).toEqual({name: 'deploy', expiresIn: '90d'})
    await runCommand(TokensCreate, ['--name', 'max', '--expires', '3650d'], {env: api.env()})
    expect(json(api.requests()[1])).toEqual({name: 'max', expiresIn: '3650d'})
  })

  it.each(['0d', '3651d', '30', 'd', 'abc', '-1d', '30days'])('--expires %s → exit 2 and no request', async (bad) => {
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', bad], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error: --expires .* \(invalid_request\)\n$/)
    expect(api.requests()).toHaveLength(0)
  })

  it('a bad --expires with --json is the error document, no request', async () => {
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '0d', '--json'], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(JSON.parse(r.stdout)).toMatchObject({error: {code: 'invalid_request'}})
    expect(api.requests()).toHaveLength(0)
  })

  it('missing --name or --expires, or an empty name, is exit 2 and no request', async () => {
    for (const argv of [
      ['--expires', '30d'],
      ['--name', 'ci'],
      ['--name', '  ', '--expires', '30d'],
    ]) {
      const r = await runCommand(TokensCreate, argv, {env: api.env()})
      expect(r.exitCode, argv.join(' ')).toBe(2)
    }
    expect(api.requests()).toHaveLength(0)
  })

  it('an unknown flag (a typo) is exit 2 with one error line and no request', async () => {
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expire', '30d'], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error: '))).toHaveLength(1)
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(api.requests()).toHaveLength(0)
  })

  it('not logged in: exit 3 and no request', async () => {
    const dir = tempDir('amctl-tc-')
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d'], {
      env: api.env({AMCTL_TOKEN: undefined, AMCTL_CONFIG_DIR: dir}),
    })
    expect(r.exitCode).toBe(3)
    expect(r.stderr).toContain('hint: run `amctl auth login`')
    expect(api.requests()).toHaveLength(0)
  })

  it('a rejected token is exit 3 with the hint (AMCTL_TOKEN: its own)', async () => {
    api.stub('POST /tokens', () => reply(401, {error: {code: 'unauthorized', message: 'token expired'}}))
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d'], {env: api.env()})
    expect(r.exitCode).toBe(3)
    const [error, hint, ...rest] = lines(r.stderr)
    expect(error).toBe('error: token expired (unauthorized, HTTP 401)')
    expect(hint).toMatch(AMCTL_TOKEN_HINT)
    expect(rest).toEqual([])
  })

  it('no answer in time: exit 9, sent once, never resubmitted', async () => {
    api.stub('POST /tokens', CREATED, {delayMs: 60_000}) // the server holds the answer
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d', '--timeout', '0.2'], {env: api.env()})
    expect(r.exitCode).toBe(9)
    expect(r.stderr).toContain('the server may have accepted the request; check before retrying')
    expect(r.stderr).not.toContain(WARNING)
    expect(api.requests()).toHaveLength(1)
  })

  it('a 503 is not retried (POST), exit 1', async () => {
    api.stub('POST /tokens', () => reply(503, {error: {code: 'unavailable', message: 'maintenance'}}))
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d'], {env: api.env()})
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toBe('error: maintenance (unavailable, HTTP 503)\n')
    expect(api.requests()).toHaveLength(1)
  })
})

describe('tokens create: typed result and renderer', () => {
  it('returns the created token, hands it to the renderer as an object, then the warning', async () => {
    const r = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d'], {env: api.env()})
    expect(r.result).toEqual(CREATED)
    expect(r.rendered).toEqual([
      {method: 'object', value: CREATED},
      {method: 'warning', text: WARNING},
    ])
  })
})
