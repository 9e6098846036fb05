import {PAGE_LIMIT, type Page} from '../../contract/vocabulary.js'
import {BadResponseError, inNotFound} from '../errors.js'
import type {HttpClient} from './client.js'
import {withQuery} from './path.js'

export interface PageOptions {
  /** Page size, sent only when given. */
  limit?: number
  /** the page size of every page after the first (default: `limit`): a filter that reads on asks for the most at once */
  laterLimit?: number
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

/** How many IDs a generation of RecentIds holds by default: five pages of the most the API gives. */
export const RECENT_IDS = 5 * PAGE_LIMIT.max

/**
 * The IDs seen lately, in memory that does not grow with the list: two generations of at most
 * `size` each (every ID of 100,000 runs held 14 MB more at the peak), so that an ID seen again
 * within `size` IDs of its first sighting is always found, and one seen longer ago may not be.
 */
export class RecentIds {
  private current = new Set<string>()
  private previous = new Set<string>()

  constructor(private readonly size = RECENT_IDS) {}

  has(id: string): boolean {
    return this.current.has(id) || this.previous.has(id)
  }

  add(id: string): void {
    if (this.current.size >= this.size) {
      this.previous = this.current
      this.current = new Set()
    }
    this.current.add(id)
  }
}

/** An item's `id` when it is a string (the items of every list amctl pages have one). */
function idOf(item: unknown): string | undefined {
  const id = typeof item === 'object' && item !== null ? (item as {id?: unknown}).id : undefined
  return typeof id === 'string' ? id : undefined
}

/**
 * Follows `nextCursor` one page per iteration (nothing is fetched ahead, so a consumer that
 * stops iterating stops the requests). The walk ends with `bad_response` instead of looping
 * forever on a cursor seen twice, and on a page that holds only items already listed (each with
 * an `id`, all among the RECENT_IDS listed last): a list served round and round with cursors
 * never given before, which no check of cursors catches (issue 37 item 12). Every whole-list
 * reader goes through here: `--all`, `evals stats`, the gate's polls and baseline scans. A page
 * that lists only some items again is read on (pages that overlap while the list grows); one that
 * lists nothing new means the walk makes no headway: a list growing by a page or more between two
 * requests would keep it on the same items too. A 404 on a page after the first (or on any page
 * of a collection read before, `again`) is that page's: its context says which page and cursor,
 * so nobody reads it as the organization missing when a page earlier answered.
 */
export async function* pages<T>(client: HttpClient, path: string, opts: PageOptions = {}): AsyncGenerator<Page<T>> {
  const seen = new Set<string>()
  const listed = new RecentIds()
  let cursor = opts.cursor
  if (cursor !== undefined) seen.add(cursor)
  for (let number = 1; ; number++) {
    let page: Page<T>
    try {
      const limit = number === 1 ? opts.limit : (opts.laterLimit ?? opts.limit)
      page = await getPage<T>(client, withQuery(path, {limit, cursor}), opts.headers, opts.signal)
    } catch (error) {
      opts.signal?.throwIfAborted()
      if (number === 1 && opts.again === undefined) throw error
      const which = `page ${number}${cursor === undefined ? '' : ` (cursor ${cursor})`}`
      const when = opts.again === undefined ? '' : ` ${opts.again}`
      throw inNotFound(error, {text: `${which} of ${opts.what ?? `GET ${path.split('?')[0]}`}${when} not found`, names: ['page']})
    }
    const ids = page.items.map(idOf)
    if (ids.length > 0 && ids.every((id) => id !== undefined && listed.has(id))) {
      const which = `page ${number}${cursor === undefined ? '' : ` (cursor ${JSON.stringify(cursor)})`}`
      throw new BadResponseError(
        `${which} of ${opts.what ?? `GET ${path.split('?')[0]}`} holds only items already listed: the list comes round again; stopping instead of looping forever`,
      )
    }
    for (const id of ids) if (id !== undefined) listed.add(id)
    yield page
    const next = page.nextCursor
    if (next === undefined || next === null || next === '') return
    if (typeof next !== 'string') throw new BadResponseError(`"nextCursor" is not a string in GET ${path.split('?')[0]}`)
    if (seen.has(next)) throw new BadResponseError(`the server sent cursor "${next}" twice; stopping instead of looping forever`)
    seen.add(next)
    cursor = next
  }
}
