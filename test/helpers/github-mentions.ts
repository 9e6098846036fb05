import type {Root, RootContent} from 'hast'
import {commentTree} from './github-comment.js'

/**
 * The @mentions GitHub would find in a Markdown document (a comment, a job summary): the people
 * and teams it would link and notify. GitHub renders the Markdown first (as ./github-comment.ts
 * renders a comment: micromark's GFM standing in for cmark-gfm, cleaned as GitHub cleans it; not
 * marked, which marked-man, imported by the man pages' renderer, patches for every instance in
 * the process), then looks for mentions in the rendered HTML's text nodes, never inside `pre`, `code`, `a`, `style` or `script`,
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

/** The text nodes of the cleaned HTML tree, in document order, each with whether it stands inside an element GitHub skips. */
export function textNodes(markdown: string): Array<{text: string; ignored: boolean}> {
  const nodes: Array<{text: string; ignored: boolean}> = []
  const walk = (node: RootContent | Root, ignored: boolean) => {
    if (node.type === 'text') nodes.push({text: node.value, ignored})
    if ('children' in node) {
      const inside = ignored || (node.type === 'element' && IGNORED.has(node.tagName))
      for (const child of node.children) walk(child, inside)
    }
  }
  walk(commentTree(markdown), false)
  return nodes
}

/** The mentions (`@user`, `@org/team`) GitHub would link in the rendered Markdown, in order. */
export function githubMentions(markdown: string): string[] {
  const found: string[] = []
  for (const node of textNodes(markdown)) {
    if (node.ignored || !node.text.includes('@')) continue
    for (const [, org, team] of node.text.matchAll(TEAM)) found.push(`@${org}/${team}`)
    for (const [, login] of node.text.matchAll(USER)) found.push(`@${login}`)
  }
  return found
}

/** What a reader sees of the rendered Markdown: its text nodes, joined. */
export function shownText(markdown: string): string {
  return textNodes(markdown)
    .map((node) => node.text)
    .join('')
}
