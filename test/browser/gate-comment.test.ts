import {expect, it} from 'vitest'
import {describeInBrowser, screenshot, seriousViolations, useBrowser} from '../helpers/browser.js'
import {useFakeApi} from '../helpers/fake-api.js'
import {COMMENT_SELECTOR, COMMENT_WIDTH, commentPage, overflows} from '../helpers/github-comment.js'
import {CASES, commentOf, runCase} from '../gate/reports/comments.js'
import {RELAUNCH} from '../../src/gate/flags.js'

// The pull-request comment of a step (src/gate/reports/markdown.ts), as GitHub shows it: each of
// the cases made by `evals run --wait --json` and printed by `evals comment`
// (../gate/reports/comments.ts), rendered with GitHub's Markdown and CSS in a comment 770 px wide.

/** The group each case's headline names: the failing one, the undecided one; none for a pass. */
const NAMED: Record<string, string | undefined> = {
  regressed: 'claude-code / claude-sonnet-4-5 regressed: 0.77 against 0.84 ± 0.02 (−0.07, beyond noise at 95 %)',
  flaky: undefined,
  inconclusive: 'claude-code / claude-sonnet-4-5 is inconclusive after 3 launches',
  'failed-beyond-rate': 'claude-code / claude-sonnet-4-5 failed 2 of 2 runs, beyond its baseline',
  stale: undefined,
  error: `Launch 2 (relaunch 1 of at most ${RELAUNCH.default}) failed`,
}

describeInBrowser(`the comment of a step in a ${COMMENT_WIDTH} px pull-request comment`, () => {
  const browser = useBrowser()
  const api = useFakeApi({}, {me: false})

  for (const c of CASES) {
    it(`${c.name}: nothing wider than the comment (its details opened), at most 5 columns, the headline names what decided it`, async () => {
      const {json, dir} = await runCase(api, c)
      // (the baseline file's temporary directory as a repository's evals/, so the picture is the same every run)
      const body = (await commentOf(json)).replaceAll(dir, 'evals')
      const {page, errors} = await browser.open({html: commentPage(body, `the comment: ${c.name}`)})
      // (as a reviewer first sees it: its details closed)
      await screenshot(page, `comment-${c.name}`, {selector: '.comment'})
      expect(await overflows(page, {details: 'as-is'})).toEqual([])
      expect(await overflows(page)).toEqual([])
      const headline = (await page.locator(`${COMMENT_SELECTOR} h3`).first().textContent()) ?? ''
      const named = NAMED[c.name]
      if (named === undefined) expect(headline).toMatch(/^✅ All \d+ runs passed$/)
      else expect(headline).toContain(named)
      expect(await page.locator(`${COMMENT_SELECTOR} table`).count()).toBe(1)
      expect(await page.locator(`${COMMENT_SELECTOR} table thead th`).count()).toBeLessThanOrEqual(5)
      // no verdict cell contradicts itself: a ✅ beside a failing verdict, a ❌ beside a passing one
      for (const cell of await page.locator(`${COMMENT_SELECTOR} table tbody td:last-child`).allTextContents()) {
        if (cell.startsWith('✅')) expect(cell).toMatch(/^✅ (passed|improved|no-baseline)/)
        if (cell.startsWith('❌')) expect(cell).toMatch(/^❌ (regressed|failed|below-min-score|no-baseline|inconclusive)/)
      }
      expect(await seriousViolations(page)).toEqual([])
      expect(errors).toEqual([])
    })
  }
})
