import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {SnapshotCommand} from '../../bin/generate/commands.js'
import {allowsBreaking, releaseReport, schemaChanges, snapshotChanges, staleReport} from '../../bin/generate/compat.js'
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

const RELEASE_SNAPSHOT = 'release-snapshot'

describe('the contract compared with the last release (release-snapshot/)', () => {
  const files = (): Map<string, string> =>
    new Map([
      [SNAPSHOT, read(`${RELEASE_SNAPSHOT}/${SNAPSHOT}`)],
      [FORK, read(`${RELEASE_SNAPSHOT}/${FORK}`)],
    ])
  // a pull request that removes `runs list --limit` and ran `npm run generate`: the checked-in
  // snapshot is what the code makes, so the staleness check has nothing to say
  const withoutLimit = edited(read(`${RELEASE_SNAPSHOT}/${SNAPSHOT}`), (json) => {
    delete commandOf(json, 'runs:list').flags.limit
  })
  const released = () => ({version: '0.1.0', files: files(), from: `${RELEASE_SNAPSHOT}/`})
  const current = new Map([
    [SNAPSHOT, withoutLimit],
    [FORK, read(`${RELEASE_SNAPSHOT}/${FORK}`)],
  ])

  it('a breaking change regenerated and committed still fails, naming it, until the version says it breaks', () => {
    expect(staleReport(SNAPSHOT, withoutLimit, withoutLimit)).toBeUndefined()
    const report = releaseReport({released: released(), current: {version: '0.1.0', files: current}})
    expect(report?.split('\n')).toEqual([
      'These changes break scripts written for amctl 0.1.0, the last release (release-snapshot/):',
      '  BREAKS SCRIPTS: runs list --limit the flag was removed',
      "package.json's version 0.1.0 does not say so. Keep the old form, or set the version to 0.2.0 (a new major version; while amctl is 0.x, a new minor one) and name each change in the release notes (docs/scripting.md).",
    ])
    // a patch release does not say it either; a new minor while 0.x, or a new major, does
    expect(releaseReport({released: released(), current: {version: '0.1.7', files: current}})).toContain('set the version to 0.2.0')
    expect(releaseReport({released: released(), current: {version: '0.2.0', files: current}})).toBeUndefined()
  })

  it('additions need no new version; a schema or command gone is a break', () => {
    const added = new Map([...files(), ['schemas/runs-logs.json', read(FORK)]])
    expect(releaseReport({released: released(), current: {version: '0.1.0', files: added}})).toBeUndefined()
    const gone = new Map([[SNAPSHOT, read(`${RELEASE_SNAPSHOT}/${SNAPSHOT}`)]])
    expect(releaseReport({released: released(), current: {version: '0.1.0', files: gone}})).toContain(
      '  BREAKS SCRIPTS: amctl runs fork prints no --json document any more',
    )
  })

  it('a version says it breaks with a new major, or while 0.x a new minor (npm reads ^0.1.0 as 0.1.x)', () => {
    expect(allowsBreaking('0.1.0', '0.1.9')).toBe(false)
    expect(allowsBreaking('0.1.0', '0.2.0')).toBe(true)
    expect(allowsBreaking('0.1.0', '1.0.0')).toBe(true)
    expect(allowsBreaking('1.2.0', '1.9.0')).toBe(false)
    expect(allowsBreaking('1.2.0', '2.0.0-rc.1')).toBe(true)
    expect(allowsBreaking('1.2.0', '0.9.0')).toBe(false)
    expect(() => allowsBreaking('1.2', '2.0.0')).toThrow('"1.2" is not a version of the form MAJOR.MINOR.PATCH')
  })
})
