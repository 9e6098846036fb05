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
 * The IDs seen lately, in memory that neither grows with the list nor churns: two generations of
 * at most `size` IDs each, so that an ID seen again within `size` IDs of its first sighting is
 * always found, and one seen longer ago may not be. Every ID of 100,000 runs held 14 MB more at
 * the peak; Sets of the last 2,000 still cost `runs list --all` 8 MB of peak RSS over 100,000 runs
 * (67 → 75 MB), each generation of strings promoted and dropped, so an ID is kept as two 32-bit
 * hashes in preallocated tables (open addressing, at most half full). Two different IDs share
 * both hashes with odds of about 1 in 2^64 a pair; a server that wanted to hide runs from a count
 * could as well leave them out.
 */
export class RecentIds {
  /** slots of a table, a power of two at least twice `size`: each holds a pair of hashes, (0, 0) when empty */
  private readonly slots: number
  private current: Uint32Array
  private previous: Uint32Array
  private count = 0
  // the hashes of the ID at hand (hash() sets them: no array made per ID)
  private a = 0
  private b = 0

  constructor(private readonly size = RECENT_IDS) {
    let slots = 1
    while (slots < 2 * size) slots *= 2
    this.slots = slots
    this.current = new Uint32Array(2 * slots)
    this.previous = new Uint32Array(2 * slots)
  }

  has(id: string): boolean {
    this.hash(id)
    return this.holds(this.current) || this.holds(this.previous)
  }

  /** Holds `id` from now on; whether it was new (not held already). */
  add(id: string): boolean {
    this.hash(id)
    if (this.holds(this.current)) return false
    const seen = this.holds(this.previous)
    if (this.count >= this.size) {
      const emptied = this.previous.fill(0)
      this.previous = this.current
      this.current = emptied
      this.count = 0
    }
    const mask = this.slots - 1
    let slot = this.a & mask
    while (this.current[2 * slot] !== 0 || this.current[2 * slot + 1] !== 0) slot = (slot + 1) & mask
    this.current[2 * slot] = this.a
    this.current[2 * slot + 1] = this.b
    this.count++
    return !seen
  }

  /** Whether `table` holds the pair of hashes at hand. */
  private holds(table: Uint32Array): boolean {
    const mask = this.slots - 1
    for (let slot = this.a & mask; ; slot = (slot + 1) & mask) {
      const a = table[2 * slot]
      const b = table[2 * slot + 1]
      if (a === this.a && b === this.b) return true
      if (a === 0 && b === 0) return false
    }
  }

  /** Two independent 32-bit hashes of `id` (FNV-1a and a multiply-rotate, each finished by murmur3's fmix32); never both 0. */
  private hash(id: string): void {
    let a = 0x811c9dc5
    let b = 0x9747b28c ^ id.length
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i)
      a = Math.imul(a ^ c, 0x01000193)
      b = Math.imul(b ^ c, 0xcc9e2d51)
      b = (b << 15) | (b >>> 17)
    }
    this.a = fmix32(a)
    this.b = fmix32(b) || (this.a === 0 ? 1 : 0)
  }
}

/** murmur3's finalizer: every bit of the result depends on every bit of `h`. */
function fmix32(h: number): number {
  let x = h ^ (h >>> 16)
  x = Math.imul(x, 0x85ebca6b)
  x ^= x >>> 13
  x = Math.imul(x, 0xc2b2ae35)
  return (x ^ (x >>> 16)) >>> 0
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
  const listedBefore = (item: unknown): boolean => {
    const id = idOf(item)
    return id !== undefined && listed.has(id)
  }
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
    if (page.items.length > 0 && page.items.every(listedBefore)) {
      const which = `page ${number}${cursor === undefined ? '' : ` (cursor ${JSON.stringify(cursor)})`}`
      throw new BadResponseError(
        `${which} of ${opts.what ?? `GET ${path.split('?')[0]}`} holds only items already listed: the list comes round again; stopping instead of looping forever`,
      )
    }
    for (const item of page.items) {
      const id = idOf(item)
      if (id !== undefined) listed.add(id)
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
