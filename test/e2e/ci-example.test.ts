import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'
import {junitSchemaErrors} from '../gate/reports/fixtures.js'

// examples/ci/report.xml and summary.md, and their copies in docs/ci-reference.md, are what the built
// CLI writes against the dev server (bin/ci-example.js, run by `npm run docs`): stale files fail here.

const example = await import(pathToFileURL(join(ROOT, 'bin', 'ci-example.js')).href)

describe('the CI report example', () => {
  it('examples/ci/report.xml and summary.md are what `npm run docs` writes now, and docs/ci-reference.md shows them', async () => {
    const reports = await example.generate()
    expect(readFileSync(example.FILES.xml, 'utf8'), 'examples/ci/report.xml is stale: run npm run docs').toBe(reports.xml)
    expect(readFileSync(example.FILES.md, 'utf8'), 'examples/ci/summary.md is stale: run npm run docs').toBe(reports.md)
    const doc = readFileSync(example.FILES.doc, 'utf8')
    expect(example.withReports(doc, reports), 'docs/ci-reference.md is stale: run npm run docs').toBe(doc)
  })

  it('the example report is valid JUnit and shows a regression caught against its baseline', async () => {
    const xml = readFileSync(example.FILES.xml, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(xml).toContain('<failure type="noise"')
    expect(readFileSync(example.FILES.md, 'utf8')).toMatch(/below the mean of 20 earlier runs \(0\.\d\d ± 0\.\d\d\): beyond noise at 95 %/)
  })
})
