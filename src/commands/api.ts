import {Args, Flags} from '@oclif/core'
import {ApiCommand} from '../api-command.js'
import {fillOrg, normalizeApiPath, parseHeaders, parseMethod, rawPages, rawRequest, usesOrg} from '../api/raw.js'
import {buildBody} from '../core/body.js'
import {isAmctlError, UsageError} from '../core/errors.js'
import {bodyFlags} from '../flags.js'
import {jsonText} from '../output/format.js'
import {streamList} from '../output/stream-list.js'

export default class Api extends ApiCommand {
  static override summary = 'Send any request to the API and print the response'
  static override description = `The escape hatch for the functional areas without a command, like \`gh api\`. PATH is relative to /api/v1 (a leading /api/v1 is accepted) and may carry a query string; {org} in it is replaced by the resolved organization.

The method is GET, or POST when a body is given (-F, -f, --input); -X chooses another. The response body is printed as it came: JSON as JSON (pretty on a terminal, compact otherwise), anything else as text. --paginate follows nextCursor and prints one {"items":[…]} with every page's items.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> /me',
    "<%= config.bin %> <%= command.id %> '/orgs/{org}/runs?limit=5'",
    "<%= config.bin %> <%= command.id %> '/orgs/{org}/runs' --paginate | jq '.items|length'",
    "<%= config.bin %> <%= command.id %> -X PATCH '/orgs/{org}/eval-sets/es_checkout' -F samplesPerTarget=5",
  ]

  static override args = {path: Args.string({description: 'path relative to /api/v1, e.g. /orgs/{org}/summary', required: true})}
  static override flags = {
    method: Flags.string({char: 'X', description: 'GET, POST, PUT, PATCH or DELETE (default GET, or POST with a body)'}),
    header: Flags.string({char: 'H', description: "extra header 'Name: value' (repeatable)", multiple: true}),
    paginate: Flags.boolean({description: 'follow nextCursor and print one {"items":[…]}'}),
    ...bodyFlags,
  }

  async run(): Promise<unknown> {
    const {args, flags} = await this.parse(Api)
    let path = normalizeApiPath(args.path)
    const headers = parseHeaders(flags.header ?? [])
    const body = await buildBody(flags, this.io.stdin)
    const method = parseMethod(flags.method, body !== undefined)
    if (flags.paginate && method !== 'GET') throw new UsageError(`--paginate works with GET only, not ${method}`)
    if (usesOrg(path)) path = fillOrg(path, await this.org(flags))
    const client = await this.client(flags)

    if (flags.paginate) {
      try {
        await streamList(this.io, rawPages(client, path), {json: true, columns: [], noun: 'items', style: this.style})
      } catch (error) {
        // the document on stdout is closed with the error; without --json a person also gets
        // the one-line message on stderr (with --json the document is the only report)
        if (this.human && isAmctlError(error)) error.reported = false
        throw error
      }
      return undefined
    }
    const {data} = await rawRequest(client, {method, path, body, headers})
    if (this.human) {
      if (typeof data === 'string') this.io.stdout.write(data.endsWith('\n') || data === '' ? data : `${data}\n`)
      else this.io.stdout.write(jsonText(data, this.io.stdoutIsTTY))
    }
    return data
  }
}
