import {beforeAll, describe, expect, it} from 'vitest'
import {standingClock, useE2E} from '../helpers.js'
import {API, direct, expectError, expectJsonError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll, sorted} from './util.js'
import {seededRunCreatedAt} from '../../../src/devserver/seed.js'
import type {Run} from '../../../src/contract/types.js'

// runs list (one page, --all streaming over every seeded run, --cursor) and runs fork.

// (the server's clock stands still: a forked run is `queued` when the next command reads it, however busy the machine)
const e2e = useE2E({now: standingClock()})
const ACME_ID = 'org_01J9ACME0000000000000000'

/** Walks GET /orgs/acme/runs page by page with fetch (the oracle): every page, in order. */
async function walk(limit?: number): Promise<Array<{cursor: string | undefined; items: Run[]; nextCursor: string | null}>> {
  const pages = []
  let cursor: string | undefined
  for (;;) {
    const query = new URLSearchParams()
    if (limit !== undefined) query.set('limit', String(limit))
    if (cursor !== undefined) query.set('cursor', cursor)
    const qs = query.toString()
    const {status, body} = await direct(e2e.current, 'GET', `${API}/orgs/acme/runs${qs ? `?${qs}` : ''}`)
    expect(status).toBe(200)
    pages.push({cursor, items: body.items as Run[], nextCursor: body.nextCursor as string | null})
    if (!body.nextCursor) return pages
    cursor = body.nextCursor
  }
}

// ID, status, eval set, created, then agent, model and score (empty when a run has none)
const tsv = (run: Run) =>
  [run.id, run.status, run.evalSetId ?? '', run.createdAt, run.agent ?? '', run.model ?? '', run.score ?? ''].join('\t')

let runCount: number
beforeAll(async () => {
  runCount = (await e2e.current.hook('GET', '/_dev/orgs/acme')).runCount
})

describe('amctl runs list', () => {
  it('one page, piped: TSV rows id/status/eval set/created, newest first, limit sent only when given', async () => {
    const [first] = await walk(5)
    const [[r, plain], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '5']),
      () => e2e.current.amctl(['runs', 'list', '--org', 'acme']),
    ])
    expect(reqs).toEqual(sorted([`GET ${API}/orgs/acme/runs?limit=5`, `GET ${API}/orgs/acme/runs`]))
    expectOk(r)
    expect(lines(r.stdout)).toEqual(first.items.map(tsv))
    expect(lines(r.stdout)[0]).toMatch(
      new RegExp(`^run_acme_0260\tqueued\tes_acme_search\t${seededRunCreatedAt('acme', 260, e2e.current.server.seededAt ?? 0)}\t`),
    )
    expectOk(plain)
    expect(lines(plain.stdout)).toHaveLength(50) // the server's default page
  })

  it('--json: the page as the API returned it, nextCursor included', async () => {
    const [first] = await walk(3)
    const r = await e2e.current.amctl(['runs', 'list', '--org', ACME_ID, '--limit', '3', '--json'])
    expectOk(r)
    expect(jsonDoc(r)).toEqual({items: first.items, nextCursor: first.nextCursor})
  })

  it('--all --json: every run once, in the order of walking the pages by hand', async () => {
    const byHand = (await walk(200)).flatMap((p) => p.items.map((run) => run.id))
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--json']))
    expectOk(r)
    const doc = jsonDoc(r)
    expect(Object.keys(doc)).toEqual(['items'])
    const ids = doc.items.map((run: Run) => run.id)
    expect(ids).toHaveLength(runCount)
    expect(runCount).toBeGreaterThanOrEqual(250)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual(byHand)
    expect(reqs[0]).toBe(`GET ${API}/orgs/acme/runs`)
    expect(reqs).toHaveLength(Math.ceil(runCount / 50))
  })

  it('--all --limit 7: many pages, each cursor followed once, same items', async () => {
    const pages = await walk(7)
    expect(pages.length).toBeGreaterThan(30)
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--limit', '7', '--json']),
    )
    expectOk(r)
    const ids = jsonDoc(r).items.map((run: Run) => run.id)
    expect(ids).toHaveLength(runCount)
    expect(new Set(ids).size).toBe(runCount)
    expect(ids).toEqual(pages.flatMap((p) => p.items.map((run) => run.id)))
    expect(reqs).toEqual(pages.map((p) => `GET ${API}/orgs/acme/runs?limit=7${p.cursor ? `&cursor=${p.cursor}` : ''}`))
  })

  it('--all --cursor C: from that cursor to the end; piped rows too', async () => {
    const pages = await walk(20)
    const start = pages[10]
    const rest = pages.slice(10).flatMap((p) => p.items)
    const [[r, piped], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--limit', '20', '--cursor', start.cursor!, '--json']),
      () => e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--limit', '20', '--cursor', start.cursor!]),
    ])
    expectOk(r)
    expect(jsonDoc(r).items.map((run: Run) => run.id)).toEqual(rest.map((run) => run.id))
    // each of the two walked the same pages from the cursor, and no other
    const walked = pages.slice(10).map((p) => `GET ${API}/orgs/acme/runs?limit=20&cursor=${p.cursor}`)
    expect(reqs).toEqual(sorted([...walked, ...walked]))
    expectOk(piped)
    expect(lines(piped.stdout)).toEqual(rest.map(tsv))
  })

  it("a bad --limit exits 2 before any request; a bad cursor is the server's 400 (exit 2)", async () => {
    const [[r, bad], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '201']),
      () => e2e.current.amctl(['runs', 'list', '--org', 'acme', '--cursor', 'bm9wZQ', '--json']),
    ])
    expect(expectError(r, 2, 'invalid_request')).toBe('--limit must be from 1 to 200, got 201')
    expect(reqs).toEqual([`GET ${API}/orgs/acme/runs?cursor=bm9wZQ`]) // nothing from the bad --limit; a 400 is not retried
    expect(expectJsonError(bad, 2, 'invalid_request', 400).message).toContain('invalid cursor')
  })
})

describe('amctl runs list --all: a page failing midway', () => {
  // the first two page requests pass (rule 1 takes them), the third answers 500 (rule 2)
  async function failThirdPage(): Promise<void> {
    await e2e.current.fault({match: {method: 'GET', path: '/orgs/acme/runs$'}, count: 2, actions: [{type: 'latency', ms: 1}]})
    await e2e.current.fault({
      match: {method: 'GET', path: '/orgs/acme/runs$'},
      count: 1,
      actions: [{type: 'status', status: 500, message: 'storage hiccup'}],
    })
  }

  it('--json: the document is closed as {"items":[…],"error":{…}}, still one JSON document; exit 1', async () => {
    const byHand = (await walk(100)).flatMap((p) => p.items.map((run) => run.id)).slice(0, 200)
    await failThirdPage()
    try {
      const [r, reqs] = await requestsOf(e2e.current, () =>
        e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--limit', '100', '--json']),
      )
      expect(r.exitCode).toBe(1)
      expect(r.stderr).toBe('')
      const doc = jsonDoc(r)
      expect(Object.keys(doc)).toEqual(['items', 'error'])
      expect(doc.items.map((run: Run) => run.id)).toEqual(byHand)
      expect(doc.error).toMatchObject({message: 'storage hiccup', status: 500})
      expect(reqs).toHaveLength(3) // a 500 is not retried
    } finally {
      await e2e.current.clearFaults()
    }
  })

  it('piped rows: the rows that came, then the error on stderr; exit 1', async () => {
    await failThirdPage()
    try {
      const r = await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--limit', '100'])
      expect(r.exitCode).toBe(1)
      expect(lines(r.stdout)).toHaveLength(200)
      expect(lines(r.stderr)).toEqual([expect.stringMatching(/^error: storage hiccup \(\w+, HTTP 500\)$/)])
    } finally {
      await e2e.current.clearFaults()
    }
  })
})

describe('amctl runs fork', () => {
  it('POST /runs/{id}/fork (no org in the path, no GET /me); the fork heads the list with forkedFrom', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['runs', 'fork', 'run_acme_0100']))
    expectOk(r)
    expect(reqs).toEqual([`POST ${API}/runs/run_acme_0100/fork`])
    const out = Object.fromEntries(lines(r.stdout).map((line) => line.split('\t')))
    expect(out).toMatchObject({status: 'queued', forkedFrom: 'run_acme_0100', evalSetId: 'es_acme_search', batchId: ''})
    expect(out.id).toMatch(/^run_/)

    const list = jsonDoc(await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '1', '--json']))
    expect(list.items[0]).toMatchObject({id: out.id, forkedFrom: 'run_acme_0100'})
    expect(list.items[0].status).toBe('queued')
  })

  it('--org and every other global flag are accepted; --org is ignored, as AMCTL_ORG is (the same one request)', async () => {
    const argv = ['runs', 'fork', 'run_acme_0101', '--org', 'globex', '--timeout', '20', '--verbose', '--profile', 'default']
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(argv))
    expect(r.exitCode, r.stderr).toBe(0)
    expect(reqs).toEqual([`POST ${API}/runs/run_acme_0101/fork`])
  })

  it('--json with -F/-f: the body reaches the server (kept as forkOptions)', async () => {
    const r = await e2e.current.amctl(
      ['runs', 'fork', 'run_acme_0150', '-F', 'samplesPerTarget=3', '-F', 'dry=false', '-f', 'note=007', '--json'],
      {as: 'ada'},
    )
    expectOk(r)
    const fork = jsonDoc(r)
    expect(fork).toMatchObject({forkedFrom: 'run_acme_0150', forkOptions: {samplesPerTarget: 3, dry: false, note: '007'}})
    const {body} = await direct(e2e.current, 'GET', `${API}/orgs/acme/runs?limit=1`)
    expect(body.items[0].id).toBe(fork.id)
  })

  it("an unknown run: exit 5 naming it; another org's run: exit 4; bad --input JSON: exit 2 with line and column, nothing sent", async () => {
    const [[missing, other, bad], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['runs', 'fork', 'run_acme_9999']),
      () => e2e.current.amctl(['runs', 'fork', 'run_acme_0001'], {as: 'grace'}),
      () => e2e.current.amctl(['runs', 'fork', 'run_acme_0001', '--input', '-'], {input: '{"a": 1,\n "b": [1, 2,]}'}),
    ])
    expect(expectError(missing, 5, 'not_found', 404)).toBe('run "run_acme_9999" not found')
    expect(expectError(other, 4, 'forbidden', 403)).toBe('grace@example.com is not a member of organization acme')
    expect(expectError(bad, 2, 'invalid_request')).toBe('--input (stdin) is not valid JSON: unexpected "]" at line 2, column 13')
    expect(reqs).toEqual(sorted([`POST ${API}/runs/run_acme_9999/fork`, `POST ${API}/runs/run_acme_0001/fork`])) // grace's only
  })

  it('sent but no answer (dropped after the fork was made): not resubmitted, exit 9 saying to check first', async () => {
    const before = (await e2e.current.hook('GET', '/_dev/orgs/acme')).runCount
    await e2e.current.fault({match: {method: 'POST', path: '/fork$'}, count: 1, actions: [{type: 'drop-after'}]})
    try {
      const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['runs', 'fork', 'run_acme_0042']))
      expect(expectError(r, 9, 'outcome_unknown')).toMatch(/the server may have accepted the request; check before retrying$/)
      expect(reqs).toEqual([`POST ${API}/runs/run_acme_0042/fork`]) // sent once, never again
    } finally {
      await e2e.current.clearFaults()
    }
    // it did happen: the caller finds it at the top of the list
    expect((await e2e.current.hook('GET', '/_dev/orgs/acme')).runCount).toBe(before + 1)
    expect((await direct(e2e.current, 'GET', `${API}/orgs/acme/runs?limit=1`)).body.items[0].forkedFrom).toBe('run_acme_0042')
  })

  it('no credits left: exit 8 (insufficient_credits), no run created', async () => {
    await e2e.current.hook('PATCH', '/_dev/orgs/acme', {credits: 0})
    try {
      const before = (await e2e.current.hook('GET', '/_dev/orgs/acme')).runCount
      const r = await e2e.current.amctl(['runs', 'fork', 'run_acme_0001'])
      expect(expectError(r, 8, 'insufficient_credits', 402)).toContain('no credits left')
      expect((await e2e.current.hook('GET', '/_dev/orgs/acme')).runCount).toBe(before)
    } finally {
      await e2e.current.hook('PATCH', '/_dev/orgs/acme', {credits: 1000})
    }
  })
})
