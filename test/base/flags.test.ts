import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {jqInArgv} from '../../src/base/flags.js'
import AuthLogout from '../../src/commands/auth/logout.js'
import AuthToken from '../../src/commands/auth/token.js'
import ConfigList from '../../src/commands/config/list.js'
import ConfigSet from '../../src/commands/config/set.js'
import {ROOT, runCommand} from '../helpers/cli.js'

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

// Global flags only where they do something (issue 10.5): the API flags on commands that call
// the API, --base-url and --profile where a token or a profile is looked up, --profile alone on
// config commands; and --profile defined once, so its help is the same everywhere.
describe('global flags only where they act', () => {
  it.each([
    [AuthLogout, ['--org', 'acme'], '--org'],
    [AuthToken, ['--timeout', '5'], '--timeout'],
    [ConfigList, ['--timeout', '5'], '--timeout'],
    [ConfigSet, ['org', 'acme', '--verbose'], '--verbose'],
  ] as const)('%o refuses %j: exit 2, unknown flag, nothing written', async (command, argv, flag) => {
    const r = await runCommand(command, [...argv])
    expect(r.exitCode).toBe(2)
    expect(r.stderr.split('\n')[0]).toBe(`error: unknown flag ${flag} (invalid_request)`)
    expect(existsSync(join(process.env.AMCTL_CONFIG_DIR as string, 'config.json')), 'no config written').toBe(false)
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
