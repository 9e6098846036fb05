import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {HELP_TOPICS} from '../src/base/help/topics.js'

// Prose is said once and checked once (issue 31 §2). The descriptions of topics, commands and
// flags, and the help topics, are the source of the help and of the generated pages; their one
// snapshot is what `npm run docs` writes (docs/commands/ and the help sections of docs/), which
// test/base/help/docs.test.ts holds to the source ("stale: run `npm run docs`"). Every other test
// checks the help by its structure (sections, flags, examples that run), or compares it with the
// source it comes from, never with a copy of the words: changing a topic's description breaks
// that one snapshot, nothing else. And no assertion anywhere pins more than one sentence of
// prose: a message is checked by its parts (the error line, the code, the hint) one at a time.

const root = join(import.meta.dirname, '..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const walk = (dir: string): string[] =>
  readdirSync(join(root, dir), {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )

/** A run of at least four words, as prose has it (not a table row, a path or an identifier). */
const PROSE = /[A-Za-z][\w'’-]*(?: [\w(`'"][\w'’`"(),/.-]*){3,}/

/** The sentences of a text: split after . ! ? (and at paragraph breaks), those that are prose. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[\w)`'"])[.!?](?=\s|$)|\n\s*\n/)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter((sentence) => PROSE.test(sentence))
}

/** The sentences of what a command writes: each line is one at least (an error line, its hint). */
const outputSentences = (text: string): string[] => text.split('\n').flatMap(sentences)

interface Described {
  summary?: string
  description?: string
  flags?: Record<string, {summary?: string; description?: string}>
}

/** Every sentence of the descriptions the help and the generated pages are made from. */
function describedSentences(): string[] {
  const pkg = JSON.parse(read('package.json')) as {oclif: {topics: Record<string, {description: string}>}}
  const manifest = JSON.parse(read('oclif.manifest.json')) as {commands: Record<string, Described>}
  const texts = [
    ...Object.values(pkg.oclif.topics).map((topic) => topic.description),
    ...Object.values(manifest.commands).flatMap((command) => [
      command.summary,
      command.description,
      ...Object.values(command.flags ?? {}).flatMap((flag) => [flag.summary, flag.description]),
    ]),
    ...HELP_TOPICS.flatMap((topic) => [
      topic.summary,
      ...topic.blocks.flatMap((block) =>
        block.kind === 'text' ? [block.text] : block.kind === 'list' ? block.items : block.rows.map((row) => row.join(' ')),
      ),
    ]),
  ]
  // (a sentence shorter than this is a label, not prose: "Tags", "MCP servers")
  return [...new Set(texts.flatMap((text) => (text === undefined ? [] : sentences(text))))].filter((s) => s.length >= 24)
}

/** The string literals that tests hand to a matcher, with where they are. */
function assertedLiterals(): Array<{where: string; text: string}> {
  const matcher =
    /\.(?:toContain|toBe|toMatch|toEqual|toStrictEqual|toThrow|toContainEqual|toMatchObject)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/gs
  return walk('test').flatMap((file) => {
    const source = read(file)
    return [...source.matchAll(matcher)].map((match) => ({
      where: `${file}:${source.slice(0, match.index).split('\n').length}`,
      // (what a template interpolates is not prose of the test's)
      text: match[2]
        .replace(/\$\{[^}]*\}/g, 'X')
        .replace(/\\n/g, '\n')
        .replace(/\\(.)/g, '$1'),
    }))
  })
}

describe('prose is said once and checked once', () => {
  const described = describedSentences()
  const literals = assertedLiterals()

  it('finds what it judges (the scans are not empty)', () => {
    expect(described.length).toBeGreaterThan(200)
    // (every topic's description is among them, whatever it says)
    const {topics} = JSON.parse(read('package.json')).oclif as {topics: Record<string, {description: string}>}
    for (const {description} of Object.values(topics)) if (description.length >= 24) expect(described).toContain(description)
    expect(literals.length).toBeGreaterThan(1000)
  })

  it('no test copies a description or a help topic: the help is checked by its structure or against its source, its words by the one snapshot `npm run docs` writes', () => {
    const copies = walk('test')
      .filter((file) => file !== 'test/prose.test.ts')
      .flatMap((file) => {
        const source = read(file).replace(/\s+/g, ' ')
        return described.filter((sentence) => source.includes(sentence)).map((sentence) => `${file}: "${sentence}"`)
      })
    expect(copies, 'compare with oclif.manifest.json, package.json or src/base/help/topics.ts instead, or check the structure').toEqual([])
  })

  it('no assertion pins more than one sentence of prose: check a message by its parts', () => {
    const long = literals.filter(({text}) => outputSentences(text).length > 1).map(({where, text}) => `${where}: ${text.slice(0, 120)}`)
    expect(long).toEqual([])
  })
})
