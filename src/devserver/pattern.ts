import {invalid} from './errors.js'

/**
 * Path patterns of the `/_dev/` hooks (a fault rule's `match.path`, the request log's `?path=`).
 * A pattern matches a path that contains it; `^` at its start ties it to the path's start, `$` at
 * its end to the path's end, and `*` stands for any characters (none included). Everything else
 * is literal. `^/api/v1/me$` is exactly that path, `/runs$` any path ending so, `/orgs/*` + `/runs`
 * any runs below an org.
 *
 * Hand-written on purpose: a regular expression sent by a caller can backtrack for minutes
 * (`(a+)+$`), and glob libraries compile to regular expressions too. Here matching is a few
 * `indexOf` calls, linear in the path for each literal piece.
 */

export const MAX_PATTERN_LENGTH = 500
/** Characters (and `.*`) that only mean something in a regular expression: refused, so a regex is not silently taken literally. */
const REGEX_ONLY = /[\\()[\]{}+|]/

export type PathMatcher = (path: string) => boolean

export function compilePattern(source: string, member: string): PathMatcher {
  if (source.length > MAX_PATTERN_LENGTH) throw invalid(`${member} must be at most ${MAX_PATTERN_LENGTH} characters, got ${source.length}`)
  const regexOnly = REGEX_ONLY.exec(source)?.[0] ?? (source.includes('.*') ? '.*' : undefined)
  if (regexOnly !== undefined) {
    throw invalid(
      `${member} is a path pattern, not a regular expression: only ^ (start), $ (end) and * (any characters) are special; ` +
        `"${regexOnly}" is not allowed`,
    )
  }
  const atStart = source.startsWith('^')
  const atEnd = source.endsWith('$') && source.length > (atStart ? 1 : 0)
  const pieces = source.slice(atStart ? 1 : 0, atEnd ? -1 : undefined).split('*')
  return (path) => matches(path, pieces, atStart, atEnd)
}

function matches(path: string, pieces: readonly string[], atStart: boolean, atEnd: boolean): boolean {
  const first = pieces[0]
  const last = pieces[pieces.length - 1]
  if (pieces.length === 1 && atStart && atEnd) return path === first
  let from = 0
  let to = path.length
  let i = 0
  let j = pieces.length - 1
  if (atStart) {
    if (!path.startsWith(first)) return false
    from = first.length
    i = 1
  }
  if (atEnd) {
    if (!path.endsWith(last) || path.length - last.length < from) return false
    to = path.length - last.length
    j -= 1
  }
  // the leftmost place of each piece leaves the most room for the next ones
  for (; i <= j; i += 1) {
    const at = path.indexOf(pieces[i], from)
    if (at === -1 || at + pieces[i].length > to) return false
    from = at + pieces[i].length
  }
  return true
}
