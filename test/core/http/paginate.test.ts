import {describe, expect, it} from 'vitest'
import {pages, RECENT_IDS, RecentIds} from '../../../src/core/http/paginate.js'
import {envelope, type Reply, reply, fakeApiClient, unchecked, useFakeApi} from '../../helpers/fake-api.js'
import {roundAndRound} from '../../helpers/pages.js'

type Answer = (url: URL) => Reply
const api = useFakeApi({}, {me: false})
const client = fakeApiClient(api, 'svc_page_token')
/** the pager walks any collection, documented or not: these pages hold made-up items */
const ANY_COLLECTION = 'src/core/http/paginate.ts pages any collection; its tests page made-up items'
/** GET `path` answers with `answer` (of the request's URL, query included) */
const serve = (path: string, answer: Answer) =>
  api.stub(`GET ${path}`, (req) => {
    const {status, body, headers} = answer(new URL(req.path, api.url))
    return unchecked(ANY_COLLECTION, status, body, headers)
  })
const requests = () => api.requests()

/** Three pages: a → b → c, cursors "c2" and "c3"; `last` is what the last page says. */
function threePages(last: Record<string, unknown> = {nextCursor: null}): Answer {
  return (url) => {
    const cursor = url.searchParams.get('cursor')
    if (cursor === null) return reply(200, {items: [{id: 'a'}], nextCursor: 'c2'})
    if (cursor === 'c2') return reply(200, {items: [{id: 'b'}], nextCursor: 'c3'})
    if (cursor === 'c3') return reply(200, {items: [{id: 'c'}], ...last})
    return envelope(400, 'invalid_request', `bad cursor ${cursor}`)
  }
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

describe('pages', () => {
  it('follows nextCursor via ?cursor= until it is null', async () => {
    serve('/orgs/acme/runs', threePages({nextCursor: null}))
    const got = (await collect(pages<{id: string}>(client, '/orgs/acme/runs'))).flatMap((page) => page.items)
    expect(got.map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(requests().map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v1/orgs/acme/runs',
      'GET /api/v1/orgs/acme/runs?cursor=c2',
      'GET /api/v1/orgs/acme/runs?cursor=c3',
    ])
    expect(requests().every((r) => r.headers.authorization === 'Bearer svc_page_token')).toBe(true)
  })

  it.each([
    ['absent', {}],
    ['empty string', {nextCursor: ''}],
  ])('stops when the cursor is %s', async (_name, last) => {
    serve('/orgs/acme/runs', threePages(last))
    const got = await collect(pages(client, '/orgs/acme/runs'))
    expect(got).toHaveLength(3)
    expect(requests()).toHaveLength(3)
  })

  it('sends limit only when given, on every page', async () => {
    serve('/orgs/acme/runs', threePages())
    await collect(pages(client, '/orgs/acme/runs', {limit: 25}))
    expect(requests().map((r) => r.path)).toEqual([
      '/api/v1/orgs/acme/runs?limit=25',
      '/api/v1/orgs/acme/runs?limit=25&cursor=c2',
      '/api/v1/orgs/acme/runs?limit=25&cursor=c3',
    ])
    api.requests().length = 0
    await collect(pages(client, '/orgs/acme/runs'))
    expect(requests().some((r) => r.path.includes('limit'))).toBe(false)
  })

  it('laterLimit: the pages after the first are asked for at that size (the first at limit, or the server default)', async () => {
    serve('/orgs/acme/runs', threePages())
    await collect(pages(client, '/orgs/acme/runs', {limit: 3, laterLimit: 200}))
    await collect(pages(client, '/orgs/acme/runs', {laterLimit: 200}))
    expect(requests().map((r) => r.path.replace('/api/v1/orgs/acme/runs', ''))).toEqual([
      '?limit=3',
      '?limit=200&cursor=c2',
      '?limit=200&cursor=c3',
      '',
      '?limit=200&cursor=c2',
      '?limit=200&cursor=c3',
    ])
  })

  it('starts from a given cursor', async () => {
    serve('/orgs/acme/runs', threePages())
    const got = (await collect(pages<{id: string}>(client, '/orgs/acme/runs', {cursor: 'c2'}))).flatMap((page) => page.items)
    expect(got.map((r) => r.id)).toEqual(['b', 'c'])
    expect(requests().map((r) => r.path)).toEqual(['/api/v1/orgs/acme/runs?cursor=c2', '/api/v1/orgs/acme/runs?cursor=c3'])
  })

  it('stops with bad_response when a cursor comes back twice, instead of looping', async () => {
    serve('/runs', (url) => {
      const cursor = url.searchParams.get('cursor')
      return reply(200, {items: [{id: cursor ?? 'first'}], nextCursor: cursor === 'x' ? 'y' : 'x'})
    })
    const seen: unknown[] = []
    const walk = (async () => {
      for await (const page of pages(client, '/runs')) seen.push(page)
    })()
    await expect(walk).rejects.toMatchObject({code: 'bad_response', exitCode: 1, message: expect.stringContaining('"x" twice')})
    // first, x, y — then y answers x again
    expect(seen).toHaveLength(3)
    expect(requests()).toHaveLength(3)
  })

  it('a list that comes round again with cursors never seen (a page of only items already listed) ends with bad_response naming the page and its cursor', async () => {
    // 500 items, 200 a page: 0–199, 200–399, 400–499 and 0–99 (some new: read on), 100–299 (none new)
    const list = roundAndRound(Array.from({length: 500}, (_, i) => ({id: `run_${i}`})))
    serve('/orgs/acme/runs', (url) => reply(200, list(url)))
    const seen: number[] = []
    const walk = (async () => {
      for await (const page of pages<{id: string}>(client, '/orgs/acme/runs', {limit: 200, what: 'the runs of acme'}))
        seen.push(page.items.length)
    })()
    await expect(walk).rejects.toMatchObject({
      code: 'bad_response',
      exitCode: 1,
      message:
        'page 4 (cursor "w600") of the runs of acme holds only items already listed: the list comes round again; stopping instead of looping forever',
    })
    expect(seen).toEqual([200, 200, 200])
    expect(requests().map((r) => r.path.split('?')[1])).toEqual([
      'limit=200',
      'limit=200&cursor=w200',
      'limit=200&cursor=w400',
      'limit=200&cursor=w600',
    ])
  })

  it('a page that lists some items again (pages that overlap while the list grows) is read on; so is a page of items without IDs, or none', async () => {
    serve('/runs', (url) => {
      const cursor = url.searchParams.get('cursor')
      if (cursor === null) return reply(200, {items: [{id: 'a'}, {id: 'b'}], nextCursor: 'c2'})
      if (cursor === 'c2') return reply(200, {items: [{id: 'b'}, {id: 'c'}], nextCursor: 'c3'})
      if (cursor === 'c3') return reply(200, {items: [], nextCursor: 'c4'})
      if (cursor === 'c4') return reply(200, {items: [1, 2], nextCursor: 'c5'})
      return reply(200, {items: [1, 2], nextCursor: null})
    })
    expect((await collect(pages(client, '/runs'))).map((page) => page.items.length)).toEqual([2, 2, 0, 2, 2])
  })

  it('a cursor equal to the starting one counts as repeated', async () => {
    serve('/runs', () => reply(200, {items: [], nextCursor: 'start'}))
    await expect(collect(pages(client, '/runs', {cursor: 'start'}))).rejects.toMatchObject({code: 'bad_response'})
    expect(requests()).toHaveLength(1)
  })

  it.each([
    ['no items', {nextCursor: null}],
    ['items not an array', {items: {id: 'a'}}],
  ])('a page with %s is bad_response', async (_name, body) => {
    serve('/runs', () => reply(200, body))
    await expect(collect(pages(client, '/runs'))).rejects.toMatchObject({code: 'bad_response', exitCode: 1})
  })

  it('a non-string cursor is bad_response', async () => {
    serve('/runs', () => reply(200, {items: [], nextCursor: 42}))
    await expect(collect(pages(client, '/runs'))).rejects.toMatchObject({code: 'bad_response'})
  })

  it('fetches one page per step, nothing ahead', async () => {
    serve('/orgs/acme/runs', threePages())
    const it = pages(client, '/orgs/acme/runs')
    expect(requests()).toHaveLength(0)
    await it.next()
    expect(requests()).toHaveLength(1)
    await it.next()
    expect(requests()).toHaveLength(2)
    await it.return(undefined)
    expect(requests()).toHaveLength(2)
  })

  it('an error response ends the walk with that error', async () => {
    serve('/runs', (url) =>
      url.searchParams.get('cursor') ? envelope(404, 'not_found', 'org gone') : reply(200, {items: [1], nextCursor: 'n'}),
    )
    const got: unknown[] = []
    await expect(
      (async () => {
        for await (const page of pages(client, '/runs')) got.push(...page.items)
      })(),
    ).rejects.toMatchObject({code: 'not_found', status: 404, exitCode: 5})
    expect(got).toEqual([1])
  })

  it("a 404 on a later page gets that page's context (its number, cursor and what the pages hold); the first page's none", async () => {
    const notFound = envelope(404, 'not_found', 'Cursor c2 has expired')
    serve('/orgs/acme/runs', (url) => (url.searchParams.get('cursor') ? notFound : reply(200, {items: [1], nextCursor: 'c2'})))
    const later = await collect(pages(client, '/orgs/acme/runs?limit=5', {what: 'the runs of acme'})).catch((e: unknown) => e)
    expect(later).toMatchObject({message: 'Cursor c2 has expired', context: {text: 'page 2 (cursor c2) of the runs of acme not found'}})
    const unnamed = await collect(pages(client, '/orgs/acme/runs?limit=5')).catch((e: unknown) => e)
    expect(unnamed).toMatchObject({context: {text: 'page 2 (cursor c2) of GET /orgs/acme/runs not found'}})
    serve('/orgs/acme/gone', () => notFound)
    const first = await collect(pages(client, '/orgs/acme/gone')).catch((e: unknown) => e)
    expect(first).toMatchObject({code: 'not_found', context: undefined})
    const again = await collect(pages(client, '/orgs/acme/gone', {what: 'the runs of acme', again: 'at poll 3'})).catch((e: unknown) => e)
    expect(again).toMatchObject({context: {text: 'page 1 of the runs of acme at poll 3 not found', names: ['page']}})
  })

  it('an error other than a 404 on a later page keeps no context', async () => {
    serve('/runs', (url) => (url.searchParams.get('cursor') ? envelope(403, 'forbidden', 'no') : reply(200, {items: [1], nextCursor: 'n'})))
    const e = await collect(pages(client, '/runs')).catch((error: unknown) => error)
    expect(e).toMatchObject({code: 'forbidden', context: undefined})
  })
})

describe('RecentIds (the repeat check of pages and of evals stats)', () => {
  it('finds an ID seen within `size` IDs, at either end of a generation, and forgets one seen two generations ago', () => {
    const ids = new RecentIds(4)
    expect(['a', 'b', 'c', 'd', 'a'].map((id) => ids.add(id))).toEqual([true, true, true, true, false])
    // (a new generation: e, f, g; a and d from the one before are still held)
    for (const id of ['e', 'f', 'g']) ids.add(id)
    expect(['a', 'd', 'e', 'g'].map((id) => ids.has(id))).toEqual([true, true, true, true])
    expect(ids.add('b')).toBe(false)
    for (const id of ['h', 'i', 'j', 'k', 'l']) ids.add(id)
    expect(['a', 'd', 'h', 'l', 'z'].map((id) => ids.has(id))).toEqual([false, false, true, true, false])
  })

  it('never takes a new ID for one seen: 90,000 IDs of runs, of UUIDs and of one letter apart', () => {
    const ids = new RecentIds()
    const kinds = [
      (i: number) => `run_${String(i).padStart(8, '0')}`,
      (i: number) => `${(i * 2654435761) >>> 0}-4a1b-9c2d-${i.toString(16).padStart(12, '0')}`,
      (i: number) => `r${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`,
    ]
    let wrong = 0
    for (const kind of kinds) {
      for (let i = 0; i < 30_000; i++) {
        const id = kind(i)
        if (ids.has(id)) wrong++
        ids.add(id)
        if (i >= RECENT_IDS && !ids.has(kind(i - RECENT_IDS))) wrong++
      }
    }
    expect(wrong).toBe(0)
  })
})
