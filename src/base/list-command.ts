import type {Interfaces} from '@oclif/core'
import {PAGE_LIMIT, type Page} from '../contract/vocabulary.js'
import type {HttpClient} from '../core/http/client.js'
import {parseIntegerInRange, requireText} from '../input/values.js'
import type {Column} from '../output/format.js'
import type {Noun} from '../output/progress.js'
import {styled} from '../output/renderer.js'
import {shellLine} from '../output/shell.js'
import {ApiCommand} from './api-command.js'
import type {pageFlags} from './flags.js'
import {commandResult, type StreamedList} from './results.js'

/** The paging flags as given (`pageFlags`). */
export type PageFlags = Interfaces.InferredFlags<typeof pageFlags>

/** The paging flags, checked: the page's query (each member sent only when given), and --all. */
export interface Paging {
  query: {limit?: number; cursor?: string}
  all: boolean
}

/** What a list command shows of a collection: how its pages are read, and how its items look. */
export interface Listing<P extends Page<T>, T> {
  /** the collection's pages from `query.cursor` (or the start), one request per iteration (an api function over callPages) */
  pages: (client: HttpClient, org: string, opts: {query: Paging['query']}) => AsyncIterable<P>
  columns: readonly Column<T>[]
  /** what --all's progress line counts */
  noun: Noun
  /** the command's arguments, for the more: hint */
  args?: readonly string[]
}

/**
 * Base of a command that lists a collection the API pages (`runs list`): --limit, --cursor and
 * --all (`pageFlags`) mean the same on each, one page is shown with the command that shows the
 * next (`more:` on a terminal), and --all streams every page (cli-contract.md 1.4, 1.6).
 */
export abstract class ListCommand extends ApiCommand {
  /** The paging flags, checked (exit 2 before any request). */
  protected paging(flags: PageFlags): Paging {
    const limit = flags.limit === undefined ? undefined : parseIntegerInRange('--limit', flags.limit, PAGE_LIMIT.min, PAGE_LIMIT.max)
    const cursor = flags.cursor === undefined ? undefined : requireText('--cursor', flags.cursor)
    return {query: {limit, cursor}, all: flags.all}
  }

  /**
   * The list: with --all every page, streamed (the base renders it); otherwise one page, shown,
   * then on a terminal the command that shows the next. `paging` is checked first (`paging()`):
   * a bad flag exits 2 before the organization is resolved or anything sent.
   */
  protected async list<P extends Page<T>, T>(paging: Paging, listing: Listing<P, T>): Promise<P | StreamedList<T>> {
    const pages = listing.pages(await this.ctx.http(), await this.ctx.org(), {query: paging.query})
    if (paging.all) return commandResult({kind: 'stream', pages, columns: listing.columns, noun: listing.noun})
    const page = await firstPage(pages)
    this.out.list(page.items, listing.columns)
    await this.more(page, paging, listing.args ?? [])
    return page
  }

  /**
   * On a terminal, when there is a next page: `more: <the command that shows it> (or --all)`, with
   * the arguments and flags that chose this one (`words`: filters…), quoted so that pasting it works.
   */
  protected async more(page: Page<unknown>, paging: Paging, args: readonly string[], words: readonly string[] = []): Promise<void> {
    if (!page.nextCursor || !this.io.stderrIsTTY) return
    const {flags} = await this.parse(this.ctor)
    const line = ['amctl', ...(this.id ?? '').split(':'), ...args, '--cursor', page.nextCursor]
    if (paging.query.limit !== undefined) line.push('--limit', String(paging.query.limit))
    line.push(...words)
    const chosen = flags as Record<string, unknown>
    for (const name of ['org', 'profile', 'base-url']) if (typeof chosen[name] === 'string') line.push(`--${name}`, chosen[name] as string)
    this.out.notice(styled(`more: ${shellLine(line)} (or --all)`, 'dim'))
  }
}

/** The first page of `pages`, the walk then closed (nothing is fetched ahead: no other request is sent). */
async function firstPage<P>(pages: AsyncIterable<P>): Promise<P> {
  const walk = pages[Symbol.asyncIterator]()
  const {value, done} = await walk.next()
  await walk.return?.()
  if (done) throw new Error('a collection without a first page')
  return value
}
