import {Flags} from '@oclif/core'
import {listRuns, runPages} from '../../api/runs.js'
import {ApiCommand} from '../../base/api-command.js'
import {commandResult, type StreamedList} from '../../base/results.js'
import type {Run} from '../../contract/types.js'
import {PAGE_LIMIT, type Page} from '../../contract/vocabulary.js'
import {parseIntegerInRange, requireText} from '../../input/values.js'
import {styled} from '../../output/renderer.js'
import {RUN_COLUMNS} from './shared/columns.js'
import type {OperationId} from '../../contract/routes.js'
import {shellLine} from './shared/shell.js'

export default class RunsList extends ApiCommand {
  static override summary = 'List runs of the organization, newest first'
  static operations: OperationId[] = ['listRuns']
  static override description =
    `--limit is the page size (${PAGE_LIMIT.min}–${PAGE_LIMIT.max}; the server's default when not given). --cursor continues from a nextCursor value.

--all follows nextCursor to the end (from --cursor or the start) and streams: runs are written as each page arrives, so memory stays flat whatever the count; with --json the output is one {"items":[…]} document. If a page fails midway, that document is closed as {"items":[…],"error":{…}} and the exit code is the error's.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --org acme --limit 5',
    {
      description: 'Count every run of the organization',
      command: "<%= config.bin %> <%= command.id %> --org acme --all --jq '.items | length'",
    },
    {
      description: 'Only the failed runs, as IDs',
      command: '<%= config.bin %> <%= command.id %> --org acme --all | awk \'$2 == "failed" {print $1}\'',
    },
  ]

  static override flags = {
    limit: Flags.string({description: `page size, ${PAGE_LIMIT.min}–${PAGE_LIMIT.max}`}),
    cursor: Flags.string({description: 'start from this cursor (a nextCursor value)'}),
    all: Flags.boolean({description: 'follow nextCursor to the last page, streaming'}),
  }

  async run(): Promise<Page<Run> | StreamedList<Run>> {
    const {flags} = await this.parse(RunsList)
    const limit = flags.limit === undefined ? undefined : parseIntegerInRange('--limit', flags.limit, PAGE_LIMIT.min, PAGE_LIMIT.max)
    const cursor = flags.cursor === undefined ? undefined : requireText('--cursor', flags.cursor)
    const client = await this.ctx.http()
    const org = await this.ctx.org()
    if (flags.all) {
      return commandResult({
        kind: 'stream',
        pages: runPages(client, org, {limit, cursor}),
        columns: RUN_COLUMNS,
        noun: {one: 'run', other: 'runs'},
      })
    }

    const page = await listRuns(client, org, {limit, cursor})
    this.out.list(page.items, RUN_COLUMNS)
    if (page.nextCursor && this.io.stderrIsTTY)
      this.out.notice(styled(`more: ${await this.moreCommand(page.nextCursor, limit)} (or --all)`, 'dim'))
    return page
  }

  /** The command that shows the next page, with the flags that chose this one (so pasting it works). */
  private async moreCommand(cursor: string, limit: number | undefined): Promise<string> {
    const {flags} = await this.parse(RunsList)
    const words = ['amctl', 'runs', 'list', '--cursor', cursor]
    if (limit !== undefined) words.push('--limit', String(limit))
    for (const name of ['org', 'profile', 'base-url'] as const) if (flags[name] !== undefined) words.push(`--${name}`, flags[name])
    return shellLine(words)
  }
}
