import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runBin} from '../helpers/bin.js'
import {ROOT} from '../helpers/cli.js'
import {lines} from './commands/util.js'

// The help as a person meets it (issue 12): grouped topics, a getting-started path, global flags
// once, help topics, usage lines without the global flags, what each command sends.

describe('amctl --help', () => {
  it('groups the topics, starts with three commands to run, lists the help topics and the global flags once', async () => {
    const r = await runBin(['--help'])
    expect(r.exitCode).toBe(0)
    const out = r.stdout
    const order = ['GETTING STARTED', 'USAGE', 'CORE COMMANDS', 'ADMINISTRATION COMMANDS', 'TOOLS', 'HELP TOPICS', 'GLOBAL FLAGS']
    expect(order.map((h) => out.indexOf(`\n${h}\n`))).toEqual([...order.map((h) => out.indexOf(`\n${h}\n`))].sort((a, b) => a - b))
    expect(order.every((h) => out.includes(`\n${h}\n`))).toBe(true)
    const section = (h: string) => out.slice(out.indexOf(`\n${h}\n`) + h.length + 2).split('\n\n')[0]
    expect(lines(section('GETTING STARTED')).map((l) => l.trim().split('  ')[0])).toEqual([
      '$ amctl dev server',
      '$ amctl auth login --base-url http://127.0.0.1:4010',
      '$ amctl runs list --org acme',
    ])
    expect(lines(section('CORE COMMANDS')).map((l) => l.trim().split(/\s+/)[0])).toEqual([
      'auth',
      'evals',
      'runs',
      'optimizations',
      'experiments',
    ])
    expect(lines(section('ADMINISTRATION COMMANDS')).map((l) => l.trim().split(/\s+/)[0])).toEqual([
      'tokens',
      'orgs',
      'connections',
      'mcp-servers',
      'tags',
      'scenarios',
    ])
    expect(lines(section('TOOLS')).map((l) => l.trim().split(/\s+/)[0])).toEqual(expect.arrayContaining(['api', 'config', 'dev']))
    expect(lines(section('HELP TOPICS')).map((l) => l.trim().split(/\s+/)[0])).toEqual(['environment', 'exit-codes', 'formatting'])
    expect(section('GLOBAL FLAGS')).toMatch(/--org ORG .*\n.*--base-url URL/)
    expect(out.match(/--base-url URL/g)).toHaveLength(1)
  })

  it('a command usage names its own flags and [GLOBAL FLAGS], and REQUEST says what it sends', async () => {
    const r = await runBin(['runs', 'fork', '--help'])
    const usageText = r.stdout
      .slice(r.stdout.indexOf('USAGE\n'), r.stdout.indexOf('\n\n', r.stdout.indexOf('USAGE\n')))
      .replace(/\s+/g, ' ')
    expect(usageText).toBe('USAGE $ amctl runs fork RUN_ID [-F <value>]... [-f <value>]... [--input FILE|-] [GLOBAL FLAGS]')
    expect(r.stdout).toContain('REQUEST\n  POST /api/v1/runs/{runId}/fork\n')
    const usage = r.stdout.slice(r.stdout.indexOf('USAGE'), r.stdout.indexOf('ARGUMENTS'))
    expect(usage).not.toContain('--org')
    expect(usage).not.toContain('--base-url')
  })
})

describe('amctl help <topic>', () => {
  // the help topics' sections of the documents are in the page on scripting
  const scripting = readFileSync(join(ROOT, 'docs', 'scripting.md'), 'utf8')

  it.each(['environment', 'exit-codes', 'formatting'])(
    '%s: shown, and docs/scripting.md has the section of the same name',
    async (topic) => {
      const r = await runBin(['help', topic])
      expect(r.exitCode).toBe(0)
      expect(r.stderr).toBe('')
      expect(lines(r.stdout).length).toBeGreaterThan(5)
      expect(scripting).toContain(`<!-- help:${topic} -->`)
    },
  )

  it('environment lists every variable docs/scripting.md lists', async () => {
    const r = await runBin(['help', 'environment'])
    const section = scripting.slice(
      scripting.indexOf('<!-- help:environment -->'),
      scripting.indexOf('<!-- help:end -->', scripting.indexOf('<!-- help:environment -->')),
    )
    for (const [, variable] of section.matchAll(/^\| `([^`]+)`/gm)) expect(r.stdout).toContain(variable)
    expect(r.stdout).toContain('AMCTL_TOKEN')
  })

  it("exit-codes has every code of the contract, 0 to 11 and 130, and amctl's 143 (SIGTERM)", async () => {
    const r = await runBin(['help', 'exit-codes'])
    const codes = lines(r.stdout)
      .map((l) => /^ {2}(\d+)\s/.exec(l)?.[1])
      .filter(Boolean)
    expect(codes).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '130', '143'])
  })
})

describe('amctl --version', () => {
  it('keeps its first line for scripts, then the commit and its date when built from git', async () => {
    const r = await runBin(['--version'])
    const [first, second] = lines(r.stdout)
    expect(first).toMatch(/^amctl\/\d+\.\d+\.\d+ \w+-\w+ node-v\d+/)
    expect(second).toMatch(/^commit [0-9a-f]{12}(-dirty)?, \d{4}-\d{2}-\d{2}$/)
  })
})
