import type {QueryOf} from '../contract/routes.js'
import type {JsonObject, Run, RunPage} from '../contract/types.js'
import type {HttpClient} from '../core/http/client.js'
import {call, callPage, callPages, type PagesCallOptions} from './request.js'

const organization = (org: string) => ({kind: 'organization', id: org})

/** One page of `GET /orgs/{org}/runs?limit=&cursor=` (each sent only when given). */
export function listRuns(client: HttpClient, org: string, query: QueryOf<'listRuns'> = {}): Promise<RunPage> {
  return callPage(client, 'listRuns', {org}, {query, resource: organization(org)})
}

/** Every page from `query.cursor` (or the start), one request per iteration. */
export function runPages(client: HttpClient, org: string, opts: PagesCallOptions<'listRuns'> = {}): AsyncGenerator<RunPage> {
  return callPages(client, 'listRuns', {org}, {what: `the runs of ${org}`, resource: organization(org), ...opts})
}

/** `POST /runs/{runId}/fork` (not org-scoped). */
export function forkRun(client: HttpClient, runId: string, body: JsonObject = {}): Promise<Run> {
  return call(client, 'forkRun', {runId}, {body, resource: {kind: 'run', id: runId}})
}
