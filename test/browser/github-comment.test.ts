import {expect, it} from 'vitest'
import {describeInBrowser, seriousViolations, useBrowser} from '../helpers/browser.js'
import {COMMENT_SELECTOR, COMMENT_WIDTH, commentHtml, commentPage, overflows} from '../helpers/github-comment.js'

// The GitHub-comment renderer the comment's browser tests stand on (test/helpers/github-comment.ts):
// what it makes of GitHub's Markdown, and that its width check finds a table too wide for a
// comment, and only then.

const row = (cells: string[]) => `| ${cells.join(' | ')} |`
const table = (head: string[], rows: string[][]) => [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n')

/** The comment's table as it was (issue 36): ten columns, sparklines, the verdict last. */
const WIDE = table(
  ['Agent', 'Model', 'Run', 'Status', 'Score', 'Baseline', 'Trend', 'Δ', 'Detectable', 'Verdict'],
  [
    [
      'claude-code',
      'claude-sonnet-4-5',
      'run_acme_0042',
      '❌ succeeded',
      '0.77',
      '0.84 ± 0.02 (n=12)',
      '▆▇▆▇▇▆▇▅▁',
      '−0.07 (−4.0 sd)',
      '0.03',
      '❌ regressed',
    ],
    [
      'codex',
      'gpt-5-codex',
      'run_acme_0043',
      '✅ succeeded',
      '0.81',
      '0.80 ± 0.03 (n=12)',
      '▅▆▅▅▆▅▆▆▆',
      '+0.01 (+0.3 sd)',
      '0.04',
      '✅ within noise',
    ],
  ],
)

/** What the comment must be: five columns that fit. */
const NARROW = table(
  ['Group', 'Score', 'Baseline', 'Δ', 'Verdict'],
  [
    ['claude-code / claude-sonnet-4-5', '0.77', '0.84 ± 0.02', '−0.07', '❌ regressed'],
    ['codex / gpt-5-codex', '0.81', '0.80 ± 0.03', '+0.01', '✅ within noise'],
  ],
)

describeInBrowser('a pull-request comment as GitHub shows it', () => {
  const browser = useBrowser()

  it(`a ten-column table scrolls sideways in a ${COMMENT_WIDTH} px comment and is reported; a five-column one fits`, async () => {
    const wide = await browser.open({html: commentPage(`### ❌ amctl\n\n${WIDE}`)})
    const found = await overflows(wide.page)
    expect(found).toEqual([
      {element: expect.stringMatching(/^<table> Agent Model Run/), kind: 'scrolls', width: expect.any(Number), box: 736},
    ])
    expect(found[0].width).toBeGreaterThan(900)

    const narrow = await browser.open({html: commentPage(`### ❌ claude-code / claude-sonnet-4-5 regressed\n\n${NARROW}`)})
    expect(await overflows(narrow.page)).toEqual([])
    // GitHub's own table rules, from its CSS
    const rules = await narrow.page
      .locator(`${COMMENT_SELECTOR} table`)
      .evaluate((t) =>
        (({display, width, maxWidth, overflow}) => ({display, width, maxWidth, overflow}))((globalThis as any).getComputedStyle(t)),
      )
    expect(rules).toMatchObject({display: 'block', overflow: 'auto'})
    expect(await seriousViolations(narrow.page)).toEqual([])
    expect([...wide.errors, ...narrow.errors]).toEqual([])
  })

  it('a table inside a collapsed <details> is measured opened (as a reviewer opens it), or as it stands', async () => {
    const {page} = await browser.open({html: commentPage(`One line.\n\n<details><summary>Every figure</summary>\n\n${WIDE}\n\n</details>`)})
    expect(await overflows(page, {details: 'as-is'})).toEqual([])
    expect(await overflows(page)).toEqual([expect.objectContaining({element: expect.stringMatching(/^<table>/), kind: 'scrolls'})])
  })

  it('a long command in a line wraps (GitHub breaks words), a long line of a code block scrolls and is reported', async () => {
    const long = `amctl evals baseline save es_acme_checkout_${'x'.repeat(120)}`
    const inline = await browser.open({html: commentPage(`run \`${long}\``)})
    expect(await overflows(inline.page)).toEqual([])
    const block = await browser.open({html: commentPage(`\`\`\`sh\n${long}\n\`\`\``)})
    expect(await overflows(block.page)).toEqual([
      {element: `<pre> ${long.slice(0, 40)}…`, kind: 'scrolls', width: expect.any(Number), box: 736},
    ])
  })
})

// What the renderer makes of GitHub's Markdown (no browser needed, but the project's file is here)
describeInBrowser('GitHub-flavoured Markdown as GitHub renders a comment', () => {
  it('tables with alignment, task lists, strikethrough, autolinks, <details>, and a newline as a line break', () => {
    expect(commentHtml('| a | b |\n|:--|--:|\n| 1 | 2 |')).toContain('<th align="left">a</th>\n<th align="right">b</th>')
    expect(commentHtml('- [x] done\n- [ ] to do')).toBe(
      '<ul class="contains-task-list">\n<li class="task-list-item"><input type="checkbox" checked disabled> done</li>\n<li class="task-list-item"><input type="checkbox" disabled> to do</li>\n</ul>',
    )
    expect(commentHtml('~~gone~~ and https://example.com/runs.')).toBe(
      '<p><del>gone</del> and <a href="https://example.com/runs">https://example.com/runs</a>.</p>',
    )
    expect(commentHtml('<details><summary>More</summary>\n\nhidden **text**\n\n</details>')).toBe(
      '<details><summary>More</summary>\n<p>hidden <strong>text</strong></p>\n</details>',
    )
    expect(commentHtml('one\ntwo')).toBe('<p>one<br>\ntwo</p>')
  })

  it('cleans the HTML as GitHub does: no script, style, event handler or javascript: link; ids prefixed', () => {
    const html = commentHtml(
      '<script>alert(1)</script>\n\n<p style="color:red" onclick="x()" id="top">p</p> <a href="javascript:alert(1)">a</a> <img src="x.png" onerror="x()">',
    )
    expect(html).toBe('\n<p id="user-content-top">p</p> <a>a</a> <img src="x.png">')
  })
})
