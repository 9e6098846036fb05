import {listRuns, runPages} from '../../../api/runs.js'
import type {Run} from '../../../contract/types.js'
import {PAGE_LIMIT, type Page} from '../../../contract/vocabulary.js'
import type {HttpClient} from '../../../core/http/client.js'
import {filterPage, type RunFilter} from '../../../gate/filter.js'

/**
 * One page of `runs list` with a filter and without --all: the newest `--limit` runs the filter
 * keeps (PAGE_LIMIT.default without --limit), as `gh run list --workflow X --limit 3` gives three
 * runs of X. The API has no filters, so the list is read from the cursor on until that many
 * matched, the list ends, `--since` is reached, or MAX_RUNS were read, whichever comes first.
 *
 * The first page is asked for as without a filter (`--limit`, or the server's default), so a
 * filter that most runs pass costs the one request it always did; the pages after it hold
 * PAGE_LIMIT.max runs, so a filter few runs pass costs few requests. A page holding more matches
 * than are still wanted is asked for again, up to the last match shown, so that its `nextCursor`
 * (the more: hint, --json's `nextCursor`) continues right after the last run shown: a script
 * that follows the cursors sees every match once, none twice.
 */

/** The most runs one filtered page reads (50 requests of 200): a filter that keeps nothing ends there, its cursor in hand. */
export const MAX_RUNS = 10_000

/** (./list.ts names its counts with it) */
export {counted} from '../../../output/format.js'

export interface Matches {
  /** the runs kept, at most `--limit` of them; `nextCursor` where the read stopped (null: the list ended, or --since was reached) */
  page: Page<Run>
  /** --since was reached: no later page holds a run the filter keeps */
  reached: boolean
  /** runs read */
  read: number
  /** how many were wanted (`--limit`, else PAGE_LIMIT.default) */
  wanted: number
}

/**
 * The matches of `filter` from `query.cursor` (or the newest run) on, `query.limit` of them;
 * `onPage` is told how many runs were read after each page (the progress line).
 */
export async function firstMatches(
  client: HttpClient,
  org: string,
  query: {limit?: number; cursor?: string},
  filter: RunFilter,
  onPage: (read: number) => void = () => {},
): Promise<Matches> {
  const wanted = query.limit ?? PAGE_LIMIT.default
  const items: Run[] = []
  let read = 0
  // the cursor the page in hand was asked for with (undefined: the newest)
  let cursor = query.cursor
  for await (const page of runPages(client, org, {query, laterLimit: PAGE_LIMIT.max})) {
    read += page.items.length
    onPage(read)
    let kept = filterPage(page, filter)
    const need = wanted - items.length
    if (kept.page.items.length > need) kept = await upTo(client, org, page, kept, cursor, need, filter)
    items.push(...kept.page.items)
    const next = kept.page.nextCursor
    if (kept.reached || items.length >= wanted || read >= MAX_RUNS || !next) {
      return {page: {...page, items, nextCursor: next ?? null}, reached: kept.reached, read, wanted}
    }
    cursor = next
  }
  // (the pager yields a first page or throws)
  throw new Error('a run list without a first page')
}

/**
 * `page` (asked for with `cursor`) again, up to its `need`-th match: the same runs in front of it,
 * and the cursor after it. When the server answers otherwise (the list moved under the cursor,
 * a smaller limit not honoured), the whole page as first read: more matches than wanted, but a
 * cursor that still skips none.
 */
async function upTo(
  client: HttpClient,
  org: string,
  page: Page<Run>,
  kept: ReturnType<typeof filterPage>,
  cursor: string | undefined,
  need: number,
  filter: RunFilter,
): Promise<ReturnType<typeof filterPage>> {
  const through = page.items.indexOf(kept.page.items[need - 1]) + 1
  const again = await listRuns(client, org, {limit: through, cursor})
  const same = again.items.length === through && again.items.every((run, i) => run.id === page.items[i].id)
  return same ? filterPage(again, filter) : kept
}
