import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Page} from 'playwright-core'
import {beforeAll, expect, it} from 'vitest'
import {reportHtml, waitReport} from '../../src/gate/reports/html.js'
import type {GateResult} from '../../src/gate/result.js'
import {loadVerdictDistributions} from '../../src/gate/stats.js'
import {describeInBrowser, fileUrl, screenshot, seriousViolations, useBrowser} from '../helpers/browser.js'
import {tempDir} from '../helpers/temp.js'
import {standingClock, useE2E} from '../e2e/helpers.js'

// The HTML report of a real wait (issue 36 §2, §3): the built CLI against the dev server, whose
// clock stands still (the same dates every run), `evals run --wait --repeat 2 --baseline history
// --json --html`; the page opened from file:// in Chromium.

const NOW = Date.parse('2026-11-26T12:00:00.000Z')
const e2e = useE2E({runSeconds: 0, now: standingClock(NOW)})
const RUN_URL = 'https://app.example.com/runs/{id}'

interface Wait {
  file: string
  gate: GateResult
}

describeInBrowser('the HTML report', () => {
  const browser = useBrowser()
  let wait: Wait

  beforeAll(async () => {
    const file = join(tempDir('amctl-report-page-'), 'report.html')
    const r = await e2e.current.amctl([
      'evals',
      'run',
      'es_acme_checkout',
      '--org',
      'acme',
      '--wait',
      '--interval',
      '1',
      '--baseline',
      'history',
      '--repeat',
      '2',
      '--json',
      '--html',
      file,
      '--run-url',
      RUN_URL,
    ])
    expect([0, 10], r.stderr).toContain(r.exitCode)
    wait = {file, gate: JSON.parse(r.stdout).gate}
    expect(wait.gate.groups?.length).toBe(2)
  })

  it('loads from file:// with no console error and no request but the file itself', async () => {
    const {errors, requests} = await browser.open({file: wait.file})
    expect(errors).toEqual([])
    expect(requests).toEqual([fileUrl(wait.file)])
  })

  it("each group's chart draws one point per run of the --json document: its baseline's runs and the step's", async () => {
    const {page} = await browser.open({file: wait.file})
    const groups = wait.gate.groups ?? []
    const charts = page.locator('svg.chart')
    expect(await charts.count()).toBe(groups.length)
    for (const [i, group] of groups.entries()) {
      const baseline = group.baseline as {runIds: string[]; outcomes: {runs: unknown[]}}
      const expected = baseline.runIds.length + group.runIds.length
      const chart = charts.nth(i)
      expect(await page.locator('section.group h2').nth(i).textContent()).toBe(`${group.evalSetId} ${group.agent} / ${group.model}`)
      expect(await chart.locator('.p').count()).toBe(expected)
      expect(await chart.getAttribute('data-points')).toBe(String(expected))
      expect(await chart.locator('.p.s').count()).toBe(group.runIds.length)
      // the baseline's failed and cancelled runs: marks on the time axis, not points
      expect(await chart.locator('.m').count()).toBe(baseline.outcomes.runs.length)
    }
  })

  it('sorts by a column when its header is clicked (again: the other way), and filters by group and by failed runs', async () => {
    const {page} = await browser.open({file: wait.file})
    const score = page.getByRole('button', {name: 'Score'})
    const header = page.locator('th', {has: score})
    await score.click()
    expect(await header.getAttribute('aria-sort')).toBe('descending')
    const scores = async () =>
      (await page.locator('#runs tbody td:nth-child(5)').allTextContents()).map((s) => (s === '—' ? Number.NEGATIVE_INFINITY : Number(s)))
    const down = await scores()
    expect(down).toEqual([...down].sort((a, b) => b - a))
    await score.click()
    expect(await header.getAttribute('aria-sort')).toBe('ascending')
    const up = await scores()
    expect(up).toEqual([...up].sort((a, b) => a - b))
    expect(await page.locator('th[aria-sort="none"]').count()).toBe(5)

    const groups = wait.gate.groups ?? []
    const label = `${groups[1].evalSetId} ${groups[1].agent} / ${groups[1].model}`
    await page.getByLabel('Group').selectOption({label})
    const cells = await page.locator('#runs tbody td:nth-child(2)').allTextContents()
    const baseline = groups[1].baseline as {runIds: string[]; outcomes: {runs: unknown[]}}
    expect(cells).toHaveLength(baseline.runIds.length + baseline.outcomes.runs.length + groups[1].runIds.length)
    expect(new Set(cells)).toEqual(new Set([label]))
    await page.getByLabel('failed or cancelled only').check()
    const statuses = await page.locator('#runs tbody td:nth-child(4)').allTextContents()
    expect(statuses.length).toBe(
      baseline.outcomes.runs.length + groups[1].statuses.filter((s) => s === 'failed' || s === 'cancelled').length,
    )
    for (const status of statuses) expect(['failed', 'cancelled']).toContain(status)
    // a run's ID links to its page, the ID encoded
    await page.getByLabel('failed or cancelled only').uncheck()
    const link = page.locator('#runs tbody a').first()
    expect(await link.getAttribute('href')).toBe(RUN_URL.replace('{id}', encodeURIComponent((await link.textContent()) as string)))
  })

  it('every control is reached with Tab: the group select, the checkbox, each header button', async () => {
    const {page} = await browser.open({file: wait.file})
    const reached = new Set<string>()
    for (let i = 0; i < 40 && reached.size < 8; i++) {
      await page.keyboard.press('Tab')
      const which = (await page.evaluate(
        "(() => { const el = document.activeElement; return el === null ? '' : el.id || el.getAttribute('data-key') || el.tagName })()",
      )) as string
      if (['group-filter', 'failed-only', 'id', 'group', 'role', 'status', 'score', 'created'].includes(which)) reached.add(which)
    }
    expect([...reached].sort()).toEqual(['created', 'failed-only', 'group', 'group-filter', 'id', 'role', 'score', 'status'])
    // a header button sorts by Enter
    await page.locator('button[data-key="id"]').focus()
    await page.keyboard.press('Enter')
    expect(await page.locator('th', {has: page.locator('button[data-key="id"]')}).getAttribute('aria-sort')).toBe('ascending')
  })

  it('axe-core finds no serious or critical violation, light and dark; screenshots of both', async () => {
    // (the pictures of docs/: the same page drawn from the wait's --json with a fixed time of writing)
    const {normalQuantile} = await loadVerdictDistributions()
    const page = join(tempDir('amctl-report-shot-'), 'report.html')
    writeFileSync(page, reportHtml(waitReport(wait.gate, {now: NOW, normalQuantile, runUrl: RUN_URL})))
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const file of [wait.file, page]) {
        const opened = await browser.open({file}, {colorScheme})
        expect(await seriousViolations(opened.page), `${colorScheme} ${file}`).toEqual([])
        expect(opened.errors).toEqual([])
      }
      const shot = await browser.open({file: page}, {colorScheme, viewport: {width: 1100, height: 900}})
      await checkedScheme(shot.page, colorScheme)
      await screenshot(shot.page, `report-${colorScheme}`)
    }
  })
})

/** The page follows the colour scheme: its background is light or dark. */
async function checkedScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  const background = await page.evaluate('getComputedStyle(document.body).backgroundColor')
  expect(background).toBe(scheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(13, 17, 23)')
}
