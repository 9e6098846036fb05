import type {Command} from '@oclif/core'
import {describe, expect, it} from 'vitest'
import {commandDoc, documentedCommands, topicGroups} from '../../../src/base/help/reference.js'

// The model each command's page and man page are written from: what it takes from a command's
// cached definition (the manifest), as `--help` shows it.

const flag = (extra: Partial<Command.Flag.Cached>): Command.Flag.Cached => ({name: 'x', type: 'boolean', ...extra}) as Command.Flag.Cached

const watch = {
  id: 'runs:watch',
  summary: 'Wait until runs finish',
  description: 'Polls the run list.\n\nTest hooks:\n  POST /_dev/faults: inject\n  GET /_dev/faults: list\nA pattern matches.',
  strict: false,
  args: {run_id: {name: 'run_id', description: 'a run ID', required: true}},
  flags: {
    org: flag({name: 'org', type: 'option', helpValue: 'ORG', helpGroup: 'GLOBAL', description: 'organization slug [env: AMCTL_ORG]'}),
    json: flag({name: 'json', description: 'one JSON document'}),
    'wait-timeout': flag({
      name: 'wait-timeout',
      type: 'option',
      helpValue: 'DURATION',
      helpGroup: 'WAIT',
      description: 'stop after 90s or 15m (default 60m); exit 11',
    }),
    seed: flag({name: 'seed', type: 'option', default: 'default', options: ['default', 'empty'], description: 'initial data'}),
    connection: flag({name: 'connection', type: 'option', multiple: true, description: 'a connection ID'}),
    secret: flag({name: 'secret', hidden: true}),
  },
  examples: [
    '<%= config.bin %> <%= command.id %> run_1',
    {description: 'From <%= config.bin %> itself', command: 'echo run_1 | <%= config.bin %> <%= command.id %> -'},
  ],
  operations: ['listRuns'],
} as unknown as Command.Cached

describe('commandDoc', () => {
  const doc = commandDoc(watch)

  it('names the command, its page and its usage line as the help does', () => {
    expect(doc).toMatchObject({id: 'runs:watch', name: 'runs watch', slug: 'runs-watch', topic: 'runs', summary: 'Wait until runs finish'})
    expect(doc.usage).toBe('amctl runs watch RUN_ID... [--wait-timeout DURATION] [--seed <value>] [--connection <value>]... [GLOBAL FLAGS]')
  })

  it('takes env and default out of a flag description, keeps options, and groups flags: own, others, global last', () => {
    expect(doc.flagGroups.map((g) => g.title)).toEqual(['FLAGS', 'WAIT FLAGS', 'GLOBAL FLAGS'])
    const [own, wait, global] = doc.flagGroups
    expect(own.flags.map((f) => f.spelled)).toEqual(['--connection <value>', '--seed <value>'])
    expect(own.flags[0]).toMatchObject({multiple: true, default: undefined})
    expect(own.flags[1]).toMatchObject({default: 'default', options: ['default', 'empty']})
    expect(wait.flags[0]).toEqual({
      spelled: '--wait-timeout DURATION',
      description: 'stop after 90s or 15m; exit 11',
      env: undefined,
      default: '60m',
      options: undefined,
      required: false,
      multiple: false,
    })
    expect(global.flags.map((f) => [f.spelled, f.description, f.env])).toEqual([
      ['--json', 'one JSON document', undefined],
      ['--org ORG', 'organization slug', 'AMCTL_ORG'],
    ])
  })

  it('splits the description into paragraphs, indented lines becoming items of the one before', () => {
    expect(doc.paragraphs).toEqual([
      {text: 'Polls the run list.', items: []},
      {text: 'Test hooks:', items: ['POST /_dev/faults: inject', 'GET /_dev/faults: list']},
      {text: 'A pattern matches.', items: []},
    ])
  })

  it('fills in the templates of examples, and names the requests from its operations', () => {
    expect(doc.examples).toEqual([
      {command: 'amctl runs watch run_1'},
      {description: 'From amctl itself', command: 'echo run_1 | amctl runs watch -'},
    ])
    expect(doc.requests).toEqual(['GET /api/v1/orgs/{org}/runs'])
    expect(doc.args).toEqual([{name: 'RUN_ID', description: 'a run ID', required: true, options: undefined}])
  })

  it('leaves hidden commands out, and groups topics as the root help does', () => {
    const manifest = {
      version: '1.0.0',
      commands: {
        'runs:watch': watch,
        'autocomplete:script': {...watch, id: 'autocomplete:script', hidden: true},
        api: {...watch, id: 'api', summary: 'Send any request.'},
      } as unknown as Record<string, Command.Cached>,
    }
    const docs = documentedCommands(manifest)
    expect(docs.map((d) => d.id)).toEqual(['api', 'runs:watch'])
    expect(docs[0].summary).toBe('Send any request')
    expect(topicGroups(docs, {runs: {description: 'Runs'}})).toEqual([
      {title: 'CORE COMMANDS', topics: [{name: 'runs', description: 'Runs', commands: [docs[1]]}]},
      {title: 'TOOLS', topics: [{name: 'api', description: 'Send any request', commands: [docs[0]]}]},
    ])
  })
})
