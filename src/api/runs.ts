import type {JsonObject, Run} from '../contract/types.js'
import type {Page} from '../contract/vocabulary.js'
import type {HttpClient} from '../core/http/client.js'
import {getPage, pages, type PageOptions} from '../core/http/paginate.js'
import {call, namingResource, operationPath} from './request.js'

const organization = (org: string) => ({kind: 'organization', id: org})

/** One page of `GET /orgs/{org}/runs?limit=&cursor=` (each sent only when given). */
export async function listRuns(client: HttpClient, org: string, opts: PageOptions = {}): Promise<Page<Run>> {
  try {
    return await getPage<Run>(client, operationPath('listRuns', {org}, {limit: opts.limit, cursor: opts.cursor}))
  } catch (error) {
    throw namingResource(error, organization(org))
  }
}

/** Every page from `opts.cursor` (or the start), one request per iteration. */
export async function* runPages(client: HttpClient, org: string, opts: PageOptions = {}): AsyncGenerator<Page<Run>> {
  try {
    yield* pages<Run>(client, operationPath('listRuns', {org}), {what: `the runs of ${org}`, ...opts})
  } catch (error) {
    throw namingResource(error, organization(org))
  }
}

/** `POST /runs/{runId}/fork` (not org-scoped). */
export function forkRun(client: HttpClient, runId: string, body: JsonObject = {}): Promise<Run> {
  return call(client, 'forkRun', {runId}, {body, resource: {kind: 'run', id: runId}})
}
