import {execFile} from 'node:child_process'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {promisify} from 'node:util'
import {describe, expect, it} from 'vitest'
import {generatedFiles} from '../../../src/base/help/docs.js'
import {documentedCommands} from '../../../src/base/help/reference.js'
import {ROOT} from '../../helpers/cli.js'
import {sealedEnv} from '../../helpers/env.js'
import {tempDir} from '../../helpers/temp.js'

// The man pages as groff sets them (groff, a program: the integration project; the pages
// themselves are checked in ./docs.test.ts).

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const pkg = JSON.parse(read('package.json'))
const manifest = JSON.parse(read('oclif.manifest.json'))
const generated = generatedFiles(manifest, pkg.oclif.topics, '2026-01-01')
const groff = (args: string[]) => promisify(execFile)('groff', args, {encoding: 'utf8', env: sealedEnv()})

describe('generated documents', () => {
  it.runIf(existsSync('/usr/bin/groff'))(
    'the man pages render with groff -man: amctl(1) names every command, each page its own',
    async () => {
      // groff shows bold as a character, a backspace and the character again, and breaks words at
      // a hyphen (U+2010) of its own: read it without either. The pages render side by side.
      const dir = tempDir('amctl-man-')
      const render = async (file: string) => {
        writeFileSync(join(dir, file.replace('man/', '')), generated.get(file) as string)
        return (await groff(['-t', '-man', '-Tutf8', join(dir, file.replace('man/', ''))])).stdout
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
      const {stdout} = await groff(['-man', '-Tutf8', file])
      const text = stdout.replace(/.\u0008/g, '')
      expect(text).not.toMatch(/\u00e2/) // "â": UTF-8 read as Latin-1
      expect(text).toContain('page size, 1\u2013200')
      expect(text).toMatch(/\{"items":\[\u2026\]\}/)
      // the command's name as a shell takes it: ASCII hyphen-minus, never U+2010
      expect(text.split('\n').map((line) => line.trim())).toContain(`amctl-runs-list - ${manifest.commands['runs:list'].summary}`)
      // no word broken by hyphenation: a synopsis or a flag stays as a shell takes it
      expect(text).not.toContain('\u2010')
      expect(text.replace(/\s+/g, ' ')).toContain('[--since DURATION|DATE] [--until DURATION|DATE]')
    },
  )
})
