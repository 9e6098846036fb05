import type {HttpClient} from '../core/http/client.js'
import {getPage, pages, type PageOptions} from '../core/http/paginate.js'
import {apiPath, withQuery} from '../core/http/path.js'
import type {JsonObject, Page, Run} from './types.js'

export const runsPath = (org: string) => apiPath`/orgs/${org}/runs`

/** One page of `GET /orgs/{org}/runs?limit=&cursor=` (each sent only when given). */
export function listRuns(client: HttpClient, org: string, opts: PageOptions = {}): Promise<Page<Run>> {
  return getPage(client, {
    path: withQuery(runsPath(org), {limit: opts.limit, cursor: opts.cursor}),
    resource: {kind: 'organization', id: org},
  })
}

/** Every page from `opts.cursor` (or the start), one request per iteration. */
export function runPages(client: HttpClient, org: string, opts: PageOptions = {}): AsyncGenerator<Page<Run>> {
  return pages<Run>(client, runsPath(org), opts)
}

/** `POST /runs/{runId}/fork` (not org-scoped). */
export function forkRun(client: HttpClient, runId: string, body: JsonObject = {}): Promise<Run> {
  return client.json({method: 'POST', path: apiPath`/runs/${runId}/fork`, body, resource: {kind: 'run', id: runId}})
}
