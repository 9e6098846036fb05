import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import type {Root} from 'hast'
import type {Page} from 'playwright-core'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkBreaks from 'remark-breaks'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import {unified} from 'unified'

/**
 * A pull-request comment as GitHub shows it, for the browser tests (test/browser/): the Markdown
 * body made HTML as GitHub makes a comment's, in GitHub's own Markdown CSS, in a comment box
 * COMMENT_WIDTH px wide; and `overflows`, every element of it wider than its box.
 *
 * GitHub renders with cmark-gfm and then cleans the HTML. Here: micromark's CommonMark and GFM
 * (remark-parse, remark-gfm: tables, task lists, strikethrough, autolink literals, footnotes;
 * tested against cmark-gfm's own cases), a newline in a paragraph a line break as in comments
 * (remark-breaks: GitHub breaks lines in comments, not in .md files), the HTML in the body parsed
 * (rehype-raw) and cleaned by hast-util-sanitize's default schema, which is GitHub's (what stays:
 * `<details>`, `<summary>`, `<sub>`, `<kbd>`, `align`…; what goes: `<script>` with its text, the
 * tags of other elements (`<style>`, `<iframe>`, `<form>`), `style=`, event handlers, `javascript:`
 * links; ids are prefixed `user-content-`). The CSS is
 * github-markdown-css (sindresorhus, MIT), GitHub's `.markdown-body` rules, light theme.
 *
 * Not reproduced: emoji shortcodes (`:x:`), @mentions, #123 and commit references, alerts
 * (`> [!NOTE]`), math, Mermaid, headings' anchor links, and GitHub's fonts: its stack starts with
 * -apple-system and Segoe UI, which Linux lacks, so Chromium draws Liberation Sans (Arial's
 * metrics, the stack's own fall-back) where fonts-liberation is installed.
 */

/** The width of a pull-request comment on github.com, its border included (about 770 px). */
export const COMMENT_WIDTH = 770

/** The element the comment's Markdown is rendered into. */
export const COMMENT_SELECTOR = '.comment .markdown-body'

const require = createRequire(import.meta.url)
const GITHUB_CSS = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8')

const toTree = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkBreaks)
  .use(remarkRehype, {allowDangerousHtml: true})
  .use(rehypeRaw)
  .use(rehypeSanitize)
const toHtml = unified().use(rehypeStringify)

/** The HTML tree GitHub would make of a comment's Markdown body, cleaned (see above for what differs). */
export function commentTree(markdown: string): Root {
  return toTree.runSync(toTree.parse(markdown)) as Root
}

/** The HTML GitHub would make of a comment's Markdown body (see above for what differs). */
export function commentHtml(markdown: string): string {
  return toHtml.stringify(commentTree(markdown))
}

/**
 * A page holding the comment as GitHub shows it: GitHub's CSS, the comment box COMMENT_WIDTH px
 * wide with GitHub's border and the 16 px padding of its body.
 */
export function commentPage(markdown: string, title = 'a pull-request comment'): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title.replace(/[&<]/g, (c) => `&#${c.charCodeAt(0)};`)}</title>
<style>${GITHUB_CSS}</style>
<style>
body { margin: 0; padding: 16px; background: #ffffff; }
.comment { width: ${COMMENT_WIDTH}px; box-sizing: border-box; border: 1px solid #d1d9e0; border-radius: 6px; background: #ffffff; }
.comment .markdown-body { padding: 16px; }
</style></head>
<body><main><div class="comment"><div class="markdown-body">
${commentHtml(markdown)}
</div></div></main></body></html>`
}

export interface Overflow {
  /** the element: its tag and the start of its text */
  element: string
  /** 'scrolls': it scrolls sideways (a table's `overflow: auto`); 'overflows': its content is wider than it; 'wider': it reaches past the comment's box */
  kind: 'scrolls' | 'overflows' | 'wider'
  /** its content's width (scrollWidth), or its own for 'wider' */
  width: number
  /** the width it has: its own (clientWidth), or the comment's content box for 'wider' */
  box: number
}

/**
 * Every element of the comment (COMMENT_SELECTOR) that does not fit: one that scrolls sideways or
 * whose content is wider than it (scrollWidth > clientWidth), or that reaches past the comment's
 * content box; and the page itself when it scrolls sideways. An element inside one already
 * reported is not reported again. Every `<details>` is opened first (`details: 'as-is'` measures
 * the comment as it opens), since a reviewer opens them.
 */
export async function overflows(page: Page, options: {selector?: string; details?: 'open' | 'as-is'} = {}): Promise<Overflow[]> {
  return page.evaluate(
    ({selector, openDetails}) => {
      // (runs in the page: the DOM's types are not this project's)
      const dom = globalThis as any
      const root = dom.document.querySelector(selector)
      if (root === null) throw new Error(`no element matches ${selector}`)
      if (openDetails) for (const details of root.querySelectorAll('details')) details.open = true
      const style = dom.getComputedStyle(root)
      const rect = root.getBoundingClientRect()
      const left = rect.left + Number.parseFloat(style.borderLeftWidth) + Number.parseFloat(style.paddingLeft)
      const right = rect.right - Number.parseFloat(style.borderRightWidth) - Number.parseFloat(style.paddingRight)
      const name = (element: any): string => {
        const text = String(element.textContent ?? '')
          .replace(/\s+/g, ' ')
          .trim()
        return `<${element.tagName.toLowerCase()}> ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`.trim()
      }
      const found: Array<{element: string; kind: 'scrolls' | 'overflows' | 'wider'; width: number; box: number}> = []
      const reported: any[] = []
      const page = dom.document.documentElement
      if (page.scrollWidth > page.clientWidth)
        found.push({element: '<html>', kind: 'scrolls', width: page.scrollWidth, box: page.clientWidth})
      for (const element of [root, ...root.querySelectorAll('*')]) {
        if (reported.some((outer) => outer.contains(element))) continue
        // (what is not drawn: a closed <details>' content, display: none)
        if (!element.checkVisibility()) continue
        const own = element.getBoundingClientRect()
        if (element.clientWidth > 0 && element.scrollWidth > element.clientWidth) {
          const overflowX = dom.getComputedStyle(element).overflowX
          const kind = overflowX === 'auto' || overflowX === 'scroll' ? 'scrolls' : 'overflows'
          found.push({element: name(element), kind, width: element.scrollWidth, box: element.clientWidth})
          reported.push(element)
        } else if (element !== root && (own.right > right + 0.5 || own.left < left - 0.5)) {
          found.push({element: name(element), kind: 'wider', width: Math.round(own.width), box: Math.round(right - left)})
          reported.push(element)
        }
      }
      return found
    },
    {selector: options.selector ?? COMMENT_SELECTOR, openDetails: (options.details ?? 'open') === 'open'},
  )
}
