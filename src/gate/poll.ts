import type {Run} from '../contract/types.js'
import type {Page} from '../contract/vocabulary.js'
import {assertRow} from '../output/format.js'
import {checkRun} from './filter.js'

/** What one poll of the run list learned about the watched runs it looked for. */
export interface PollResult {
  /** the runs found, by ID (the first, newest, occurrence) */
  found: Map<string, Run>
  /** the IDs looked for that the whole list does not hold */
  missing: string[]
  /** pages read */
  pages: number
}

/**
 * The poll planner of contract 5: reads the organization's runs from the newest page and stops
 * as soon as every ID in `wanted` (the watched runs not finished yet) has been seen in this
 * poll, so a poll is one request when they all sit on the first page. `pages` yields one page
 * per request (src/api/runs.ts runPages), so leaving the loop stops the requests; an ID still
 * unseen when the list ends is `missing`.
 */
export async function pollRuns(pages: AsyncIterable<Page<Run>>, wanted: ReadonlySet<string>): Promise<PollResult> {
  const found = new Map<string, Run>()
  let count = 0
  if (wanted.size === 0) return {found, missing: [], pages: 0}
  for await (const page of pages) {
    count++
    for (const item of page.items) {
      assertRow(item)
      if (wanted.has(item.id) && !found.has(item.id)) {
        // a watched run with a malformed score or createdAt is a bad answer (exit 1), never judged
        checkRun(item)
        found.set(item.id, item)
      }
    }
    if (found.size === wanted.size) break
  }
  return {found, missing: [...wanted].filter((id) => !found.has(id)), pages: count}
}
