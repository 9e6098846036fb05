import {describe, expect, it} from 'vitest'
import {isBrowsableUrl, openBrowser, openerCommand} from '../../src/core/browser.js'

describe('opening the approval page (contract 2: only http: and https: URLs)', () => {
  it.each(['https://app.example/device', 'http://127.0.0.1:4010/device?code=AB-CD'])('opens %j', (url) => {
    expect(isBrowsableUrl(url)).toBe(true)
  })

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    '-a Calculator https://x.example',
    '--new-window',
    'data:text/html,hi',
    'ftp://x.example',
    'not a url',
    '',
  ])('never hands %j to an opener', async (url) => {
    expect(isBrowsableUrl(url)).toBe(false)
    // with $BROWSER pointing at a program that would fail the test if it ran
    expect(await openBrowser(url, {BROWSER: '/bin/false-never-run'})).toBe(false)
  })
})

describe('the opener of each platform (spawned without a shell)', () => {
  const href = 'https://app.example/device?code=AB-CD&x=^1'
  it.each([
    ['win32', ['rundll32', 'url.dll,FileProtocolHandler', href]],
    ['darwin', ['open', href]],
    ['linux', ['xdg-open', href]],
    ['freebsd', ['xdg-open', href]],
  ] as const)('%s: %j', (platform, command) => {
    expect(openerCommand(href, {}, platform)).toEqual(command)
  })

  it('$BROWSER wins on every platform, with the URL as its one argument', () => {
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      expect(openerCommand(href, {BROWSER: 'firefox'}, platform)).toEqual(['firefox', href])
    }
  })
})
