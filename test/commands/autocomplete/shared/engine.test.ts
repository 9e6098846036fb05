import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {complete, type CompletionWorld, type ManifestCommand} from '../../../../src/commands/autocomplete/shared/engine.js'
import {completionText, wordsFromLines} from '../../../../src/commands/autocomplete/shared/main.js'
import {ROOT} from '../../../helpers/cli.js'

const NOW = Date.UTC(2026, 10, 25, 12)
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {oclif: {topics: Record<string, {description: string}>}}
const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, ManifestCommand>}
const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {oclif: {topics: Record<string, {description: string}>}}

function world(over: Partial<CompletionWorld> = {}): CompletionWorld {
  return {
    commands: manifest.commands,
    topics: pjson.oclif.topics,
    profiles: {default: {org: 'acme'}, prod: {org: 'initech', 'base-url': 'https://api.example.com'}},
    recent: {
      orgs: [{id: 'globex', at: NOW - 2 * 3600_000}],
      runs: [
        {id: 'run_a2', org: 'acme', note: 'failed, es_checkout', at: NOW - 5 * 60_000},
        {id: 'run_g1', org: 'globex', at: NOW - 60_000},
        {id: 'run_a1', org: 'acme', note: 'succeeded, es_search', at: NOW - 3 * 86_400_000},
      ],
      evalSets: [
        {id: 'es_checkout', org: 'acme', at: NOW},
        {id: 'es_docs', org: 'globex', at: NOW},
      ],
    },
    env: {},
    now: NOW,
    ...over,
  }
}
const values = (words: string[], w = world()) => complete(words, w).candidates.map((c) => c.value)

/** The verbs of a topic the manifest lists and does not hide (`runs` → fork, list, watch …), in order. */
function verbsOf(topic: string): string[] {
  const verbs = Object.values(manifest.commands)
    .filter((command) => !command.hidden && command.id.startsWith(`${topic}:`))
    .map((command) => command.id.slice(topic.length + 1).split(':')[0])
  return [...new Set(verbs)].sort()
}

describe('complete: commands and flags from the manifest', () => {
  it('offers the topics and commands at the start, with their descriptions; hidden ones never', () => {
    const top = complete([''], world()).candidates
    expect(top).toContainEqual({value: 'runs', description: pkg.oclif.topics.runs.description})
    expect(top).toContainEqual({value: 'api', description: manifest.commands.api.summary})
    expect(top.map((c) => c.value)).not.toContain('__complete')
    expect(values(['ru'])).toEqual(['runs'])
    // (the manifest's verbs: a new one is offered with the others, and this test does not change)
    expect(verbsOf('runs')).toContain('list')
    expect(values(['runs', ''])).toEqual(verbsOf('runs'))
    expect(values(['orgs', 'implementation-doc', ''])).toEqual(verbsOf('orgs:implementation-doc'))
    expect(values(['autocomplete', ''])).toEqual(['script', 'bash', 'zsh', 'fish', 'powershell'])
    expect(values(['nonsense', ''])).toEqual([])
    expect(values(['-'])).toEqual(['--help', '--version'])
  })

  it('offers the flags of the command not given yet (a repeatable one again), then --help', () => {
    const flags = values(['runs', 'list', '--'])
    expect(flags).toEqual(expect.arrayContaining(['--org', '--limit', '--status', '--json', '--jq', '--profile', '--help']))
    expect(values(['runs', 'list', '--org', 'acme', '--status', 'failed', '--'])).not.toContain('--org')
    expect(values(['runs', 'list', '--status', 'failed', '--'])).toContain('--status')
    expect(values(['runs', 'list', '--li'])).toEqual(['--limit'])
    expect(complete(['runs', 'list', '--al'], world()).candidates).toEqual([
      {value: '--all', description: manifest.commands['runs:list'].flags.all.description},
    ])
  })

  it('`help` completes the commands, then the help topics', () => {
    expect(values(['help', ''])).toEqual(expect.arrayContaining(['runs', 'environment', 'exit-codes', 'formatting']))
    expect(values(['help', ''])).not.toContain('help')
    expect(values(['help', 'runs', ''])).toEqual(verbsOf('runs'))
  })
})

describe('complete: values from local state, never the server', () => {
  it('run IDs of the organization in effect (profile, AMCTL_ORG, --org), newest first, with what was seen', () => {
    const runs = complete(['runs', 'watch', ''], world()).candidates
    expect(runs).toEqual([
      {value: 'run_a2', description: 'failed, es_checkout, seen 5m ago'},
      {value: 'run_a1', description: 'succeeded, es_search, seen 3d ago'},
    ])
    expect(values(['runs', 'watch', '--org', 'globex', ''])).toEqual(['run_g1'])
    expect(values(['runs', 'watch', '--org=globex', ''])).toEqual(['run_g1'])
    expect(values(['runs', 'watch', ''], world({env: {AMCTL_ORG: 'globex'}}))).toEqual(['run_g1'])
    expect(values(['runs', 'fork', '--profile', 'prod', ''])).toEqual([])
    // every RUN_ID of runs watch, and the prefix typed
    expect(values(['runs', 'watch', 'run_a2', 'run_a'])).toEqual(['run_a2', 'run_a1'])
    // no organization known: every run, the organization said
    expect(complete(['runs', 'fork', ''], world({profiles: {}})).candidates[1]).toEqual({
      value: 'run_g1',
      description: 'globex, seen 1m ago',
    })
  })

  it('eval set IDs as the argument of evals run|update and the value of --eval-set', () => {
    expect(values(['evals', 'run', ''])).toEqual(['es_checkout'])
    expect(values(['evals', 'update', '--org', 'globex', ''])).toEqual(['es_docs'])
    expect(values(['runs', 'list', '--eval-set', ''])).toEqual(['es_checkout'])
  })

  it("organizations: the profiles' first, then those used lately; profiles and base URLs from the config", () => {
    expect(complete(['runs', 'list', '--org', ''], world()).candidates).toEqual([
      {value: 'acme', description: 'org of profile "default"'},
      {value: 'initech', description: 'org of profile "prod"'},
      {value: 'globex', description: 'used 2h ago'},
    ])
    expect(values(['runs', 'list', '--org=g'])).toEqual(['--org=globex'])
    expect(values(['auth', 'status', '--profile', ''])).toEqual(['default', 'prod'])
    expect(values(['auth', 'login', '--base-url', ''])).toEqual(['https://api.example.com', 'http://127.0.0.1:4010'])
    expect(values(['config', 'set', 'org', ''])).toEqual(['acme', 'initech', 'globex'])
    expect(values(['config', 'get', ''])).toEqual(['base-url', 'org'])
  })

  it('bash splits --org=ac at the =: the value alone is completed, also right after the =', () => {
    expect(values(['runs', 'list', '--org', '=', 'gl'])).toEqual(['globex'])
    expect(values(['runs', 'list', '--org', '='])).toEqual(['acme', 'initech', 'globex'])
  })

  it('--status: the statuses not listed yet after a comma; --cadence and options from the manifest', () => {
    expect(values(['runs', 'list', '--status', ''])).toEqual(['queued', 'running', 'succeeded', 'failed', 'cancelled', 'unfinished'])
    expect(values(['runs', 'list', '--status', 'failed,c'])).toEqual(['failed,cancelled'])
    expect(values(['runs', 'list', '--status', 'failed,cancelled,'])).not.toContain('failed,cancelled,failed')
    expect(values(['evals', 'update', 'es_1', '--cadence', ''])).toEqual(['NONE', 'DAILY', 'WEEKLY', 'MONTHLY'])
    expect(values(['dev', 'server', '--seed', ''])).toEqual(['default', 'empty'])
    // --baseline: its two words, then the runs seen (issue 32 item 20: history was missing)
    expect(values(['runs', 'watch', 'r1', '--baseline', ''])).toEqual(['history', 'previous', 'run_a2', 'run_a1'])
    expect(values(['evals', 'run', 'es_1', '--baseline', 'h'])).toEqual(['history'])
    expect(values(['runs', 'watch', 'r1', '--baseline=p'])).toEqual(['--baseline=previous'])
  })

  it('file names for FILE and PATH flags; nothing for free text', () => {
    expect(complete(['runs', 'fork', 'r', '--input', 'bo'], world())).toEqual({candidates: [], files: true})
    expect(complete(['runs', 'watch', 'r', '--junit', ''], world()).files).toBe(true)
    expect(complete(['optimizations', 'chat', 'c', '--message', ''], world())).toEqual({candidates: [], files: false})
    expect(complete(['runs', 'fork', 'r', ''], world())).toEqual({candidates: [], files: false})
  })

  it('after --, only arguments', () => {
    expect(values(['runs', 'watch', '--', '-'])).toEqual([])
    expect(values(['runs', 'watch', '--', ''])).toEqual(['run_a2', 'run_a1'])
  })
})

describe('the answer the scripts read', () => {
  it('value<TAB>description lines, then :files or :, a description made one safe line', () => {
    expect(completionText({candidates: [{value: 'a', description: 'one\ttwo\nthree\u001b[2J'}, {value: 'b'}], files: false})).toBe(
      'a\tone two three [2J\nb\n:\n',
    )
    expect(completionText({candidates: [], files: true})).toBe(':files\n')
  })

  it('to a script of an earlier version (unquoted insertion), only plain candidates: never one a shell acts on (issue 32 item 1)', () => {
    const candidates = [{value: 'run_1'}, {value: 'run_$(id)'}, {value: 'run `x`'}, {value: '~x'}, {value: '--status=failed,cancelled'}]
    expect(completionText({candidates, files: false}, false)).toBe('run_1\n--status=failed,cancelled\n:\n')
    expect(completionText({candidates, files: false}, true)).toBe('run_1\nrun_$(id)\nrun `x`\n~x\n--status=failed,cancelled\n:\n')
  })

  it('__complete-stdin: one word a line, CRLF too, the empty word under the cursor kept', () => {
    expect(wordsFromLines('runs\r\nwatch\r\n\r\n')).toEqual(['runs', 'watch', ''])
    expect(wordsFromLines('runs\nwa\n')).toEqual(['runs', 'wa'])
    expect(wordsFromLines('\n')).toEqual([''])
  })
})
