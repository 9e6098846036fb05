import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {manPage, readmeWithTopics} from '../../../src/base/help/docs.js'
import {ROOT} from '../../helpers/cli.js'

// The README's help-topic sections and the man page are generated from src/base/help (the same
// source as `amctl help <topic>`); stale copies fail here. Regenerate with `npm run docs`.
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const manifest = JSON.parse(read('oclif.manifest.json'))
const withoutDate = (roff: string) => roff.replace(/^\.TH .*$/m, '.TH')

describe('generated documents', () => {
  it('README.md help topics are what src/base/help/topics.ts says', () => {
    const readme = read('README.md')
    expect(readme, 'README help topics are stale: run `npm run docs`').toBe(readmeWithTopics(readme))
    for (const name of ['environment', 'exit-codes', 'formatting']) expect(readme).toContain(`<!-- help:${name} -->`)
  })

  it('man/amctl.1 is what the manifest and the help topics make', () => {
    expect(withoutDate(read('man/amctl.1')), 'man/amctl.1 is stale: run `npm run docs`').toBe(withoutDate(manPage(manifest, '2026-01-01')))
  })

  it('package.json ships the man page, so `npm install -g` installs it', () => {
    const pkg = JSON.parse(read('package.json'))
    expect(pkg.man).toEqual(['./man/amctl.1'])
    expect(pkg.files).toContain('man')
  })

  it.runIf(existsSync('/usr/bin/groff'))('renders with groff -man, every command in it', () => {
    // groff shows bold as a character, a backspace and the character again: read it without
    const text = execFileSync('groff', ['-man', '-Tutf8', join(ROOT, 'man', 'amctl.1')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).replace(/.\u0008/g, '')
    expect(text).toMatch(/^AMCTL\(1\)/m)
    for (const heading of ['NAME', 'SYNOPSIS', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS']) expect(text).toContain(heading)
    // (hidden commands, autocomplete's plumbing, are not in the man page)
    const shown = Object.keys(manifest.commands).filter((id) => !manifest.commands[id].hidden)
    for (const id of shown) expect(text.replace(/\s+/g, ' ')).toContain(`amctl ${id.replaceAll(':', ' ')}`)
  })
})
