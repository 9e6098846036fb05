import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {SnapshotCommand} from '../../bin/generate/commands.js'
import {schemaChanges, snapshotChanges, staleReport} from '../../bin/generate/compat.js'
import {ROOT} from '../helpers/cli.js'

// The checker behind test/generated.test.ts: what a change of a --json schema or of the command
// snapshot means for scripts, on the real checked-in files changed as a pull request would.

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8')
const edited = (text: string, edit: (json: any) => void): string => {
  const json = JSON.parse(text)
  edit(json)
  return `${JSON.stringify(json, null, 2)}\n`
}
const FORK = 'schemas/runs-fork.json'
const SNAPSHOT = 'command-snapshot.json'
const commandOf = (json: any, id: string): SnapshotCommand => json.commands.find((c: SnapshotCommand) => c.command === id)

describe('a --json schema that changed', () => {
  it('a removed member breaks scripts, and the report says so and how to approve it', () => {
    // the code now: Run without `score` (what the checked-in schema still promises)
    const now = edited(read(FORK), (json) => {
      delete json.definitions.Run.properties.score
      json.definitions.Run.required = json.definitions.Run.required.filter((name: string) => name !== 'score')
    })
    const report = staleReport(FORK, read(FORK), now)
    expect(report).toContain('BREAKS SCRIPTS: amctl runs fork: score was removed')
    expect(report).toContain('run `npm run generate`, commit the files, and say so in the release notes')
  })

  it('a retyped member and one that may now be absent break scripts', () => {
    const now = edited(read(FORK), (json) => {
      json.definitions.Run.properties.score.type = ['string', 'null']
      json.definitions.Run.required = json.definitions.Run.required.filter((name: string) => name !== 'agent')
    })
    expect(schemaChanges('amctl runs fork', JSON.parse(read(FORK)), JSON.parse(now))).toEqual([
      {at: 'amctl runs fork: agent', what: 'may now be absent', breaking: true},
      {at: 'amctl runs fork: score', what: 'may now be string (was null or number)', breaking: true},
    ])
  })

  it('an added member does not break scripts', () => {
    const now = edited(read('schemas/runs-list.json'), (json) => {
      json.definitions.Run.properties.duration = {type: 'number'}
    })
    const report = staleReport('schemas/runs-list.json', read('schemas/runs-list.json'), now)
    expect(report).toContain('compatible: amctl runs list: items[].duration was added')
    expect(report).not.toContain('BREAKS SCRIPTS')
    expect(report).toContain('Nothing a script relies on breaks')
  })

  it('an unchanged file is no report', () => {
    expect(staleReport(FORK, read(FORK), read(FORK))).toBeUndefined()
  })
})

describe('the command snapshot that changed', () => {
  it('a removed flag, short form or command breaks scripts; an added flag or command does not', () => {
    const before = JSON.parse(read(SNAPSHOT))
    const after = JSON.parse(
      edited(read(SNAPSHOT), (json) => {
        delete commandOf(json, 'runs:list').flags.limit
        delete commandOf(json, 'api').flags.method.char
        commandOf(json, 'runs:list').flags.page = {type: 'option'}
        json.commands = json.commands.filter((c: SnapshotCommand) => c.command !== 'tags:delete')
        json.commands.push({command: 'runs:rerun', aliases: [], args: [], flags: {}, operations: ['listRuns']})
      }),
    )
    expect(snapshotChanges(before.commands, after.commands)).toEqual([
      {at: 'api --method', what: '-X was removed', breaking: true},
      {at: 'runs list --limit', what: 'the flag was removed', breaking: true},
      {at: 'runs list --page', what: 'a new flag', breaking: false},
      {at: 'tags delete', what: 'the command was removed', breaking: true},
      {at: 'runs rerun', what: 'a new command', breaking: false},
    ])
  })

  it('a new required flag or argument, a flag turned switch, a removed argument break scripts', () => {
    const before = JSON.parse(read(SNAPSHOT))
    const after = JSON.parse(
      edited(read(SNAPSHOT), (json) => {
        commandOf(json, 'runs:list').flags.since.type = 'boolean'
        commandOf(json, 'runs:list').flags.tenant = {type: 'option', required: true}
        commandOf(json, 'runs:fork').args = []
      }),
    )
    const report = staleReport(SNAPSHOT, read(SNAPSHOT), `${JSON.stringify(after, null, 2)}\n`)!
    expect(report.split('\n').filter((line) => line.includes('BREAKS SCRIPTS'))).toEqual([
      '  BREAKS SCRIPTS: runs fork RUN_ID the argument was removed',
      '  BREAKS SCRIPTS: runs list --since the flag is now a switch',
      '  BREAKS SCRIPTS: runs list --tenant a new required flag',
    ])
    expect(snapshotChanges(before.commands, before.commands)).toEqual([])
  })
})
