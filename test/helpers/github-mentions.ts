import {Marked} from 'marked'
import {unescapeHtml} from './markdown.js'

/**
 * The @mentions GitHub would find in a Markdown document (a comment, a job summary): the people
 * and teams it would link and notify. GitHub renders the Markdown first (GitHub-flavoured: marked
 * with `gfm`, the renderer the man pages use, stands in for cmark-gfm here), then looks for
 * mentions in the rendered HTML's text nodes, never inside `pre`, `code`, `a`, `style` or `script`,
 * with the patterns of html-pipeline, the filters GitHub extracted from github.com
 * (lib/html_pipeline/node_filter/mention_filter.rb and team_mention_filter.rb,
 * github.com/gjtorikian/html-pipeline). A backslash escape (`\@octocat`) is gone by then: the text
 * node reads `@octocat`, which is a mention.
 */

/**
 * `@user`: at the start of a text node or after a character that is not an ASCII letter, digit or
 * `_` (Ruby's `\W`, as JavaScript's without the `u` flag), a login of letters, digits and `-`
 * starting with a letter or digit, not followed by `/` (a team, below) nor by a word character or
 * a dot that goes on into one. `(?>…)`, an atomic group in Ruby, is `(?=(…))\1` here.
 */
const USER = /(?:^|\W)@(?=([a-z0-9][a-z0-9-]*))\1(?!\/)(?=\.+[ \t\W]|\.+$|[^0-9a-zA-Z_.]|$)/gim
/** `@org/team`: the same start, an organization, `/`, a team of letters, digits, `-` and `_`. */
const TEAM = /(?<=^|\W)@([a-z0-9][a-z0-9-]*)\/([a-z0-9][a-z0-9\-_]*)\b/gim

/** The elements whose text GitHub never looks for mentions in. */
const IGNORED = new Set(['pre', 'code', 'a', 'style', 'script'])
/** The elements marked writes with no end tag. */
const VOID = new Set(['br', 'hr', 'img', 'input'])

const renderer = new Marked({gfm: true})

/** The Markdown rendered as GitHub-flavoured HTML. */
export function renderGfm(markdown: string): string {
  return renderer.parse(markdown, {async: false}) as string
}

/**
 * The text nodes of marked's HTML, decoded, each with whether it stands inside an element GitHub
 * skips. (marked writes well-formed HTML with every `&`, `<`, `>`, `"` and `'` of text and
 * attributes escaped, so a tag is `<…>` with no `>` inside.)
 */
export function textNodes(html: string): Array<{text: string; ignored: boolean}> {
  const open: string[] = []
  const nodes: Array<{text: string; ignored: boolean}> = []
  for (const [part, closing, tag] of html.matchAll(/<!--[\s\S]*?-->|<(\/?)([a-zA-Z][\w-]*)[^>]*>|[^<]+/g)) {
    if (tag === undefined) {
      if (!part.startsWith('<!--')) nodes.push({text: unescapeHtml(part), ignored: open.some((name) => IGNORED.has(name))})
    } else if (closing) {
      const at = open.lastIndexOf(tag.toLowerCase())
      if (at >= 0) open.splice(at)
    } else if (!VOID.has(tag.toLowerCase()) && !part.endsWith('/>')) open.push(tag.toLowerCase())
  }
  return nodes
}

/** The mentions (`@user`, `@org/team`) GitHub would link in the rendered Markdown, in order. */
export function githubMentions(markdown: string): string[] {
  const found: string[] = []
  for (const node of textNodes(renderGfm(markdown))) {
    if (node.ignored || !node.text.includes('@')) continue
    for (const [, org, team] of node.text.matchAll(TEAM)) found.push(`@${org}/${team}`)
    for (const [, login] of node.text.matchAll(USER)) found.push(`@${login}`)
  }
  return found
}

/** What a reader sees of the rendered Markdown: its text nodes, joined. */
export function shownText(markdown: string): string {
  return textNodes(renderGfm(markdown))
    .map((node) => node.text)
    .join('')
}
