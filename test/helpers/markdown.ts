import GithubSlugger from 'github-slugger'
import {Lexer, Marked, type Token, type Tokens} from 'marked'
import {existsSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {ROOT} from './cli.js'

/**
 * The documents of the repository as the tests read them: their links and anchors (the link
 * checker in test/docs.test.ts) and the `amctl` lines of their shell blocks (run by
 * test/e2e/examples.test.ts). Parsed with marked's lexer, the Markdown parser the man pages are
 * made with, and GitHub's own anchor rules (github-slugger); a link checker from npm would also
 * fetch every web address, which these tests must not depend on.
 */

/** README.md, CONTRIBUTING.md and every .md under docs/, as paths relative to the repository. */
export function documentPaths(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), {withFileTypes: true})
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((entry) => (entry.isDirectory() ? under(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []))
  return ['README.md', 'CONTRIBUTING.md', ...under('docs')].filter((path) => existsSync(join(ROOT, path)))
}

const walker = new Marked()
/** Every token of `tokens` in document order, inside lists and tables too. */
function walk(tokens: Token[], visit: (token: Token) => void): void {
  walker.walkTokens(tokens, visit)
}

const ENTITIES: Record<string, string> = {'&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'"}
/** Text as marked escapes it for HTML (the five entities it writes), read back. */
export const unescapeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity])

/** What a heading shows: its text without Markdown (the text GitHub makes the anchor from). */
function shownText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if ('tokens' in token && Array.isArray(token.tokens) && token.type !== 'codespan') return shownText(token.tokens)
      if (token.type === 'html') return ''
      return 'text' in token ? unescapeHtml(String(token.text)) : ''
    })
    .join('')
}

/** The `#anchors` a document has: its headings' slugs as GitHub makes them, and `id`/`name` of HTML anchors. */
export function anchorsOf(text: string): Set<string> {
  const slugger = new GithubSlugger()
  const anchors = new Set<string>()
  walk(Lexer.lex(text), (token) => {
    if (token.type === 'heading') anchors.add(slugger.slug(shownText((token as Tokens.Heading).tokens)))
    if (token.type === 'html') for (const [, id] of token.raw.matchAll(/\s(?:id|name)="([^"]+)"/g)) anchors.add(id)
  })
  return anchors
}

/** Every link and image target of a document, in order. */
export function linksOf(text: string): string[] {
  const hrefs: string[] = []
  walk(Lexer.lex(text), (token) => {
    if (token.type === 'link' || token.type === 'image') hrefs.push((token as Tokens.Link).href)
  })
  return hrefs
}

/** A link that leaves the repository (a web address, mail): not the link checker's business. */
export const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')

/**
 * What a marker before a shell block says about its `amctl` lines:
 *   <!-- not-runnable: REASON -->   they are not run by the tests (REASON says why)
 *   <!-- exits N: REASON -->        they are run and must exit N
 * Without a marker they are run and must exit 0.
 */
export type Marker = {kind: 'not-runnable'; reason: string} | {kind: 'exits'; exit: number; reason: string}

const MARKER = /^<!--\s*(not-runnable|exits (\d+)):\s*(.*?)\s*-->\s*$/

export function parseMarker(html: string): Marker | undefined {
  const match = MARKER.exec(html.trim())
  if (!match) return undefined
  return match[1] === 'not-runnable' ? {kind: 'not-runnable', reason: match[3]} : {kind: 'exits', exit: Number(match[2]), reason: match[3]}
}

/** A comment that looks like a marker, misspelt or not: one away from its block is a mistake. */
const looksLikeMarker = (html: string) => /^<!--\s*(not\b|exit)/i.test(html.trim())

export interface ShellLine {
  /** the document, relative to the repository */
  file: string
  /** the command, its continuation lines (ending in `\`) joined */
  command: string
  marker?: Marker
}

export interface ShellBlock {
  file: string
  lang: string
  text: string
  marker?: Marker
  /** the paragraph just before the block (its marker aside), which introduces it */
  intro?: string
}

/**
 * The fenced shell blocks of a document (`sh`, `bash`, `shell`), each with the marker just before
 * it, and the mistakes: a comment just before a shell block that is not a marker (a misspelt one
 * would silently run, or skip, the block), and a marker that is not just before a shell block.
 */
export function shellBlocksOf(file: string, text: string): {blocks: ShellBlock[]; mistakes: string[]} {
  const blocks: ShellBlock[] = []
  const mistakes: string[] = []
  let comment: string | undefined
  let intro: string | undefined
  walk(Lexer.lex(text), (token) => {
    if (token.type === 'space') return
    if (token.type === 'code' && ['sh', 'bash', 'shell'].includes((token as Tokens.Code).lang ?? '')) {
      const marker = comment === undefined ? undefined : parseMarker(comment)
      if (comment !== undefined && !marker) mistakes.push(`${comment.trim()} is not a marker (not-runnable: REASON, exits N: REASON)`)
      blocks.push({file, lang: (token as Tokens.Code).lang ?? '', text: (token as Tokens.Code).text, marker, intro})
      comment = undefined
      intro = undefined
      return
    }
    // a block's introduction is the paragraph right before it; any other block in between ends it
    if (token.type === 'paragraph') intro = (token as Tokens.Paragraph).text
    else if (['heading', 'list', 'table', 'code', 'blockquote', 'hr'].includes(token.type)) intro = undefined
    if (comment !== undefined && looksLikeMarker(comment)) mistakes.push(`${comment.trim()} is not just before a shell block`)
    comment = token.type === 'html' && token.raw.trim().startsWith('<!--') ? token.raw : undefined
  })
  if (comment !== undefined && looksLikeMarker(comment)) mistakes.push(`${comment.trim()} is not just before a shell block`)
  return {blocks, mistakes}
}

/** The lines of a shell block that start with `amctl` (after any `VAR=value`), continuation lines joined. */
export function amctlLines(block: ShellBlock): ShellLine[] {
  const lines: string[] = []
  let carried = ''
  for (const line of block.text.split('\n')) {
    if (line.endsWith('\\')) {
      carried += `${line.slice(0, -1)} `
      continue
    }
    lines.push(carried + line)
    carried = ''
  }
  if (carried) lines.push(carried)
  return lines
    .map((line) => line.trim())
    .filter((line) => /^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*amctl(\s|$)/.test(line))
    .map((command) => ({file: block.file, command, marker: block.marker}))
}

/**
 * The first table after the comment `<!-- NAME -->` of a document (a table the tests hold to
 * the output it describes): its header and rows, each cell's Markdown as written.
 */
export function tableAfter(text: string, name: string): {header: string[]; rows: string[][]} {
  let seen = false
  let table: Tokens.Table | undefined
  walk(Lexer.lex(text), (token) => {
    if (table) return
    if (token.type === 'html' && token.raw.trim() === `<!-- ${name} -->`) seen = true
    else if (seen && token.type === 'table') table = token as Tokens.Table
  })
  if (!table) throw new Error(`no table after <!-- ${name} -->`)
  return {header: table.header.map((cell) => cell.text), rows: table.rows.map((row) => row.map((cell) => cell.text))}
}
