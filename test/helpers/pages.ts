import type {Run} from '../../src/contract/types.js'
import {PAGE_LIMIT, type Page} from '../../src/contract/vocabulary.js'

/**
 * Pages as src/api/runs.ts runPages yields them (one request per iteration), from lists of
 * items, counting how many were requested: for scans that must stop early.
 */
export function countedPages<T>(pages: T[][]): {pages: AsyncIterable<Page<T>>; requested: () => number} {
  let requested = 0
  async function* gen() {
    for (const items of pages) {
      requested++
      yield {items, nextCursor: 'next'}
    }
  }
  return {pages: gen(), requested: () => requested}
}

/** A succeeded run of eval set es_1, agent a, model m, score 0.5, created at `createdAt`; `fields` override. */
export function runAt(id: string, createdAt: string, fields: Partial<Run> = {}): Run {
  return {
    id,
    status: 'succeeded',
    evalSetId: 'es_1',
    batchId: null,
    createdAt,
    forkedFrom: null,
    agent: 'a',
    model: 'm',
    score: 0.5,
    ...fields,
  } as Run
}

/**
 * The answers of a server whose list comes round again (issue 37 item 12): `items`, then the same
 * items again and again, each page with a cursor it never gave before (`w<position>`), so that no
 * check of repeated cursors catches it; pages of the request's `limit` (the API's default without
 * one). After `rounds` times round the list ends (nextCursor null): a reader that never notices
 * still finishes, and its test fails instead of hanging.
 */
export function roundAndRound<T>(items: readonly T[], rounds = 10): (url: URL) => Page<T> {
  const total = items.length * rounds
  return (url) => {
    const limit = Number(url.searchParams.get('limit') ?? PAGE_LIMIT.default)
    const cursor = url.searchParams.get('cursor')
    const start = cursor === null ? 0 : Number(cursor.slice(1))
    const end = Math.min(start + limit, total)
    return {
      items: Array.from({length: end - start}, (_, i) => items[(start + i) % items.length]),
      nextCursor: end < total ? `w${end}` : null,
    }
  }
}
