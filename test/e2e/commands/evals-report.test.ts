import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import type {EvalsReportResult} from '../../../src/commands/evals/report.js'
import type {Run} from '../../../src/contract/types.js'
import type {EvalStats} from '../../../src/gate/history-stats.js'
import {tempDir} from '../../helpers/temp.js'
import {useE2E} from '../helpers.js'
import {API, expectOk, jsonDoc, lines, requestsOf} from './util.js'

// `amctl evals report` from the built CLI against the dev server: the page of an eval set's whole
// history holds every run of it (the run list read another way), each group with the verdict of
// `evals stats`, read with the same requests.

const e2e = useE2E()

const dataOf = (html: string) =>
  JSON.parse((/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html) as RegExpExecArray)[1])

describe('amctl evals report', () => {
  it('writes every run of the eval set into the page, each group with its evals stats verdict, read as evals stats reads', async () => {
    const list = await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--json'])
    expectOk(list)
    const runs = (jsonDoc(list).items as Run[]).filter((run) => run.evalSetId === 'es_acme_search')
    const html = join(tempDir('amctl-report-'), 'search.html')
    const [r, requests] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['evals', 'report', 'es_acme_search', '--org', 'acme', '--window', '0', '--html', html, '--json']),
    )
    expectOk(r, /^Wrote .*search\.html: \d+ runs of es_acme_search in \d+ groups \(\d+ KiB\)\n$/)
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.every((req) => req.startsWith(`GET ${API}/orgs/acme/runs?limit=200`))).toBe(true)
    const doc = jsonDoc(r) as EvalsReportResult
    const page = readFileSync(html, 'utf8')
    expect(doc).toMatchObject({path: html, bytes: statSync(html).size, evalSetId: 'es_acme_search', runs: runs.length})
    expect(statSync(html).mode & 0o777).toBe(0o644)
    // every run once, oldest first
    expect(dataOf(page).runs.id).toHaveLength(runs.length)
    expect(new Set(dataOf(page).runs.id)).toEqual(new Set(runs.map((run) => run.id)))
    const stats = await e2e.current.amctl(['evals', 'stats', 'es_acme_search', '--org', 'acme', '--window', '0', '--json'])
    expectOk(stats)
    const byStats = (jsonDoc(stats) as EvalStats).groups
    expect(doc.groups.map(({agent, model, runs: n, verdict}) => ({agent, model, runs: n, verdict}))).toEqual(
      byStats.map(({agent, model, runs: n, verdict}) => ({agent, model, runs: n, verdict})),
    )
    for (const group of byStats) expect(page).toContain(`>${group.verdict}</span> <span class="of">evals stats</span>`)
    expect(page.match(/<svg class="chart"/g)).toHaveLength(byStats.length)
  })

  it('a --run-url that is not https is exit 2, one line, and no request', async () => {
    const html = join(tempDir('amctl-report-'), 'x.html')
    const [r, requests] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['evals', 'report', 'es_acme_search', '--org', 'acme', '--html', html, '--run-url', 'ftp://example.com/{id}']),
    )
    expect(r.exitCode).toBe(2)
    expect(lines(r.stderr)).toHaveLength(1)
    expect(r.stderr).toMatch(/^error: --run-url must use https/)
    expect(requests).toEqual([])
  })
})
