import type {Command} from '@oclif/core'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'
import {ApiCommand} from '../../src/base/api-command.js'
import {jqInArgv} from '../../src/base/flags.js'
import {globalFlagRows} from '../../src/base/help/help.js'
import AuthLogin from '../../src/commands/auth/login.js'
import AuthLogout from '../../src/commands/auth/logout.js'
import AuthToken from '../../src/commands/auth/token.js'
import ConfigList from '../../src/commands/config/list.js'
import ConfigSet from '../../src/commands/config/set.js'
import RunsFork from '../../src/commands/runs/fork.js'
import TokensCreate from '../../src/commands/tokens/create.js'
import {ROOT, runCommand} from '../helpers/cli.js'
import {runAt} from '../helpers/pages.js'
import {fakeApi, ME} from '../helpers/fake-api.js'
import {tempDir} from '../helpers/temp.js'
import {fileSetting} from '../helpers/env.js'

// --jq implies --json, and is looked for before the arguments parse (errors show without --json).
describe('jqInArgv', () => {
  it.each([
    [['runs', 'list', '--jq', '.items'], true],
    [['runs', 'list', '--jq=.items[]'], true],
    [['runs', 'list', '--json'], false],
    [['runs', 'list', '--jqx'], false],
    [['api', '/x', '--', '--jq'], false],
    // -q, as gh has it
    [['runs', 'list', '-q', '.items'], true],
    [['runs', 'list', '-q.items'], true],
    [['runs', 'list', '-q=.items'], true],
    [['api', '/x', '--', '-q'], false],
    [[], false],
  ])('%j → %s', (argv, found) => {
    expect(jqInArgv(argv)).toBe(found)
  })
})

// Every global flag `amctl --help` lists is accepted by every command that talks to the API (issue
// 25): one the command has no use for (--org on runs fork, whose request names no organization) is
// accepted and ignored, as its environment variable is, and left out of that command's help.
const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
  commands: Record<string, Command.Cached>
}
/** src/commands/runs/list.ts for runs:list; autocomplete/index.ts for the topic's own command */
function commandFile(id: string): string {
  const parts = id.split(':')
  const file = join(ROOT, 'src', 'commands', ...parts)
  return existsSync(`${file}.ts`) ? `${file}.ts` : join(file, 'index.ts')
}
/** The commands of the manifest that talk to the API (their class is an ApiCommand). */
const apiCommands = (
  await Promise.all(
    Object.keys(manifest.commands).map(async (id) => {
      const {default: Cmd} = (await import(pathToFileURL(commandFile(id)).href)) as {default: {prototype: object}}
      return Cmd.prototype instanceof ApiCommand ? [id] : []
    }),
  )
).flat()
const globalFlags = globalFlagRows(Object.values(manifest.commands))
  .map(([spelling]) => /--([a-z-]+)/.exec(spelling)?.[1])
  .filter((name): name is string => name !== undefined && name !== 'help')

describe('global flags on every command that talks to the API', () => {
  it('the root help lists the global flags this suite holds every command to', () => {
    expect(globalFlags).toEqual(['json', 'jq', 'org', 'base-url', 'profile', 'timeout', 'verbose'])
  })

  it('the commands held to them are the ones that talk to the API', () => {
    expect(apiCommands).toContain('runs:list')
    expect(apiCommands).not.toContain('config:list')
  })

  it.each(apiCommands)('%s: every one of them', (id) => {
    expect(Object.keys(manifest.commands[id].flags)).toEqual(expect.arrayContaining(globalFlags))
  })

  const api = fakeApi({}, {me: false})
  beforeAll(() => api.start())
  beforeEach(() => api.reset())
  afterEach(() => expect(api.verify()).toEqual([]))
  afterAll(() => api.stop())

  it('runs fork --org acme: accepted and ignored (the same request as without it), not in its help', async () => {
    for (const argv of [['run_1'], ['run_1', '--org', 'acme']]) {
      api.stub('POST /runs/run_1/fork', runAt('run_9', '2026-01-01T00:00:00Z', {status: 'queued', forkedFrom: 'run_1'}))
      const r = await runCommand(RunsFork, argv, {env: api.env({AMCTL_ORG: 'globex'})})
      expect(r).toMatchObject({exitCode: 0, stderr: ''})
    }
    const [plain, given] = api.requests()
    expect(`${given.method} ${given.path} ${given.body}`).toBe(`${plain.method} ${plain.path} ${plain.body}`)
    expect(manifest.commands['runs:fork'].flags.org.hidden).toBe(true)
  })

  it('auth logout and auth token take --org, --timeout and --verbose and send nothing; tokens create and auth login take --org', async () => {
    const dir = join(tempDir('amctl-flags-'), 'cfg')
    const ignored = ['--org', 'acme', '--timeout', '5', '--verbose']
    const logout = await runCommand(AuthLogout, ignored, {env: {AMCTL_CONFIG_DIR: dir, AMCTL_BASE_URL: api.url}})
    expect(logout).toMatchObject({exitCode: 0, stderr: `No stored token for ${api.url}\n`})
    const token = await runCommand(AuthToken, ignored, {env: api.env()})
    expect(token).toMatchObject({exitCode: 0})
    api.stub('POST /tokens', {
      id: 'tok_1',
      name: 'ci',
      token: 'svc_new_token_1234',
      expiresAt: '2027-01-01T00:00:00Z',
      createdAt: '2026-11-22T00:00:00Z',
    })
    const create = await runCommand(TokensCreate, ['--name', 'ci', '--expires', '30d', '--org', 'acme'], {env: api.env()})
    expect(create.exitCode, create.stderr).toBe(0)
    expect(api.requests().map((q) => q.path)).toEqual(['/api/v1/tokens'])
    api.stub('GET /me', ME)
    const login = await runCommand(AuthLogin, ['--with-token', '--org', 'acme', '--json'], {
      env: {AMCTL_CONFIG_DIR: dir, AMCTL_BASE_URL: api.url},
      stdin: 'svc_login_token_0000',
    })
    expect(login.exitCode, login.stdout).toBe(0)
    expect(JSON.parse(login.stdout)).toMatchObject({user: ME, baseUrl: api.url})
  })

  it('a value an ignored flag cannot have is refused as its variable is (exit 2, nothing sent)', async () => {
    const r = await runCommand(RunsFork, ['run_1', '--timeout', 'soon'], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/^error: --timeout must be a number of seconds/)
    expect(api.requests()).toEqual([])
  })

  it('the config commands, which talk to no server, take --profile, and get and list --base-url and --org', async () => {
    for (const [Cmd, argv, flag] of [
      [ConfigSet, ['org', 'acme', '--verbose'], '--verbose'],
      [ConfigSet, ['org', 'acme', '--base-url', 'https://x.example'], '--base-url'],
      [ConfigList, ['--timeout', '5'], '--timeout'],
    ] as const) {
      const r = await runCommand(Cmd, [...argv])
      expect(r.exitCode).toBe(2)
      expect(r.stderr.split('\n')[0]).toBe(`error: unknown flag ${flag} (invalid_request)`)
      expect(existsSync(join(fileSetting('AMCTL_CONFIG_DIR'), 'config.json')), 'no config written').toBe(false)
    }
  })

  it('--profile is one definition: the same help on every command that has it', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, {flags: Record<string, {summary?: string; description?: string}>}>
    }
    const helps = new Set(
      Object.values(manifest.commands)
        .map((c) => c.flags.profile)
        .filter((f) => f !== undefined)
        .map((f) => `${f.summary ?? ''}|${f.description ?? ''}`),
    )
    expect(helps.size).toBe(1)
  })
})
