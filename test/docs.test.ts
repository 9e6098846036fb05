import {existsSync, readFileSync, statSync} from 'node:fs'
import {dirname, join, normalize} from 'node:path'
import {describe, expect, it} from 'vitest'
import {ROOT} from './helpers/cli.js'
import {amctlLines, anchorsOf, documentPaths, isExternal, linksOf, shellBlocksOf} from './helpers/markdown.js'

// The documents a user reads: README.md, CONTRIBUTING.md and docs/. Their relative links must
// lead somewhere, the README must stay short and keep its first commands, and every shell block's
// marker must be one the examples runner (test/e2e/examples.test.ts) understands.

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const DOCUMENTS = documentPaths()

/** Where a relative link of `from` leads: the file (a directory's README.md) and the anchor. */
function target(from: string, href: string): {path: string; anchor?: string} {
  const [pathPart, anchor] = href.split('#', 2) as [string, string | undefined]
  if (pathPart === '') return {path: from, anchor}
  let path = normalize(join(dirname(from), decodeURIComponent(pathPart)))
  if (existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isDirectory()) path = join(path, 'README.md')
  return {path, anchor}
}

describe('README.md', () => {
  const readme = read('README.md')

  it('is at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200)
  })

  it('starts with the two first commands: install and demo, then the tests', () => {
    // (the commands and their order; what the comments say is the README's own)
    const [title, blank, fence, install, test, end] = readme.split('\n').slice(0, 6)
    expect([title, blank, fence, end]).toEqual(['# amctl', '', '```sh', '```'])
    expect(install).toMatch(/^npm install && npm run demo +# \S/)
    expect(test).toMatch(/^npm test +# .*\babout \d+ minutes? on 2 idle cores$/)
  })

  it('says, above the install table, that what it lists is published with the first release', () => {
    const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('| from |'))
    expect(install).toMatch(/first release/)
  })

  it('says how long the test suite takes, beside its command', () => {
    expect(readme.split('\n')[4]).toMatch(/^npm test +# .*\babout \d+ minutes\b/)
  })
})

describe('docs/ci.md, the CI guide', () => {
  it('is at most 150 lines, puts its pitfalls first, and links the reference and the measurements', () => {
    const text = read('docs/ci.md')
    expect(text.split('\n').length).toBeLessThanOrEqual(150)
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1])
    expect(headings[0]).toMatch(/first/)
    const links = linksOf(text)
    for (const page of ['ci-reference.md', 'gate-measurements.md']) expect(links.some((href) => href.startsWith(page))).toBe(true)
  })
})

describe('the documents', () => {
  it('are README.md, CONTRIBUTING.md and the pages of docs/', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/install.md', 'docs/commands/README.md']))
  })

  it('link only to files that exist, and to #anchors their headings make (GitHub rules)', () => {
    const anchors = new Map<string, Set<string>>()
    const anchorsIn = (path: string) => {
      if (!anchors.has(path)) anchors.set(path, anchorsOf(read(path)))
      return anchors.get(path) as Set<string>
    }
    const dead: string[] = []
    for (const doc of DOCUMENTS) {
      for (const href of linksOf(read(doc))) {
        if (isExternal(href)) continue
        const {path, anchor} = target(doc, href)
        if (!existsSync(join(ROOT, path))) dead.push(`${doc}: ${href} (no ${path})`)
        else if (anchor !== undefined && path.endsWith('.md') && !anchorsIn(path).has(anchor))
          dead.push(`${doc}: ${href} (no heading makes #${anchor} in ${path})`)
      }
    }
    expect(dead).toEqual([])
  })

  it('can all be reached from README.md by following links', () => {
    const reached = new Set<string>()
    const visit = (doc: string) => {
      if (reached.has(doc) || !doc.endsWith('.md') || !existsSync(join(ROOT, doc))) return
      reached.add(doc)
      for (const href of linksOf(read(doc))) if (!isExternal(href)) visit(target(doc, href).path)
    }
    visit('README.md')
    expect(DOCUMENTS.filter((doc) => !reached.has(doc))).toEqual([])
  })

  it('mark shell blocks only with a well-formed marker, with a reason, just before the block', () => {
    const problems: string[] = []
    for (const doc of DOCUMENTS) {
      const {blocks, mistakes} = shellBlocksOf(doc, read(doc))
      for (const mistake of mistakes) problems.push(`${doc}: ${mistake}`)
      for (const block of blocks) {
        if (block.marker && block.marker.reason === '') problems.push(`${doc}: a marker without a reason before\n${block.text}`)
        if (block.marker && amctlLines(block).length === 0)
          problems.push(`${doc}: a marker before a block without an amctl line\n${block.text}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('run every example whose introduction states its exit code with that exit code', () => {
    // "…, else it exits 2:" before a block is a promise about that block: its marker must say so
    const problems: string[] = []
    for (const doc of DOCUMENTS) {
      for (const block of shellBlocksOf(doc, read(doc)).blocks) {
        if (block.intro === undefined || amctlLines(block).length === 0) continue
        const last = block.intro
          .trim()
          .split(/(?<=[.!?])\s+/)
          .at(-1) as string
        if (!last.endsWith(':')) continue
        const stated = [...last.matchAll(/\bexit(?:s|ing)?(?: code)? (\d+)/g)].map((m) => Number(m[1]))
        if (stated.length === 0) continue
        const runs = block.marker?.kind === 'not-runnable' ? undefined : block.marker?.kind === 'exits' ? block.marker.exit : 0
        if (runs === undefined || !stated.includes(runs)) {
          problems.push(
            `${doc}: "${last}" states exit ${stated.join(' or ')}, the block ${runs === undefined ? 'is not run' : `is run for exit ${runs}`}`,
          )
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('give no internal history (issue numbers, sessions)', () => {
    for (const doc of DOCUMENTS) expect(read(doc), doc).not.toMatch(/\bissue \d+|\bthis session\b/i)
  })
})
