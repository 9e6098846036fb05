import type {Page} from '../../contract/vocabulary.js'
import {BadResponseError} from '../errors.js'
import type {HttpClient} from './client.js'
import {withQuery} from './path.js'

export interface PageOptions {
  /** Page size, sent only when given. */
  limit?: number
  /** Start from this cursor instead of the beginning. */
  cursor?: string
  headers?: Record<string, string>
}

/** One page of a collection: a JSON object whose `items` is an array, else `bad_response`. */
export async function getPage<T>(client: HttpClient, path: string, headers?: Record<string, string>): Promise<Page<T>> {
  const page = await client.json<Page<T>>({method: 'GET', path, headers})
  if (!Array.isArray(page.items)) {
    throw new BadResponseError(
      `expected a page with an "items" array from GET ${path.split('?')[0]}, got ${'items' in page ? typeof page.items : 'no "items"'}`,
    )
  }
  return page
}

/**
 * Follows `nextCursor` one page per iteration (nothing is fetched ahead, so a consumer that
 * stops iterating stops the requests). A cursor seen twice ends the walk with `bad_response`
 * instead of looping forever.
 */
export async function* pages<T>(client: HttpClient, path: string, opts: PageOptions = {}): AsyncGenerator<Page<T>> {
  const seen = new Set<string>()
  let cursor = opts.cursor
  if (cursor !== undefined) seen.add(cursor)
  for (;;) {
    const page = await getPage<T>(client, withQuery(path, {limit: opts.limit, cursor}), opts.headers)
    yield page
    const next = page.nextCursor
    if (next === undefined || next === null || next === '') return
    if (typeof next !== 'string') throw new BadResponseError(`"nextCursor" is not a string in GET ${path.split('?')[0]}`)
    if (seen.has(next)) throw new BadResponseError(`the server sent cursor "${next}" twice; stopping instead of looping forever`)
    seen.add(next)
    cursor = next
  }
}
