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

/** Every comment of a source file, by TypeScript's parser (each once, whichever node it sits by). */
function commentsOf(file: string, text: string): string[] {
  const kind = /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
  const found = new Map<number, string>()
  const visit = (node: ts.Node) => {
    const ranges = [...(ts.getLeadingCommentRanges(text, node.pos) ?? []), ...(ts.getTrailingCommentRanges(text, node.end) ?? [])]
    for (const range of ranges) found.set(range.pos, text.slice(range.pos, range.end))
    for (const child of node.getChildren(source)) visit(child)
  }
  visit(source)
  return [...found].sort(([a], [b]) => a - b).map(([, comment]) => comment)
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
      for (const path of commentsOf(file, readFileSync(join(ROOT, file), 'utf8')).flatMap(pathsIn)) {
        cited++
        if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${path}`)
      }
    }
    expect(cited, 'the scan found paths to check').toBeGreaterThan(10)
    expect(missing).toEqual([])
  })
})
