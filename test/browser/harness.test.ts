import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect, it} from 'vitest'
import {describeInBrowser, fileUrl, screenshot, seriousViolations, useBrowser, VIEWPORT} from '../helpers/browser.js'
import {tempDir} from '../helpers/temp.js'

// The browser harness itself (test/helpers/browser.ts), which the tests of the comment, the report
// and the device page rely on: each of its findings is shown to come out when it should.

const SHOT_PAGE = '<!doctype html><html lang="en"><title>t</title><h1 style="font-family: \'DejaVu Sans\'">Shot</h1></html>'

describeInBrowser('the browser harness', () => {
  const browser = useBrowser()

  it('a page from a file: its requests (the file first, then what it loads) and its console errors and exceptions', async () => {
    const dir = tempDir('amctl-browser-page-')
    const file = join(dir, 'page.html')
    writeFileSync(join(dir, 'style.css'), 'body{margin:0}')
    writeFileSync(
      file,
      `<!doctype html><html lang="en"><head><title>t</title><link rel="stylesheet" href="style.css"></head>
<body><main><h1>t</h1></main><script>console.error('broken: ' + 1 + 1); console.log('fine')</script><script>throw new Error('at load')</script></body></html>`,
    )
    const {errors, requests} = await browser.open({file})
    expect(errors).toEqual(['broken: 11', 'uncaught: at load'])
    expect(requests).toEqual([fileUrl(file), fileUrl(join(dir, 'style.css'))])
  })

  it('a page from a string: a request it sends is recorded, and the load it is refused is a console error', async () => {
    const dir = tempDir('amctl-browser-page-')
    const {requests, errors} = await browser.open({
      html: `<!doctype html><html lang="en"><title>t</title><main><img alt="" src="${fileUrl(join(dir, 'missing.png'))}"></main></html>`,
    })
    expect(requests).toEqual([fileUrl(join(dir, 'missing.png'))])
    expect(errors).toEqual([`Not allowed to load local resource: ${fileUrl(join(dir, 'missing.png'))}`])
  })

  it('axe-core names the serious and critical violations, and none on a clean page', async () => {
    const bad = await browser.open({
      html: '<!doctype html><html><title>t</title><main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button></main></html>',
    })
    const found = await seriousViolations(bad.page)
    expect(found.map((v) => v.id).sort()).toEqual(['button-name', 'html-has-lang', 'image-alt'])
    expect(found.find((v) => v.id === 'image-alt')).toMatchObject({impact: 'critical', nodes: ['img']})
    const clean = await browser.open({html: '<!doctype html><html lang="en"><title>t</title><main><h1>Fine</h1></main></html>'})
    expect(await seriousViolations(clean.page)).toEqual([])
    expect(clean.errors).toEqual([])
  })

  it('a screenshot is a PNG of the fixed viewport; written only when asked, and not again with the same bytes', async () => {
    const {page} = await browser.open({html: SHOT_PAGE})
    const dir = tempDir('amctl-browser-shots-')
    const asked = await screenshot(page, 'shot', {dir, write: true})
    expect(asked.written).toBe(join(dir, 'shot.png'))
    expect(readFileSync(join(dir, 'shot.png')).equals(asked.png)).toBe(true)
    expect(asked.png.subarray(1, 4).toString('latin1')).toBe('PNG')
    // the IHDR chunk: width and height, big-endian
    expect([asked.png.readUInt32BE(16), asked.png.readUInt32BE(20)]).toEqual([VIEWPORT.width, VIEWPORT.height])
    const again = await screenshot(page, 'shot', {dir, write: true})
    expect(again.written).toBeUndefined()
    expect(again.png.equals(asked.png)).toBe(true)
    const unasked = await screenshot(page, 'other', {dir, write: false, selector: 'h1'})
    expect(unasked.written).toBeUndefined()
    expect(readdirSync(dir)).toEqual(['shot.png'])
  })

  it('a picture for docs/ is refused when a font outside the fixed ones drew it', async () => {
    const {page} = await browser.open({html: SHOT_PAGE.replace('DejaVu Sans', 'DejaVu Serif')})
    const dir = tempDir('amctl-browser-shots-')
    await expect(screenshot(page, 'serif', {dir, write: true})).rejects.toThrow(/serif\.png would be drawn with DejaVu Serif, not only/)
    expect(readdirSync(dir)).toEqual([])
  })
})
