import type {Page} from '../../api/types.js'
import {BadResponseError} from '../errors.js'
import type {HttpClient, RequestSpec} from './client.js'
import {withQuery} from './path.js'

export interface PageOptions {
  /** Page size, sent only when given. */
  limit?: number
  /** Start from this cursor instead of the beginning. */
  cursor?: string
}

/** One page of a collection: a JSON object whose `items` is an array, else `bad_response`. */
export async function getPage<T>(client: HttpClient, spec: Omit<RequestSpec, 'method'>): Promise<Page<T>> {
  const page = await client.json<Page<T>>({...spec, method: 'GET'})
  if (!Array.isArray(page.items)) {
    const path = spec.path.split('?')[0]
    throw new BadResponseError(`expected a page with an "items" array from GET ${path}, got ${'items' in page ? typeof page.items : 'no "items"'}`)
  }
  return page
}

/**
 * Follows `nextCursor` one page per iteration (nothing is fetched ahead). A cursor seen twice
 * ends the walk with `bad_response` instead of looping forever.
 */
export async function* pages<T>(client: HttpClient, path: string, opts: PageOptions = {}): AsyncGenerator<Page<T>> {
  const seen = new Set<string>()
  let cursor = opts.cursor
  if (cursor !== undefined) seen.add(cursor)
  for (;;) {
    const page = await getPage<T>(client, {path: withQuery(path, {limit: opts.limit, cursor})})
    yield page
    const next = page.nextCursor
    if (next === undefined || next === null || next === '') return
    if (typeof next !== 'string') throw new BadResponseError(`"nextCursor" is not a string in GET ${path}`)
    if (seen.has(next)) {
      throw new BadResponseError(`the server sent cursor "${next}" twice; stopping instead of looping forever`)
    }
    seen.add(next)
    cursor = next
  }
}
