import {expect, it} from 'vitest'
import {USERS} from '../../src/devserver/seed.js'
import {runBin, runOnTerminal} from '../helpers/bin.js'
import {browserHook, describeInBrowser, screenshot, seriousViolations, useBrowser} from '../helpers/browser.js'
import {tempDir} from '../helpers/temp.js'
import {useE2E} from '../e2e/helpers.js'

// `amctl auth login` as a person does it (issue 36 §3): on a terminal, against the dev server with
// manual approval (`--approve manual`), amctl shows a code and opens the approval page through
// its browser hook (BROWSER, src/core/browser.ts); the person approves it in Chromium by typing
// the code and clicking, and amctl is logged in.

const e2e = useE2E({approve: 'manual'})

describeInBrowser('the device login, approved in a browser', () => {
  const browser = useBrowser()

  it('auth login opens /device in the browser; the code typed and Approve clicked there, amctl is logged in', async () => {
    const hook = await browserHook()
    const configDir = tempDir('amctl-device-login-')
    let sawCode!: (code: string) => void
    const code = new Promise<string>((resolve) => {
      sawCode = resolve
    })
    const login = runOnTerminal(['auth', 'login'], {
      env: {AMCTL_BASE_URL: e2e.current.url, AMCTL_CONFIG_DIR: configDir, ...hook.env},
      onScreen: (screen) => {
        const shown = /one-time code: (?:\x1b\[[0-9;]*m)*([A-Z]{4}-[A-Z]{4})/.exec(screen)
        if (shown) sawCode(shown[1])
      },
    })
    const ended = login.then(({screen}) => {
      throw new Error(`amctl ended before opening a browser:\n${screen}`)
    })
    const url = await Promise.race([hook.opened, ended])
    expect(url).toBe(`${e2e.current.url}/device`)

    const {page, errors, requests} = await browser.open({url}, {viewport: {width: 640, height: 300}})
    expect(await seriousViolations(page)).toEqual([])
    // (docs/dev-server.md shows it; as opened, before the code, which changes every time, is typed)
    await screenshot(page, 'device-login')
    await page.getByLabel('Code').fill(await code)
    await page.getByLabel('Sign in as').selectOption(USERS.grace.email)
    await page.getByRole('button', {name: 'Approve'}).click()
    await page.getByText(`Approved. amctl is now signed in as ${USERS.grace.email}`).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    expect(errors).toEqual([])
    // the page, then its form posted to itself: nothing else (no favicon, nothing from outside)
    expect(requests).toEqual([url, url])

    const {exitCode, screen} = await login
    expect(screen).toContain(`Logged in to ${e2e.current.url} as ${USERS.grace.email}`)
    expect(exitCode).toBe(0)
    // the login is stored: status, with nothing but the config directory, names the user and the server
    const status = await runBin(['auth', 'status', '--json'], {env: {AMCTL_CONFIG_DIR: configDir}})
    expect(status.exitCode, status.stderr).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({user: {email: USERS.grace.email}, baseUrl: e2e.current.url, tokenSource: 'file'})
  })
})
