import {describe, expect, it} from 'vitest'
import {isBrowsableUrl, openBrowser} from '../../src/core/browser.js'

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
