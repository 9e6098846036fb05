import {chownSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {CommandContext} from '../../src/base/context.js'
import type {GlobalFlags} from '../../src/core/settings.js'
import {palette} from '../../src/output/style.js'
import {failure} from '../helpers/failure.js'
import {ME, useFakeApi} from '../helpers/fake-api.js'
import {fakeClock} from '../helpers/fake-clock.js'
import {fakeIO} from '../helpers/fake-io.js'
import {tempDir} from '../helpers/temp.js'

// The per-command context (gh's Factory): settings by the contract's precedence, the token, the
// organization and the HTTP clients, each resolved once and only when asked for.

const api = useFakeApi({}, {me: false})

function context(flags: GlobalFlags, env: Record<string, string | undefined>): {ctx: CommandContext; warnings: string[]} {
  const warnings: string[] = []
  const ctx = new CommandContext(flags, {
    io: fakeIO(),
    env: {AMCTL_CONFIG_DIR: tempDir('amctl-context-'), ...env} as NodeJS.ProcessEnv,
    clock: fakeClock(),
    transport: api.transport,
    version: '9.9.9',
    errStyle: palette(false),
    warn: (message) => warnings.push(message),
  })
  return {ctx, warnings}
}

/** A config dir whose config.json is not JSON: reading it fails, so a test sees whether it was read. */
function corruptConfigDir(): string {
  const dir = tempDir('amctl-context-')
  writeFileSync(join(dir, 'config.json'), '{not json', {mode: 0o600})
  return dir
}

describe('settings', () => {
  it('flags win over the environment, which wins over the profile', async () => {
    const {ctx} = context({org: 'from-flag'}, {AMCTL_ORG: 'from-env', AMCTL_BASE_URL: 'https://env.example', AMCTL_TIMEOUT: '7'})
    expect(await ctx.settings()).toMatchObject({org: 'from-flag', baseUrl: 'https://env.example', timeoutMs: 7000, profile: 'default'})
  })

  it('does not read the config file when flags and environment give the base URL and the org', async () => {
    const {ctx} = context({'base-url': 'https://flag.example'}, {AMCTL_ORG: 'acme', AMCTL_CONFIG_DIR: corruptConfigDir()})
    expect(await ctx.settings()).toMatchObject({baseUrl: 'https://flag.example', org: 'acme'})
    const {ctx: gap} = context({'base-url': 'https://flag.example'}, {AMCTL_CONFIG_DIR: corruptConfigDir()})
    expect((await failure(gap.settings())).message).toMatch(/config\.json/)
  })

  it('is resolved once', async () => {
    const {ctx} = context({}, {AMCTL_ORG: 'acme'})
    expect(ctx.settings()).toBe(ctx.settings())
  })
})

describe('token', () => {
  it('AMCTL_TOKEN is the token', async () => {
    const {ctx} = context({}, {AMCTL_TOKEN: 'svc_from_env_1234'})
    expect(await ctx.token()).toEqual({token: 'svc_from_env_1234', source: 'env'})
  })

  it('none stored: exit 3 naming the server (and the profile when it is not the default)', async () => {
    const {ctx} = context({profile: 'ci'}, {AMCTL_BASE_URL: 'https://api.example.com'})
    const e = await failure(ctx.token())
    expect(e.exitCode).toBe(3)
    expect(e.message).toBe('not logged in to https://api.example.com (profile "ci")')
  })
})

describe('a config directory another user owns', () => {
  // a real chown: the tests run as root in CI (a non-root run cannot give a file away)
  it.runIf(process.getuid?.() === 0)('a stored token there is never sent: exit 3, the warning said, no request', async () => {
    const dir = tempDir('amctl-context-')
    writeFileSync(
      join(dir, 'credentials.json'),
      JSON.stringify({version: 1, tokens: {[`default@${api.url}`]: {token: 'svc_planted_by_other_1234'}}}),
      {mode: 0o600},
    )
    chownSync(join(dir, 'credentials.json'), 4321, 4321)
    chownSync(dir, 4321, 4321)
    const {ctx, warnings} = context({}, {AMCTL_BASE_URL: api.url, AMCTL_ORG: 'acme', AMCTL_CONFIG_DIR: dir})
    const e = await failure(ctx.token())
    expect(e).toMatchObject({exitCode: 3, code: 'unauthorized'})
    expect(e.message).toMatch(/belongs to another user \(uid 4321\): amctl sends no token stored there/)
    expect(warnings).toEqual([
      `the config directory ${dir} belongs to another user (uid 4321), who decides what amctl reads there; amctl sends no token stored in it`,
    ])
    expect(api.requests()).toEqual([])
  })
})

describe('org and clients', () => {
  it('without --org: the only org of GET /me, asked once however often the org is needed', async () => {
    api.stub('GET /me', ME)
    const {ctx} = context({}, api.env())
    expect(await ctx.org()).toBe('acme')
    expect(await ctx.org()).toBe('acme')
    expect(api.requests().map((r) => r.path)).toEqual(['/api/v1/me'])
    expect(api.requests()[0].headers.authorization).toBe(`Bearer ${api.env().AMCTL_TOKEN}`)
  })

  it('several orgs: exit 2 naming them and asking for --org', async () => {
    api.stub('GET /me', {...ME, orgs: [...ME.orgs, {slug: 'globex', publicId: 'org_2', name: 'Globex'}]})
    const {ctx} = context({}, api.env())
    const e = await failure(ctx.org())
    expect(e.exitCode).toBe(2)
    expect(e.message).toBe('you belong to 2 organizations (acme, globex): pass --org or run `amctl config set org <slug>`')
  })

  it('--org: no request at all; the authenticated client is built once', async () => {
    const {ctx} = context({org: 'acme'}, api.env())
    expect(await ctx.org()).toBe('acme')
    expect(await ctx.http()).toBe(await ctx.http())
    expect(api.requests()).toEqual([])
  })

  it('the anonymous client sends no Authorization; httpWith sends the token it is given', async () => {
    api.stub('POST /cli/token', {token: 'svc_just_issued_9999'})
    api.stub('GET /me', ME)
    const {ctx} = context({}, api.env())
    await (await ctx.anonymousHttp()).json({method: 'POST', path: '/cli/token', body: {}})
    await (await ctx.httpWith('svc_just_issued_9999')).json({method: 'GET', path: '/me'})
    const [anonymous, withToken] = api.requests()
    expect(anonymous.headers.authorization).toBeUndefined()
    expect(withToken.headers.authorization).toBe('Bearer svc_just_issued_9999')
  })
})
