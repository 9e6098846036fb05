import type {Run} from '../contract/types.js'
import {type Page, RUN_STATUSES, TERMINAL_RUN_STATUSES} from '../contract/vocabulary.js'
import {BadResponseError, UsageError} from '../core/errors.js'
import {parseTimeBound, requireText} from '../input/values.js'
import {assertRow} from '../output/format.js'

/**
 * Runs chosen client-side (the API's run list takes no filter): `runs list --status/--eval-set/
 * --agent/--model/--since/--until`, and the newest-first scan with a time bound that both `runs
 * list --since` and the baseline lookup of a wait (`--baseline previous`) stop paging with.
 */

/** What `--status` accepts: the statuses of contract 5, and `unfinished` (any status that is not terminal). */
export const STATUS_FILTERS = [...RUN_STATUSES, 'unfinished'] as const

export interface RunFilter {
  /** statuses to keep (`unfinished` is not among them: see `unfinished`) */
  statuses?: ReadonlySet<string>
  /** keep runs whose status is not terminal (any other value counts as not finished) */
  unfinished?: boolean
  evalSetId?: string
  agent?: string
  model?: string
  /** epoch ms: keep runs created at or after it; the list is read no further than the first page that reaches older runs */
  since?: number
  /** epoch ms: keep runs created before it */
  until?: number
}

/** A run's `createdAt` in epoch ms, or undefined when it is not a date. */
export function createdMs(run: Run): number | undefined {
  const at = typeof run.createdAt === 'string' ? dateMs(run.createdAt) : Number.NaN
  return Number.isNaN(at) ? undefined : at
}

/** The decimal digits of `text` from `at`, `count` of them, as a number; -1 when one is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0
  for (let i = at; i < at + count; i++) {
    const digit = text.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return -1
    value = value * 10 + digit
  }
  return value
}

/**
 * Date.parse of `text`, its value to the millisecond, with a fast way for the form the API
 * writes (`2026-11-30T12:34:56.789Z`, contract 1.4): every run of a history is dated, and
 * 100,000 calls of Date.parse cost about 16 ms where this takes 6. Hand-written: the days of a
 * civil date (H. Hinnant's days_from_civil), linear in the day as Date.parse is (a 31st of
 * February is the 3rd of March for both); anything else, Date.parse itself.
 */
export function dateMs(text: string): number {
  if (
    text.length === 24 &&
    text.charCodeAt(4) === 0x2d &&
    text.charCodeAt(7) === 0x2d &&
    text.charCodeAt(10) === 0x54 &&
    text.charCodeAt(13) === 0x3a &&
    text.charCodeAt(16) === 0x3a &&
    text.charCodeAt(19) === 0x2e &&
    text.charCodeAt(23) === 0x5a
  ) {
    const year = digitsAt(text, 0, 4)
    const month = digitsAt(text, 5, 2)
    const day = digitsAt(text, 8, 2)
    const hour = digitsAt(text, 11, 2)
    const minute = digitsAt(text, 14, 2)
    const second = digitsAt(text, 17, 2)
    const ms = digitsAt(text, 20, 3)
    if (
      year >= 0 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 31 &&
      hour >= 0 &&
      hour < 24 &&
      minute >= 0 &&
      minute < 60 &&
      second >= 0 &&
      second < 60 &&
      ms >= 0
    ) {
      const y = month <= 2 ? year - 1 : year
      const era = Math.floor(y / 400)
      const yearOfEra = y - era * 400
      const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
      const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
      const days = era * 146097 + dayOfEra - 719468
      return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + ms
    }
  }
  return Date.parse(text)
}

const short = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

/**
 * A run the gate judges, or a time bound reads, must be what contract 5 says: a `createdAt` that
 * is a date, and a `score` that is a number from 0 to 1 or null. Anything else is a bad answer
 * from the server (exit 1): never "no baseline", never a pass on a score of 5, never a run that
 * silently drops out of `runs list --since`.
 */
export function checkRun(run: Run): void {
  assertRow(run)
  const id = typeof run.id === 'string' ? run.id : short(run.id)
  const score: unknown = run.score
  if (score !== null && score !== undefined && (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1)) {
    throw new BadResponseError(`the server's run ${id} has a score that is not a number from 0 to 1 or null: ${short(score)}`)
  }
  checkCreatedAt(run)
}

/** A run's `createdAt` must be a date (see checkRun). */
export function checkCreatedAt(run: Run): void {
  if (createdMs(run) === undefined) {
    const id = typeof run.id === 'string' ? run.id : short(run.id)
    throw new BadResponseError(`the server's run ${id} has a createdAt that is not a date: ${short(run.createdAt)}`)
  }
}

/** Whether `run` is one the filter keeps. With a time bound, a run whose createdAt is not a date is a bad answer (exit 1). */
export function matchesFilter(run: Run, filter: RunFilter): boolean {
  if (filter.statuses !== undefined || filter.unfinished) {
    const status = typeof run.status === 'string' ? run.status : undefined
    const listed = status !== undefined && filter.statuses?.has(status) === true
    const unfinished = filter.unfinished === true && !(status !== undefined && TERMINAL_RUN_STATUSES.includes(status))
    if (!listed && !unfinished) return false
  }
  if (filter.evalSetId !== undefined && run.evalSetId !== filter.evalSetId) return false
  if (filter.agent !== undefined && run.agent !== filter.agent) return false
  if (filter.model !== undefined && run.model !== filter.model) return false
  if (filter.since !== undefined || filter.until !== undefined) {
    checkCreatedAt(run)
    const at = createdMs(run) as number
    if (filter.since !== undefined && at < filter.since) return false
    if (filter.until !== undefined && at >= filter.until) return false
  }
  return true
}

/**
 * The pages of a newest-first run list, up to and including the first page that holds a run
 * created before `bound` (epoch ms): the pages after it hold only older runs, so they are never
 * requested (`pages` fetches one page per iteration). `onBound` is told when that happened.
 * Without a bound, every page.
 */
export async function* newestUntil(
  pages: AsyncIterable<Page<Run>>,
  bound: number | undefined,
  onBound?: () => void,
  datesChecked = bound !== undefined,
): AsyncGenerator<Page<Run>> {
  for await (const page of pages) {
    for (const item of page.items) {
      assertRow(item)
      // a bound read on a run without a date would skip it, or stop too early
      if (datesChecked) checkCreatedAt(item)
    }
    yield page
    if (reachesBound(page, bound)) {
      onBound?.()
      return
    }
  }
}

/** Whether the page holds a run created before `bound` (its dates were checked). */
function reachesBound(page: Page<Run>, bound: number | undefined): boolean {
  return bound !== undefined && page.items.some((run) => (createdMs(run) ?? Number.POSITIVE_INFINITY) < bound)
}

/** Whether a filter was given at all. */
export function isFiltering(filter: RunFilter): boolean {
  return Object.values(filter).some((value) => value !== undefined && value !== false)
}

/**
 * The pages of the list with only the runs `filter` keeps, read no further than `--since` needs
 * (see newestUntil). A page may come out empty; its `nextCursor` is kept, or null once the bound
 * was reached (no later page holds a run the filter keeps).
 */
export async function* filterPages(pages: AsyncIterable<Page<Run>>, filter: RunFilter, onBound?: () => void): AsyncGenerator<Page<Run>> {
  for await (const page of newestUntil(pages, filter.since, onBound, filter.since !== undefined || filter.until !== undefined)) {
    yield filterPage(page, filter).page
  }
}

/** One page with only the runs `filter` keeps; `reached`: it holds runs older than `--since` (no later page can match). */
export function filterPage(page: Page<Run>, filter: RunFilter): {page: Page<Run>; reached: boolean} {
  const timed = filter.since !== undefined || filter.until !== undefined
  for (const item of page.items) {
    assertRow(item)
    if (timed) checkCreatedAt(item)
  }
  const reached = reachesBound(page, filter.since)
  const items = page.items.filter((run) => matchesFilter(run, filter))
  return {page: {...page, items, nextCursor: reached ? null : page.nextCursor}, reached}
}

/** The filter flags of `runs list`, as given. */
export interface FilterFlagValues {
  status?: string[]
  'eval-set'?: string
  agent?: string
  model?: string
  since?: string
  until?: string
}

/** The filter flags, checked (exit 2 naming the flag, before any request); `now` anchors durations. */
export function parseRunFilter(flags: FilterFlagValues, now: number): RunFilter {
  const filter: RunFilter = {}
  if (flags.status !== undefined) {
    const statuses = new Set<string>()
    for (const value of flags.status.flatMap((v) => v.split(','))) {
      const status = value.trim().toLowerCase()
      if (!(STATUS_FILTERS as readonly string[]).includes(status)) {
        throw new UsageError(`--status must be one of ${STATUS_FILTERS.join(', ')} (repeat it or separate with commas), got "${value}"`)
      }
      if (status === 'unfinished') filter.unfinished = true
      else statuses.add(status)
    }
    if (statuses.size > 0) filter.statuses = statuses
  }
  if (flags['eval-set'] !== undefined) filter.evalSetId = requireText('--eval-set', flags['eval-set'])
  if (flags.agent !== undefined) filter.agent = requireText('--agent', flags.agent)
  if (flags.model !== undefined) filter.model = requireText('--model', flags.model)
  if (flags.since !== undefined) filter.since = parseTimeBound('--since', flags.since, now)
  if (flags.until !== undefined) filter.until = parseTimeBound('--until', flags.until, now)
  if (filter.since !== undefined && filter.until !== undefined && filter.since >= filter.until) {
    throw new UsageError(
      `--since (${new Date(filter.since).toISOString()}) must come before --until (${new Date(filter.until).toISOString()})`,
    )
  }
  return filter
}

/** The filter as flags to paste (the `more:` hint): durations become the instants they meant, so the next page keeps the same bounds. */
export function filterWords(filter: RunFilter): string[] {
  const words: string[] = []
  const statuses = [...(filter.statuses ?? []), ...(filter.unfinished ? ['unfinished'] : [])]
  if (statuses.length > 0) words.push('--status', statuses.join(','))
  if (filter.evalSetId !== undefined) words.push('--eval-set', filter.evalSetId)
  if (filter.agent !== undefined) words.push('--agent', filter.agent)
  if (filter.model !== undefined) words.push('--model', filter.model)
  if (filter.since !== undefined) words.push('--since', new Date(filter.since).toISOString())
  if (filter.until !== undefined) words.push('--until', new Date(filter.until).toISOString())
  return words
}
