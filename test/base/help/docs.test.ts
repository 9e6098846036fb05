import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {commandIndex, commandPage, generatedFiles, inline, manFiles, withTopics} from '../../../src/base/help/docs.js'
import {documentedCommands} from '../../../src/base/help/reference.js'
import {HELP_TOPICS} from '../../../src/base/help/topics.js'
import {ROOT} from '../../helpers/cli.js'
import {documentPaths} from '../../helpers/markdown.js'

// docs/commands/ and the help-topic sections of the documents are generated from the manifest and
// src/base/help (the same source as `--help` and `amctl help <topic>`): each is made again here,
// from the build's manifest, and a stale copy fails. Regenerate with `npm run docs`. The man pages
// are made from the same model when the package is packed, and checked here as made. (The
// manifest itself is made by the build: test/manifest.test.ts.)
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const pkg = JSON.parse(read('package.json'))
const manifest = JSON.parse(read('oclif.manifest.json'))
const generated = generatedFiles(manifest, pkg.oclif.topics, '2026-01-01')
const STALE = 'stale: run `npm run docs`'

describe('generated documents', () => {
  it('docs/commands/ holds a page per command and the index, each what the manifest makes', () => {
    const onDisk = readdirSync(join(ROOT, 'docs', 'commands')).map((name) => `docs/commands/${name}`)
    const expected = [...generated.keys()].filter((path) => path.startsWith('docs/commands/'))
    expect(onDisk.sort(), `docs/commands/ ${STALE}`).toEqual(expected.sort())
    for (const path of expected) expect(read(path), `${path} ${STALE}`).toBe(generated.get(path))
  })

  it('a page and a man page for every command a user can run, none for the hidden ones', () => {
    const shown = Object.keys(manifest.commands).filter((id) => !manifest.commands[id].hidden)
    expect(shown).toEqual(expect.arrayContaining(['help', 'autocomplete', 'runs:list', 'orgs:implementation-doc:set']))
    for (const id of shown) {
      expect(generated.has(`docs/commands/${id.replaceAll(':', '-')}.md`), id).toBe(true)
      expect(generated.has(`man/amctl-${id.replaceAll(':', '-')}.1`), id).toBe(true)
    }
    expect(generated.has('docs/commands/autocomplete-create.md')).toBe(false)
  })

  it('no man page is checked in: they are made when the package is packed (bin/release.js, bin/docs.js --man)', () => {
    expect(existsSync(join(ROOT, 'man'))).toBe(false)
    expect(pkg.man).toBeUndefined()
    expect(pkg.files).toContain('man')
    expect(manFiles(manifest)[0]).toBe('./man/amctl.1')
    expect(manFiles(manifest)).toContain('./man/amctl-runs-list.1')
  })

  it('every help topic is in one document, between its markers, as src/base/help/topics.ts says', () => {
    for (const topic of HELP_TOPICS) {
      const holders = documentPaths().filter((path) => read(path).includes(`<!-- help:${topic.name} -->`))
      expect(holders, topic.name).toHaveLength(1)
    }
    for (const path of documentPaths()) expect(read(path), `${path} help topics ${STALE}`).toBe(withTopics(read(path)))
  })

  it('every command has a summary and at least two examples', () => {
    for (const [id, cmd] of Object.entries(manifest.commands) as [string, {summary?: string; examples?: unknown[]}][]) {
      expect(cmd.summary, `${id} summary`).toBeTruthy()
      expect(cmd.examples?.length ?? 0, `${id} examples`).toBeGreaterThanOrEqual(2)
    }
  })
})

describe('a command page', () => {
  const commands = documentedCommands(manifest)
  const page = (id: string) => commandPage(commands.find((c) => c.id === id)!, commands)

  it('has the usage, the flags with their env variables and defaults, the REQUEST line and the examples', () => {
    const watch = page('runs:watch')
    expect(watch).toMatch(/^# amctl runs watch$/m)
    expect(watch).toContain('```text\namctl runs watch RUN_ID... [--interval SECONDS]')
    expect(watch).toContain(
      '| `--wait-timeout DURATION` | stop waiting after 90s, 15m, 2h or N seconds, the search for baselines included; 0 = no limit; exit 11 | `60m` |',
    )
    expect(watch).toContain('| `--org ORG` | organization slug or public ID |  | `AMCTL_ORG` |')
    expect(watch).toContain('## Request\n\n```text\nGET /api/v1/orgs/{org}/runs\n```')
    expect(watch).toContain('```sh\namctl runs watch run_acme_0251 run_acme_0250 --org acme\n')
    expect(watch).toContain('[`amctl runs list`](runs-list.md)')
  })

  it('names the command once in every usage line (amctl(1) once showed `orgs implementation-doc set set`)', () => {
    for (const doc of commands) {
      expect(doc.usage.startsWith(`amctl ${doc.name}`), doc.usage).toBe(true)
      expect(doc.usage.slice(`amctl ${doc.name}`.length), doc.usage).not.toMatch(new RegExp(`^ ${doc.name.split(' ').at(-1)}\\b`))
    }
    expect(generated.get('man/amctl-orgs-implementation-doc-set.1')).toContain('amctl orgs implementation\\-doc set \\-\\-input')
  })

  it('escapes what Markdown would take for emphasis, links or HTML, outside code spans', () => {
    expect(inline('a <url>/device, * any, [env: X_Y], /_dev/ and `a_*<b>`')).toBe(
      'a \\<url\\>/device, \\* any, \\[env: X_Y\\], /\\_dev/ and `a_*<b>`',
    )
    expect(inline('__proto__')).toBe('\\_\\_proto\\_\\_')
    expect(page('dev:server')).toContain('- POST /\\_dev/faults: inject a fault')
  })

  it('the index lists every command under its topic, in the help groups', () => {
    const index = commandIndex(commands, pkg.oclif.topics)
    expect(index.indexOf('## Core commands')).toBeLessThan(index.indexOf('## Administration commands'))
    expect(index).toContain(`### runs\n\n${pkg.oclif.topics.runs.description}\n`)
    for (const doc of commands) expect(index).toContain(`[\`amctl ${doc.name}\`](${doc.slug}.md)`)
  })
})
