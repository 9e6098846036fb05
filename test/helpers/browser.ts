import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import type {AxeResults} from 'axe-core'
import {type Browser, type BrowserContext, chromium, type Page} from 'playwright-core'
import {afterAll, afterEach, beforeAll, describe, onTestFinished} from 'vitest'
import {browserTestsSkipped, CHROMIUM, chromiumInstalled, FONT_PACKAGES} from './chromium.js'
import {harness, sealedEnv} from './env.js'
import {startServer} from './http-server.js'
import {tempDir} from './temp.js'

/**
 * The browser project's harness (test/browser/, vitest.config.ts): Debian's Chromium driven by
 * playwright-core, launched once per test file (`useBrowser()`), a fresh context (cookies,
 * storage) for every page, closed after each test. A page is opened from a string or a URL
 * (`file://` too) and comes with what it did: its console errors and uncaught exceptions, and every
 * request it made. `seriousViolations` runs axe-core in it, `screenshot` takes a picture for
 * docs/images/.
 *
 *   describeInBrowser('the report', () => {
 *     const browser = useBrowser()
 *     it('loads with no error and no request but its own file', async () => {
 *       const {page, errors, requests} = await browser.open({file: report})
 *       expect(errors).toEqual([])
 *       expect(requests).toEqual([fileUrl(report)])
 *       expect(await seriousViolations(page)).toEqual([])
 *     })
 *   })
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Chromium's switches: no sandbox (CI runs as root), no GPU, and none of the connections a
 * browser makes of its own (updates, sync, field trials, QUIC), which this machine's closed
 * network refuses; playwright-core adds --headless and a fresh user-data-dir of its own, in the
 * run's temp root, which it removes when the browser closes.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Every page is drawn the same way on every machine: this viewport at one device pixel per CSS
 * pixel, the light colour scheme, reduced motion, English, UTC.
 */
export const VIEWPORT = {width: 1024, height: 768}

/** `describe`, skipped (test/global-setup.ts says so once) where no Chromium is installed, outside CI. */
export const describeInBrowser = browserTestsSkipped ? describe.skip : describe

export type PageSource = {html: string} | {url: string} | {file: string}

export interface PageOptions {
  /** the viewport (default VIEWPORT) */
  viewport?: {width: number; height: number}
  /** 'dark' for the dark colour scheme (default 'light') */
  colorScheme?: 'light' | 'dark'
}

export interface OpenedPage {
  page: Page
  /** the page's console errors and uncaught exceptions, in order (a resource that failed to load is one) */
  errors: string[]
  /** every request the page made, in order, as URLs: the document itself first when opened from a URL or a file */
  requests: string[]
}

export interface BrowserSession {
  /** the browser of this file (launched before its first test) */
  readonly browser: Browser
  /** a page in a fresh context, loaded (the `load` event), closed after the test */
  open(source: PageSource, options?: PageOptions): Promise<OpenedPage>
}

/** The file:// URL of a path, as the page's first request names it. */
export function fileUrl(path: string): string {
  return pathToFileURL(path).href
}

/**
 * Launches Chromium for one test file: once, before its first test; each test's contexts are
 * closed after it, the browser after the file. Its processes get a sealed environment (test/helpers/env.ts)
 * and a temp directory of their own.
 */
export function useBrowser(): BrowserSession {
  let browser: Browser | undefined
  const contexts: BrowserContext[] = []
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()))
  })
  afterAll(async () => {
    await browser?.close()
  })
  const launched = (): Browser => {
    if (browser === undefined) throw new Error('the browser is launched in beforeAll: use it inside a test')
    return browser
  }
  return {
    get browser() {
      return launched()
    },
    async open(source, options = {}) {
      const context = await launched().newContext({
        viewport: options.viewport ?? VIEWPORT,
        deviceScaleFactor: 1,
        colorScheme: options.colorScheme ?? 'light',
        reducedMotion: 'reduce',
        locale: 'en-US',
        timezoneId: 'UTC',
      })
      contexts.push(context)
      const errors: string[] = []
      const requests: string[] = []
      context.on('request', (request) => requests.push(request.url()))
      const page = await context.newPage()
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text())
      })
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`))
      if ('html' in source) await page.setContent(source.html, {waitUntil: 'load'})
      else await page.goto('url' in source ? source.url : fileUrl(source.file), {waitUntil: 'load'})
      return {page, errors, requests}
    },
  }
}

/** Chromium, headless; a missing one is an error naming what to install (on CI the project never skips). */
export async function launchChromium(): Promise<Browser> {
  if (!chromiumInstalled) {
    throw new Error(`no Chromium at ${CHROMIUM}: CI runs the browser tests (apt-get install chromium; .ci/run installs it)`)
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    env: sealedEnv({TMPDIR: tempDir('amctl-chromium-')}),
  })
}

export interface BrowserHook {
  /** BROWSER, for amctl's environment: the program src/core/browser.ts runs with the URL */
  env: {BROWSER: string}
  /** the URL amctl asked the browser to open, once it has */
  opened: Promise<string>
}

/**
 * What amctl opens a browser with (src/core/browser.ts: `$BROWSER URL`, no shell), made to hand
 * the URL to the test instead: BROWSER is a program that posts it to a server of this test on
 * 127.0.0.1, and `opened` resolves with it. The test then opens it in Chromium itself. The server
 * closes when the test ends.
 */
export async function browserHook(): Promise<BrowserHook> {
  let resolve!: (url: string) => void
  const opened = new Promise<string>((done) => {
    resolve = done
  })
  const server = await startServer((req, res) => {
    res.end()
    resolve(req.body)
  })
  onTestFinished(() => server.close())
  const program = join(tempDir('amctl-browser-hook-'), 'browser')
  writeFileSync(
    program,
    `#!${process.execPath}\nfetch(${JSON.stringify(`${server.url}/opened`)}, {method: 'POST', body: process.argv[2]}).catch(() => process.exit(1))\n`,
  )
  chmodSync(program, 0o755)
  return {env: {BROWSER: program}, opened}
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export interface Violation {
  /** axe-core's rule (`color-contrast`, `label` …) */
  id: string
  impact: 'serious' | 'critical'
  help: string
  /** the elements, as CSS selectors */
  nodes: string[]
}

/**
 * axe-core's serious and critical violations on the page as it stands (every rule axe runs by
 * default: WCAG 2.x A and AA and its best practices). axe is evaluated in the page through the
 * DevTools protocol, which a Content-Security-Policy does not stop, and makes no request.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE_SOURCE)
  const results = (await page.evaluate('axe.run(document, {resultTypes: ["violations"]})')) as AxeResults
  return results.violations.flatMap((violation) =>
    violation.impact === 'serious' || violation.impact === 'critical'
      ? [{id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.map((node) => node.target.join(' '))}]
      : [],
  )
}

/** The font families Chromium drew the page's text with (CSS.getPlatformFontsForNode), sorted. */
export async function fontsUsed(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page)
  try {
    await cdp.send('DOM.enable')
    await cdp.send('CSS.enable')
    const {root} = await cdp.send('DOM.getDocument', {depth: -1})
    const {nodeIds} = await cdp.send('DOM.querySelectorAll', {nodeId: root.nodeId, selector: 'body, body *'})
    const families = new Set<string>()
    for (const nodeId of nodeIds) {
      for (const font of (await cdp.send('CSS.getPlatformFontsForNode', {nodeId})).fonts) families.add(font.familyName)
    }
    return [...families].sort()
  } finally {
    await cdp.detach()
  }
}

/**
 * The fonts a screenshot for docs/images/ may be drawn with: Debian's DejaVu (which Chromium's
 * fontconfig brings), Liberation (metric-compatible with Arial and Helvetica, the fall-backs of
 * GitHub's stack) and Noto Color Emoji (FONT_PACKAGES).
 */
export const SCREENSHOT_FONTS = ['DejaVu Sans', 'DejaVu Sans Mono', 'Liberation Mono', 'Liberation Sans', 'Noto Color Emoji']

/** Where the screenshots the tests take are kept (linked from docs/). */
export const IMAGES_DIR = join(ROOT, 'docs', 'images')

export interface Screenshot {
  png: Buffer
  /** the file written (asked for, and the picture changed), else undefined */
  written?: string
}

export interface ScreenshotOptions {
  /** the first element it matches, not the whole viewport */
  selector?: string
  /** write the file (default: AMCTL_SCREENSHOTS=1, `npm run screenshots`) */
  write?: boolean
  /** where (default IMAGES_DIR) */
  dir?: string
}

/**
 * A PNG of the page (or of one element), with animations stopped and no caret, in the page's
 * fixed viewport (useBrowser). Always taken, so the test exercises it; written to
 * docs/images/<name>.png only when the run asks for it (AMCTL_SCREENSHOTS=1: `npm run
 * screenshots`), and then only when its bytes differ from the file's: an ordinary `npm test`
 * never touches docs/, and a picture made again with the same bytes leaves `git status` clean. A
 * picture written must be drawn with SCREENSHOT_FONTS only: another font installed on this machine
 * would change it for no change of the page.
 */
export async function screenshot(page: Page, name: string, options: ScreenshotOptions = {}): Promise<Screenshot> {
  const shot = {animations: 'disabled', caret: 'hide', scale: 'css'} as const
  const png = options.selector === undefined ? await page.screenshot(shot) : await page.locator(options.selector).first().screenshot(shot)
  if (!(options.write ?? harness.screenshots)) return {png}
  const stray = (await fontsUsed(page)).filter((family) => !SCREENSHOT_FONTS.includes(family))
  if (stray.length > 0) {
    throw new Error(
      `${name}.png would be drawn with ${stray.join(', ')}, not only ${SCREENSHOT_FONTS.join(', ')}: install ${FONT_PACKAGES.join(' ')}`,
    )
  }
  const dir = options.dir ?? IMAGES_DIR
  const file = join(dir, `${name}.png`)
  if (existsSync(file) && readFileSync(file).equals(png)) return {png}
  mkdirSync(dir, {recursive: true})
  writeFileSync(file, png)
  return {png, written: file}
}
