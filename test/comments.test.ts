import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'

// A comment that names a file of the repository sends the next reader there: the file must exist.
// Every comment of bin/, src/, bench/ and test/ is read (TypeScript's parser finds them, so a `//` inside a
// string or a regular expression is not one), and every path in it that starts at a top folder of
// the repository (src/…, test/…, docs/…) is looked up. A placeholder ends the path where it starts
// (`src/commands/<topic>/<verb>.ts` is checked as src/commands/); dist/ is the build's, not the
// repository's, and a path relative to a file (`./jq.cjs`) often means its place in dist/: neither
// is checked.

const ROOT = join(import.meta.dirname, '..')
const SCANNED = ['bin', 'src', 'bench', 'test']
const TOP = ['src', 'test', 'bin', 'bench', 'docs', 'patches', 'schemas', 'examples', '.github', '.ci']
/** A path from a top folder: not preceded by what would make it part of a longer path or a URL. */
const CITED = new RegExp(`(?<![\\w./@-])(?:${TOP.map((t) => t.replace('.', '\\.')).join('|')})/[\\w.@/-]*`, 'g')

const walk = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), {withFileTypes: true}).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : /\.[cm]?[jt]s$/.test(entry.name) ? [join(dir, entry.name)] : [],
  )

/**
 * Every comment of a source file. TypeScript's parser finds the literals (strings, templates,
 * regular expressions), where `//` or `/*` is text; outside them both only ever open a comment, so
 * the text between is scanned for them. (Walking every token with getChildren() found the same
 * comments three times slower: this file ran 5 s of the unit suite.)
 */
function commentsOf(file: string, text: string): string[] {
  const kind = /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind)
  const literals: Array<[number, number]> = []
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isRegularExpressionLiteral(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node)) {
      literals.push([node.getStart(source), node.end])
    } else ts.forEachChild(node, visit)
  }
  ts.forEachChild(source, visit)
  literals.sort(([a], [b]) => a - b)
  const comments: string[] = []
  let next = 0
  for (let i = 0; i < text.length; i++) {
    while (next < literals.length && literals[next][1] <= i) next++
    if (next < literals.length && literals[next][0] <= i) {
      i = literals[next][1] - 1
      continue
    }
    if (text[i] !== '/' || (text[i + 1] !== '/' && text[i + 1] !== '*')) continue
    const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2) + 2
    const stop = end <= 1 || end === -1 ? text.length : end
    comments.push(text.slice(i, stop))
    i = stop - 1
  }
  return comments
}

/** The repository paths a comment names (what ends a sentence is not part of one). */
const pathsIn = (comment: string): string[] => [...comment.matchAll(CITED)].map((m) => m[0].replace(/[.,:;]+$/, ''))

describe('comments cite files that exist', () => {
  it('finds the comments and paths it judges, and not what only looks like one', () => {
    const text = [
      "const a = 'see src/nowhere.ts' // src/output/io.ts",
      'const b = /\\/\\/ test\\/x/ /* bin/launcher.cjs, then docs/performance.md. */',
      '// https://example.com/src/x.ts and node_modules/undici/lib/core/util.js and dist/amctl.cjs',
      '// src/commands/<topic>/<verb>.ts',
    ].join('\n')
    const comments = commentsOf('x.ts', text)
    expect(comments).toHaveLength(4)
    expect(comments.flatMap(pathsIn)).toEqual(['src/output/io.ts', 'bin/launcher.cjs', 'docs/performance.md', 'src/commands/'])
  })

  it.each(SCANNED)('in %s/', (dir) => {
    const missing: string[] = []
    let cited = 0
    for (const file of walk(dir)) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      // (the parse is most of this test's time: a file is parsed only when a path anywhere in
      // its text, comment or not, is missing; then only its comments' paths count)
      const anywhere = pathsIn(text)
      cited += anywhere.length
      if (anywhere.every((path) => existsSync(join(ROOT, path)))) continue
      for (const path of commentsOf(file, text).flatMap(pathsIn)) {
        if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${path}`)
      }
    }
    expect(cited, 'the scan found paths to check').toBeGreaterThan(10)
    expect(missing).toEqual([])
  })
})
