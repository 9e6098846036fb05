import {Flags} from '@oclif/core'
import {listRuns, runPages} from '../../api/runs.js'
import {pageFlags} from '../../base/flags.js'
import {ListCommand} from '../../base/list-command.js'
import {commandResult, type StreamedList} from '../../base/results.js'
import type {Run} from '../../contract/types.js'
import {PAGE_LIMIT, type Page} from '../../contract/vocabulary.js'
import {styled} from '../../output/renderer.js'
import {RUN_COLUMNS} from '../../output/run-columns.js'
import type {OperationId} from '../../contract/routes.js'
import {RECENT_LIMITS, sightingsOfRuns} from '../../core/recent.js'
import {filterPages, filterWords, isFiltering, parseRunFilter, STATUS_FILTERS} from '../../gate/filter.js'
import {Progress} from '../../output/progress.js'
import {counted, firstMatches, MAX_RUNS, type Matches} from './shared/matches.js'

const FILTER = 'FILTER'

export default class RunsList extends ListCommand {
  static override summary = 'List runs of the organization, newest first'
  static operations: OperationId[] = ['listRuns']
  static override description =
    `--limit is the page size (${PAGE_LIMIT.min}–${PAGE_LIMIT.max}; the server's default when not given). --cursor continues from a nextCursor value.

--all follows nextCursor to the end (from --cursor or the start) and streams: runs are written as each page arrives, so memory stays flat whatever the count; with --json the output is one {"items":[…]} document. If a page fails midway, that document is closed as {"items":[…],"error":{…}} and the exit code is the error's.

Piped, each run is one tab-separated row: ID, status, eval set, created, agent, model, score (a field the run lacks is empty; fields are only ever added at the end).

Filters (as gh run list has them) keep the runs that match all of them: --status (repeatable or comma-separated: ${STATUS_FILTERS.join(', ')}; unfinished is any status not terminal), --eval-set, --agent, --model (exact), --since and --until (a duration before now such as 7d, 12h, 90m, or a date such as 2026-11-01 or 2026-11-01T09:30:00Z; UTC when no zone is given; --since keeps runs created at or after it, --until those created before it). The API has no filters, so amctl filters what it reads, in every output form. Without --all it shows the newest --limit runs that match (${PAGE_LIMIT.default} without --limit), as gh run list --workflow does: the first page as without a filter, then pages of ${PAGE_LIMIT.max} until that many matched, the list ended, or ${counted(MAX_RUNS)} runs were read (a progress line on a terminal, which also says when that bound stopped it); the more: hint keeps the filters and continues right after the last run shown. With --all every page is read, streaming. Runs come newest first, so with --since paging stops at the first page that reaches older runs (--verbose says so), and that page's nextCursor is null.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --org acme --limit 5',
    {
      description: 'Count every run of the organization',
      command: "<%= config.bin %> <%= command.id %> --org acme --all --jq '.items | length'",
    },
    {
      description: 'Only the failed runs, as IDs',
      command: '<%= config.bin %> <%= command.id %> --org acme --all --status failed | cut -f1',
    },
    {
      description: 'The runs of one eval set and model in the last week that did not succeed, or are not finished',
      command:
        '<%= config.bin %> <%= command.id %> --org acme --all --eval-set es_acme_checkout --model gpt-5 --since 7d --status failed,cancelled,unfinished',
    },
  ]

  static override flags = {
    ...pageFlags,
    status: Flags.string({
      description: `keep runs with this status: ${STATUS_FILTERS.join(', ')} (repeatable, or comma-separated)`,
      multiple: true,
      multipleNonGreedy: true,
      helpValue: 'STATUS',
      helpGroup: FILTER,
    }),
    'eval-set': Flags.string({description: 'keep runs of this eval set', helpValue: 'ID', helpGroup: FILTER}),
    agent: Flags.string({description: 'keep runs of this agent', helpValue: 'AGENT', helpGroup: FILTER}),
    model: Flags.string({description: 'keep runs of this model', helpValue: 'MODEL', helpGroup: FILTER}),
    since: Flags.string({
      description: 'keep runs created at or after: 7d, 12h, 90m ago, or a date (UTC unless a zone is given); stops paging there',
      helpValue: 'DURATION|DATE',
      helpGroup: FILTER,
    }),
    until: Flags.string({
      description: 'keep runs created before: a duration ago or a date, as --since',
      helpValue: 'DURATION|DATE',
      helpGroup: FILTER,
    }),
  }

  async run(): Promise<Page<Run> | StreamedList<Run>> {
    const {flags} = await this.parse(RunsList)
    const paging = this.paging(flags)
    const filter = parseRunFilter(flags, this.clock.wall())
    const filtering = isFiltering(filter)
    const client = await this.ctx.http()
    const org = await this.ctx.org()
    const verbose = (await this.ctx.settings()).verbose
    const bound = (): void => {
      if (verbose && filter.since !== undefined) this.out.notice(styled(sinceReached(filter.since), 'dim'))
    }
    if (paging.all) {
      const pages = runPages(client, org, {query: paging.query})
      return commandResult({
        kind: 'stream',
        pages: this.seen(org, filtering ? filterPages(pages, filter, bound) : pages),
        columns: RUN_COLUMNS,
        noun: {one: 'run', other: 'runs'},
      })
    }

    if (!filtering) {
      const page = await listRuns(client, org, paging.query)
      this.ctx.saw(sightingsOfRuns(org, page.items))
      this.out.list(page.items, RUN_COLUMNS)
      await this.more(page, paging, [])
      return page
    }
    const progress = new Progress(this.io, {one: 'run', other: 'runs'}, this.clock, this.signals)
    let matches: Matches
    try {
      matches = await firstMatches(client, org, paging.query, filter, (read) => progress.update(read))
    } finally {
      progress.clear()
    }
    const {page, reached, read, wanted} = matches
    if (reached) bound()
    this.ctx.saw(sightingsOfRuns(org, page.items))
    this.out.list(page.items, RUN_COLUMNS)
    if (page.nextCursor && page.items.length < wanted && this.io.stderrIsTTY) {
      const kept = `${counted(page.items.length)} of the ${counted(read)} newest runs read`
      const limit = paging.query.limit === undefined ? `the ${wanted} asked for` : `--limit ${wanted}`
      this.out.notice(
        styled(`the filters kept ${kept}, fewer than ${limit}: amctl reads at most ${counted(MAX_RUNS)} runs for one page`, 'dim'),
      )
    }
    await this.more(page, paging, [], filterWords(filter))
    return page
  }

  /** The pages as they are, the newest runs of them kept for shell completion on the way. */
  private async *seen(org: string, pages: AsyncIterable<Page<Run>>): AsyncIterable<Page<Run>> {
    let count = 0
    for await (const page of pages) {
      if (count < RECENT_LIMITS.runs) this.ctx.saw(sightingsOfRuns(org, page.items.slice(0, RECENT_LIMITS.runs - count)))
      count += page.items.length
      yield page
    }
  }
}

/** What --verbose says when --since stopped the paging. */
function sinceReached(since: number): string {
  return `--since: this page reaches runs created before ${new Date(since).toISOString()}; no later page is read`
}
