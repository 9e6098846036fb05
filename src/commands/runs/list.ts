import {Flags} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {listRuns, runPages} from '../../api/runs.js'
import {PAGE_LIMIT_MAX, PAGE_LIMIT_MIN, type Page, type Run} from '../../api/types.js'
import {parseIntegerInRange, requireText} from '../../core/input.js'
import {RUN_COLUMNS} from '../../output/columns.js'
import {streamList} from '../../output/stream-list.js'

export default class RunsList extends ApiCommand {
  static override summary = 'List runs of the organization, newest first'
  static override description = `Sends GET /api/v1/orgs/{org}/runs. --limit is the page size (${PAGE_LIMIT_MIN}–${PAGE_LIMIT_MAX}, sent only when given).

--all follows nextCursor to the end (from --cursor or the start) and streams: items are written as each page arrives, so memory stays flat whatever the count; with --json the output is one {"items":[…]} document. If a page fails midway, that document is closed as {"items":[…],"error":{…}} and the exit code is the error's.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --limit 5',
    {description: 'Count every run of the organization', command: "<%= config.bin %> <%= command.id %> --all --json | jq '.items|length'"},
    {description: 'Continue from a cursor', command: '<%= config.bin %> <%= command.id %> --cursor eyJzIjo0Mn0'},
  ]

  static override flags = {
    limit: Flags.string({description: `page size, ${PAGE_LIMIT_MIN}–${PAGE_LIMIT_MAX}`}),
    cursor: Flags.string({description: 'start from this cursor (a nextCursor value)'}),
    all: Flags.boolean({description: 'follow nextCursor to the last page, streaming'}),
  }

  async run(): Promise<Page<Run> | undefined> {
    const {flags} = await this.parse(RunsList)
    const limit = flags.limit === undefined ? undefined : parseIntegerInRange('--limit', flags.limit, PAGE_LIMIT_MIN, PAGE_LIMIT_MAX)
    const cursor = flags.cursor === undefined ? undefined : requireText('--cursor', flags.cursor)
    const client = await this.client(flags)
    const org = await this.org(flags)

    if (flags.all) {
      await streamList(this.io, runPages(client, org, {limit, cursor}), {json: !this.human, columns: RUN_COLUMNS, noun: 'runs', style: this.style})
      return undefined
    }
    const page = await listRuns(client, org, {limit, cursor})
    this.renderList(page.items, RUN_COLUMNS)
    if (this.human && page.nextCursor && this.io.stderrIsTTY) {
      this.notice(this.errStyle.dim(`more: amctl runs list --cursor ${page.nextCursor}${limit ? ` --limit ${limit}` : ''} (or --all)`))
    }
    return page
  }
}
