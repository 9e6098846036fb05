import type {Run} from '../../src/contract/types.js'
import type {Page} from '../../src/contract/vocabulary.js'

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
