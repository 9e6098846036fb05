import {execFile} from 'node:child_process'
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {promisify} from 'node:util'
import {describe, expect, it} from 'vitest'
import {commandIndex, commandPage, generatedFiles, inline, manFiles, withTopics} from '../../../src/base/help/docs.js'
import {documentedCommands} from '../../../src/base/help/reference.js'
import {HELP_TOPICS} from '../../../src/base/help/topics.js'
import {ROOT} from '../../helpers/cli.js'
import {documentPaths} from '../../helpers/markdown.js'
import {tempDir} from '../../helpers/temp.js'

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

  it.runIf(existsSync('/usr/bin/groff'))(
    'the man pages render with groff -man: amctl(1) names every command, each page its own',
    async () => {
      // groff shows bold as a character, a backspace and the character again, and breaks words at
      // a hyphen (U+2010) of its own: read it without either. The pages render side by side.
      const dir = tempDir('amctl-man-')
      const render = async (file: string) => {
        writeFileSync(join(dir, file.replace('man/', '')), generated.get(file) as string)
        return (
          await promisify(execFile)('groff', ['-t', '-man', '-Tutf8', join(dir, file.replace('man/', ''))], {encoding: 'utf8'})
        ).stdout
          .replace(/.\u0008/g, '')
          .replace(/\u2010\s+/g, '')
          .replace(/\s+/g, ' ')
      }
      const commands = documentedCommands(manifest)
      const [overview, ...pages] = await Promise.all(['man/amctl.1', ...commands.map((doc) => `man/amctl-${doc.slug}.1`)].map(render))
      expect(overview).toMatch(/^AMCTL\(1\)/)
      for (const heading of ['NAME', 'SYNOPSIS', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS', 'SEE ALSO']) expect(overview).toContain(heading)
      for (const [i, doc] of commands.entries()) {
        expect(overview).toContain(`amctl ${doc.name}`)
        expect(overview).toContain(`amctl-${doc.slug}(1)`)
        const page = pages[i]
        expect(page).toContain(`AMCTL-${doc.slug.toUpperCase()}(1)`)
        for (const heading of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'EXAMPLES', 'SEE ALSO']) expect(page, doc.id).toContain(heading)
        expect(page).toContain(`amctl ${doc.name}`)
      }
    },
  )
})

describe('the man pages as groff sets them', () => {
  it.runIf(existsSync('/usr/bin/groff'))(
    'groff -man -Tutf8, without preconv: en dashes, ellipses and the NAME line come out as written',
    async () => {
      const file = join(tempDir('amctl-man-'), 'amctl-runs-list.1')
      writeFileSync(file, generated.get('man/amctl-runs-list.1') as string)
      // the source is ASCII: what is beyond it is written as groff escapes, which any groff reads
      expect(readFileSync(file, 'utf8')).toMatch(/^[\x00-\x7f]*$/)
      const {stdout} = await promisify(execFile)('groff', ['-man', '-Tutf8', file], {encoding: 'utf8'})
      const text = stdout.replace(/.\u0008/g, '')
      expect(text).not.toMatch(/\u00e2/) // "â": UTF-8 read as Latin-1
      expect(text).toContain('page size, 1\u2013200')
      expect(text).toMatch(/\{"items":\[\u2026\]\}/)
      // the command's name as a shell takes it: ASCII hyphen-minus, never U+2010
      expect(text).toMatch(/^ +amctl-runs-list - List runs of the organization, newest first$/m)
      // no word broken by hyphenation: a synopsis or a flag stays as a shell takes it
      expect(text).not.toContain('\u2010')
      expect(text.replace(/\s+/g, ' ')).toContain('[--since DURATION|DATE] [--until DURATION|DATE]')
    },
  )
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
    expect(index).toContain('### runs\n\nList, fork and watch runs\n')
    for (const doc of commands) expect(index).toContain(`[\`amctl ${doc.name}\`](${doc.slug}.md)`)
  })
})
