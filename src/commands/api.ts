import {Args, Flags} from '@oclif/core'
import {rawPages, rawRequest} from '../api/raw.js'
import {ApiCommand} from '../base/api-command.js'
import {bodyFlags} from '../base/flags.js'
import {commandResult, type StreamedList} from '../base/results.js'
import type {JsonObject} from '../contract/types.js'
import {isAmctlError, UsageError} from '../core/errors.js'
import {buildBody, fieldPairs} from '../input/body.js'
import {checkApiPath, fieldsAsQuery, fillOrg, normalizeApiPath, parseHeaders, parseMethod, usesOrg} from '../input/api-args.js'

export default class Api extends ApiCommand {
  static override summary = 'Send any request to the API and print the response'
  /** sends whatever request the user names: it declares no `operations` (test/helpers/cli.ts) */
  static anyRequest = true
  static override description =
    `The escape hatch for the functional areas without a command, like \`gh api\`. PATH is relative to /api/v1 (a leading /api/v1 is accepted) and may carry a query string; {org} in it is replaced by the resolved organization.

The method is GET, or POST when a body is given (-F, -f, --input); -X chooses another. With -X GET the -F/-f fields are sent as query parameters. The response body is printed as it came: JSON as JSON (pretty on a terminal, compact otherwise), anything else as text. -i also prints the status line and headers; --silent prints no body. --paginate follows nextCursor and prints one {"items":[…]} with every page's items.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> /me',
    "<%= config.bin %> <%= command.id %> '/orgs/{org}/runs?limit=5' --org acme",
    "<%= config.bin %> <%= command.id %> -X GET '/orgs/{org}/runs' -F limit=2 --org acme -i",
    "<%= config.bin %> <%= command.id %> '/orgs/{org}/runs' --org acme --paginate --jq '.items | length'",
    "<%= config.bin %> <%= command.id %> -X PATCH '/orgs/{org}/eval-sets/es_acme_checkout' -F samplesPerTarget=5 --org acme",
  ]

  static override args = {path: Args.string({description: 'path relative to /api/v1, e.g. /orgs/{org}/summary', required: true})}
  static override flags = {
    method: Flags.string({char: 'X', description: 'GET, POST, PUT, PATCH or DELETE (default GET, or POST with a body)'}),
    header: Flags.string({char: 'H', description: "extra header 'Name: value' (repeatable)", multiple: true, multipleNonGreedy: true}),
    include: Flags.boolean({char: 'i', description: 'print the status line and the response headers before the body'}),
    silent: Flags.boolean({description: 'do not print the response body'}),
    paginate: Flags.boolean({description: 'follow nextCursor and print one {"items":[…]}'}),
    ...bodyFlags,
  }

  async run(): Promise<unknown> {
    const {args, flags} = await this.parse(Api)
    let path = normalizeApiPath(args.path)
    checkApiPath(path)
    const headers = parseHeaders(flags.header ?? [])
    const hasBody = flags.input !== undefined || (flags.field ?? []).length > 0 || (flags['raw-field'] ?? []).length > 0
    const method = parseMethod(flags.method, hasBody)
    let body: JsonObject | undefined
    if (method === 'GET') {
      if (flags.input !== undefined) throw new UsageError('--input sends a body, which a GET does not have; use -F/-f for query parameters')
      path = fieldsAsQuery(path, await fieldPairs(flags, this.io.stdin))
    } else {
      body = await buildBody(flags, this.io.stdin)
    }
    if (flags.paginate && method !== 'GET') throw new UsageError(`--paginate works with GET only, not ${method}`)
    if (flags.paginate && flags.include) throw new UsageError('--include does not work with --paginate')
    if (usesOrg(path)) path = fillOrg(path, await this.ctx.org())
    const client = await this.ctx.http()

    if (flags.paginate) {
      const list: StreamedList<unknown> = {
        kind: 'stream',
        pages: rawPages(client, path, headers),
        columns: [],
        noun: {one: 'item', other: 'items'},
        format: 'json',
      }
      return commandResult(list)
    }
    let response: Awaited<ReturnType<typeof rawRequest>>
    try {
      response = await rawRequest(client, {method, path, body, headers})
    } catch (error) {
      // like `gh api -i`: a failed request's status line, headers and body, then the error
      if (flags.include && this.out.human && isAmctlError(error) && error.answer) {
        this.include(error.answer)
        if (!flags.silent && error.answer.text !== '') this.out.block(error.answer.text)
      }
      throw error
    }
    if (flags.include && this.out.human) this.include(response)
    if (!flags.silent) {
      if (typeof response.data === 'string') this.out.block(response.data)
      else this.out.json(response.data)
    }
    return flags.silent ? undefined : response.data
  }

  /** `-i`: the status line and the headers, then an empty line. */
  private include(answer: {status: number; statusText: string; headers: Record<string, string>}): void {
    this.out.text(`HTTP/1.1 ${answer.status} ${answer.statusText}`.trimEnd())
    for (const [name, value] of Object.entries(answer.headers)) this.out.text(`${canonicalName(name)}: ${value}`)
    this.out.text('')
  }
}

/** `content-type` → `Content-Type`, as the status line's neighbours are usually written. */
function canonicalName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())
}
