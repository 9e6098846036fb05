import {describe, expect, it} from 'vitest'
import {pollRuns} from '../../src/gate/poll.js'
import type {Run} from '../../src/contract/types.js'
import type {Page} from '../../src/contract/vocabulary.js'

const CREATED = '2026-01-01T00:00:00Z'
const run = (id: string, status = 'running'): Run => ({
  id,
  status,
  evalSetId: 'es_1',
  batchId: null,
  createdAt: CREATED,
  forkedFrom: null,
  agent: null,
  model: null,
  score: null,
})

/** Pages of the given IDs, newest first; `pulled` records each page handed out (one request each). */
function list(pages: string[][]): {pages: AsyncIterable<Page<Run>>; pulled: number[]} {
  const pulled: number[] = []
  async function* gen(): AsyncGenerator<Page<Run>> {
    for (let i = 0; i < pages.length; i++) {
      pulled.push(i + 1)
      yield {items: pages[i].map((id) => run(id)), nextCursor: i < pages.length - 1 ? `c${i + 1}` : null}
    }
  }
  return {pages: gen(), pulled}
}

const THREE_PAGES = [
  ['r9', 'r8', 'r7'],
  ['r6', 'r5', 'r4'],
  ['r3', 'r2', 'r1'],
]

describe('the poll planner (contract 5)', () => {
  it('reads one page when every run looked for is on it', async () => {
    const l = list(THREE_PAGES)
    const result = await pollRuns(l.pages, new Set(['r7', 'r9']))
    expect(l.pulled).toEqual([1])
    expect([...result.found.keys()].sort()).toEqual(['r7', 'r9'])
    expect(result).toMatchObject({missing: [], pages: 1})
  })

  it('follows nextCursor only until the last run looked for has been seen', async () => {
    const l = list(THREE_PAGES)
    const result = await pollRuns(l.pages, new Set(['r9', 'r5']))
    expect(l.pulled).toEqual([1, 2])
    expect(result.found.get('r5')?.id).toBe('r5')
    expect(result.pages).toBe(2)
  })

  it('reads the whole list when a run is on the last page', async () => {
    const l = list(THREE_PAGES)
    const result = await pollRuns(l.pages, new Set(['r1']))
    expect(l.pulled).toEqual([1, 2, 3])
    expect(result.missing).toEqual([])
  })

  it('an ID the whole list does not hold is missing (the others are still found)', async () => {
    const l = list(THREE_PAGES)
    const result = await pollRuns(l.pages, new Set(['r8', 'nope', 'gone']))
    expect(l.pulled).toEqual([1, 2, 3])
    expect(result.missing).toEqual(['nope', 'gone'])
    expect([...result.found.keys()]).toEqual(['r8'])
  })

  it('looks for nothing, reads nothing', async () => {
    const l = list(THREE_PAGES)
    expect(await pollRuns(l.pages, new Set())).toEqual({found: new Map(), missing: [], pages: 0})
    expect(l.pulled).toEqual([])
  })

  it('an ID listed twice keeps its first (newest) state', async () => {
    async function* pages(): AsyncGenerator<Page<Run>> {
      yield {items: [run('r1', 'succeeded')], nextCursor: 'c1'}
      yield {items: [run('r1', 'queued'), run('r2')], nextCursor: null}
    }
    const result = await pollRuns(pages(), new Set(['r1', 'r2']))
    expect(result.found.get('r1')?.status).toBe('succeeded')
  })

  it('an item that is not an object is a bad response, not a crash', async () => {
    async function* pages(): AsyncGenerator<Page<Run>> {
      yield {items: ['r1' as unknown as Run], nextCursor: null}
    }
    await expect(pollRuns(pages(), new Set(['r1']))).rejects.toMatchObject({code: 'bad_response', exitCode: 1})
  })

  it('stops the page walk where it stops reading (the generator is closed)', async () => {
    let closed = false
    async function* pages(): AsyncGenerator<Page<Run>> {
      try {
        yield {items: [run('r2')], nextCursor: 'c1'}
        yield {items: [run('r1')], nextCursor: null}
      } finally {
        closed = true
      }
    }
    await pollRuns(pages(), new Set(['r2']))
    expect(closed).toBe(true)
  })
})
