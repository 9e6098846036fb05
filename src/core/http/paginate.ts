import type {Page} from '../../contract/vocabulary.js'
import {BadResponseError, inNotFound} from '../errors.js'
import type {HttpClient} from './client.js'
import {withQuery} from './path.js'

export interface PageOptions {
  /** Page size, sent only when given. */
  limit?: number
  /** Start from this cursor instead of the beginning. */
  cursor?: string
  headers?: Record<string, string>
  /** what the pages hold, for a 404 on a later page: "the runs of acme" (default: `GET <path>`) */
  what?: string
  /**
   * The collection answered before (a wait's later poll, "at poll 3"): a 404 on any page, the
   * first included, is that page's, not the organization's.
   */
  again?: string
  /** the caller gave up (a wait's Ctrl-C): the page in flight is abandoned and no other is asked for */
  signal?: AbortSignal
}

/** One page of a collection: a JSON object whose `items` is an array, else `bad_response`. */
export async function getPage<T>(
  client: HttpClient,
  path: string,
  headers?: Record<string, string>,
  signal?: AbortSignal,
): Promise<Page<T>> {
  const page = await client.json<Page<T>>({method: 'GET', path, headers, signal})
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
 * instead of looping forever. A 404 on a page after the first (or on any page of a collection
 * read before, `again`) is that page's: its context says which page and cursor, so nobody reads
 * it as the organization missing when a page earlier answered.
 */
export async function* pages<T>(client: HttpClient, path: string, opts: PageOptions = {}): AsyncGenerator<Page<T>> {
  const seen = new Set<string>()
  let cursor = opts.cursor
  if (cursor !== undefined) seen.add(cursor)
  for (let number = 1; ; number++) {
    let page: Page<T>
    try {
      page = await getPage<T>(client, withQuery(path, {limit: opts.limit, cursor}), opts.headers, opts.signal)
    } catch (error) {
      opts.signal?.throwIfAborted()
      if (number === 1 && opts.again === undefined) throw error
      const which = `page ${number}${cursor === undefined ? '' : ` (cursor ${cursor})`}`
      const when = opts.again === undefined ? '' : ` ${opts.again}`
      throw inNotFound(error, {text: `${which} of ${opts.what ?? `GET ${path.split('?')[0]}`}${when} not found`, names: ['page']})
    }
    yield page
    const next = page.nextCursor
    if (next === undefined || next === null || next === '') return
    if (typeof next !== 'string') throw new BadResponseError(`"nextCursor" is not a string in GET ${path.split('?')[0]}`)
    if (seen.has(next)) throw new BadResponseError(`the server sent cursor "${next}" twice; stopping instead of looping forever`)
    seen.add(next)
    cursor = next
  }
}
