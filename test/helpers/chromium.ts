import {existsSync} from 'node:fs'
import {harness} from './env.js'

/**
 * Where the browser project (test/browser/, vitest.config.ts) finds its Chromium, kept apart from
 * ./browser.ts so that the global setup can say once that the project is skipped without loading
 * playwright-core.
 *
 * The browser is Debian's package (`apt-get install chromium`, which .ci/run installs), driven by
 * playwright-core, which downloads no browser of its own. AMCTL_CHROMIUM names another Chromium
 * or Chrome (a developer's on macOS, say).
 */
export const CHROMIUM = harness.chromium ?? '/usr/bin/chromium'

/** The fonts the pages are drawn with (the screenshots check them): Debian's packages. */
export const FONT_PACKAGES = ['fonts-liberation', 'fonts-noto-color-emoji'] as const

/** Whether that Chromium is installed. */
export const chromiumInstalled: boolean = existsSync(CHROMIUM)

/**
 * Outside CI a missing Chromium skips the browser project; on CI it fails it (a skipped browser
 * test could otherwise turn CI green).
 */
export const browserTestsSkipped: boolean = !chromiumInstalled && !harness.ci

/** The one line a run without Chromium prints (test/global-setup.ts). */
export const SKIPPED_LINE = `browser tests SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium ${FONT_PACKAGES.join(' ')}, or set AMCTL_CHROMIUM); .ci/run installs it and CI requires it`
