import {describe, expect, it} from 'vitest'
import {EVAL_SETS, ORGS, RUN_COUNTS, seededRunId} from '../../src/devserver/seed.js'
import {outcomeOf} from '../../src/devserver/runs.js'
import {expectError, useSeededServer} from './helpers.js'

const f = useSeededServer()

async function walk(org: string, limit: number, between?: (page: number) => Promise<void>): Promise<any[]> {
  const items: any[] = []
  let cursor: string | null | undefined
  for (let page = 0; ; page += 1) {
    const query = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const answer = await f.server.api('GET', `/orgs/${org}/runs?${query}`, {token: f.ada})
    expect(answer.status).toBe(200)
    expect(answer.body.items.length).toBeLessThanOrEqual(limit)
    items.push(...answer.body.items)
    cursor = answer.body.nextCursor
    if (!cursor) return items
    await between?.(page)
  }
}

describe('GET /orgs/{org}/runs', () => {
  it('lists the seeded runs newest first, 50 by default, with Run members', async () => {
    const answer = await f.server.api('GET', '/orgs/acme/runs', {token: f.ada})
    expect(answer.body.items).toHaveLength(50)
    expect(answer.body.items[0]).toMatchObject({id: seededRunId('acme', RUN_COUNTS.acme), status: 'queued', forkedFrom: null})
    expect(Object.keys(answer.body.items[0])).toEqual(
      expect.arrayContaining(['id', 'status', 'evalSetId', 'batchId', 'createdAt', 'forkedFrom']),
    )
    expect(typeof answer.body.nextCursor).toBe('string')
  })

  it('walks every seeded run exactly once, createdAt descending, and ends with a null cursor', async () => {
    const items = await walk('acme', 7)
    expect(items.map((run) => run.id)).toEqual(Array.from({length: RUN_COUNTS.acme}, (_, i) => seededRunId('acme', RUN_COUNTS.acme - i)))
    for (let i = 1; i < items.length; i += 1) expect(items[i - 1].createdAt >= items[i].createdAt).toBe(true)
    const globex = await walk(ORGS.globex.publicId, 200)
    expect(globex).toHaveLength(RUN_COUNTS.globex)
    const last = await f.server.api('GET', '/orgs/globex/runs?limit=200', {token: f.ada})
    expect(last.body.nextCursor).toBeNull()
  })

  it('has no duplicate and no gap while runs are added during the walk', async () => {
    const before = (await walk('acme', 200)).map((run) => run.id)
    const seen = await walk('acme', 11, async (page) => {
      if (page % 2 === 0) await f.server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: f.ada, body: {}})
      else await f.server.call('POST', '/_dev/orgs/acme/runs', {body: {count: 5}})
    })
    expect(seen.map((run) => run.id)).toEqual(before)
    const after = await walk('acme', 200)
    expect(after.length).toBeGreaterThan(before.length)
    expect(after.slice(after.length - before.length).map((run) => run.id)).toEqual(before)
  })

  it.each(['0', '201', 'abc', '-1', '1.5', '', '10abc'])('refuses limit=%s with 400', async (limit) => {
    expect(expectError(await f.server.api('GET', `/orgs/acme/runs?limit=${limit}`, {token: f.ada}), 400, 'invalid_request')).toContain(
      'limit',
    )
  })

  it('accepts limit 1 and 200', async () => {
    expect((await f.server.api('GET', '/orgs/acme/runs?limit=1', {token: f.ada})).body.items).toHaveLength(1)
    expect((await f.server.api('GET', '/orgs/acme/runs?limit=200', {token: f.ada})).body.items).toHaveLength(200)
  })

  it('refuses invalid cursors with 400', async () => {
    const page = await f.server.api('GET', '/orgs/acme/runs?limit=5', {token: f.ada})
    const other = await f.server.api('GET', '/orgs/globex/runs?limit=5', {token: f.ada})
    const forged = Buffer.from(`${ORGS.acme.publicId}:999999`).toString('base64url')
    const zero = Buffer.from(`${ORGS.acme.publicId}:0`).toString('base64url')
    for (const cursor of ['garbage!', 'bm90LWEtY3Vyc29y', '', forged, zero, `${page.body.nextCursor}x`, other.body.nextCursor]) {
      const answer = await f.server.api('GET', `/orgs/acme/runs?cursor=${encodeURIComponent(cursor)}`, {token: f.ada})
      expect(expectError(answer, 400, 'invalid_request')).toContain('cursor')
    }
  })

  it("adds finished runs as launches of the organization's eval sets would: each target in turn, outcomes drawn for each triple", async () => {
    const added = await f.server.call('POST', '/_dev/orgs/acme/runs', {body: {count: 10}})
    expect(added.status).toBe(200)
    const oldestFirst = (await walk('acme', 200)).reverse()
    const newest = oldestFirst.slice(-10)
    expect(newest.map((run) => `${run.evalSetId} ${run.agent}`)).toEqual(
      Array(2)
        .fill([
          `${EVAL_SETS.acmeCheckout} claude-code`,
          `${EVAL_SETS.acmeCheckout} codex`,
          `${EVAL_SETS.acmeSearch} claude-code`,
          `${EVAL_SETS.acmeSearch} codex`,
          `${EVAL_SETS.acmeSearch} cursor-agent`,
        ])
        .flat(),
    )
    for (const run of newest) {
      const k = oldestFirst
        .slice(0, oldestFirst.indexOf(run))
        .filter((r) => r.evalSetId === run.evalSetId && r.agent === run.agent && r.model === run.model).length
      expect({status: run.status, score: run.score}).toEqual({status: outcomeOf(run, k).outcome, score: outcomeOf(run, k).score})
    }
  })

  it('pages anywhere in 100,000 runs (speed is measured by npm run bench)', async () => {
    const added = await f.server.call('POST', '/_dev/orgs/globex/runs', {body: {count: 100_000}})
    expect(added.body).toEqual({added: 100_000, runCount: RUN_COUNTS.globex + 100_000})
    const state = await f.server.call('GET', '/_dev/orgs/globex')
    expect(state.body.runCount).toBe(RUN_COUNTS.globex + 100_000)
    // full pages from the top, the middle and the bottom of the list
    const cursorAt = (position: number) => Buffer.from(`${ORGS.globex.publicId}:${position}`).toString('base64url')
    for (const position of [100_040, 50_000, 201]) {
      const answer = await fetch(`${f.server.url}/api/v1/orgs/globex/runs?limit=200&cursor=${cursorAt(position)}`, {
        headers: {authorization: `Bearer ${f.ada}`},
      })
      expect(((await answer.json()) as {items: unknown[]}).items).toHaveLength(200)
    }
  })
})

describe('POST /runs/{runId}/fork', () => {
  it("creates a run in the source run's organization, on top of the list, with forkedFrom", async () => {
    const source = seededRunId('globex', 3)
    const answer = await f.server.api('POST', `/runs/${source}/fork`, {token: f.grace, body: {reason: 'retry'}})
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      status: 'queued',
      forkedFrom: source,
      evalSetId: EVAL_SETS.globexOnboarding,
      forkOptions: {reason: 'retry'},
    })
    const top = await f.server.api('GET', '/orgs/globex/runs?limit=1', {token: f.grace})
    expect(top.body.items[0]).toEqual(answer.body)
  })

  it('works without a body', async () => {
    const answer = await f.server.api('POST', `/runs/${seededRunId('acme', 1)}/fork`, {token: f.ada})
    expect(answer.body.forkedFrom).toBe(seededRunId('acme', 1))
  })

  it('answers 403 to a non-member, 404 for a missing run, 400 for a body that is not an object', async () => {
    expectError(await f.server.api('POST', `/runs/${seededRunId('acme', 1)}/fork`, {token: f.grace, body: {}}), 403, 'forbidden')
    expect(expectError(await f.server.api('POST', '/runs/run_nope/fork', {token: f.ada, body: {}}), 404, 'not_found')).toBe(
      'run "run_nope" not found',
    )
    expectError(await f.server.api('POST', `/runs/${seededRunId('acme', 1)}/fork`, {token: f.ada, raw: '"x"'}), 400, 'invalid_request')
  })

  it('answers 402 insufficient_credits when the organization has no credits', async () => {
    await f.server.call('PATCH', '/_dev/orgs/acme', {body: {credits: 0}})
    try {
      expectError(await f.server.api('POST', `/runs/${seededRunId('acme', 2)}/fork`, {token: f.ada, body: {}}), 402, 'insufficient_credits')
    } finally {
      await f.server.call('PATCH', '/_dev/orgs/acme', {body: {credits: 1000}})
    }
  })
})
