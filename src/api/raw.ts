import type {JsonObject} from '../contract/types.js'
import type {Page} from '../contract/vocabulary.js'
import type {HttpClient, HttpResponse, Method} from '../core/http/client.js'
import {pages} from '../core/http/paginate.js'

/** `amctl api`: any request, for the functional areas without a command (like `gh api`). */

export interface RawRequest {
  method: Method
  /** relative to /api/v1, already checked and encoded, with its query string */
  path: string
  body?: JsonObject
  headers?: Record<string, string>
}

/** Sends the request; the data is JSON when the response is JSON, else text. */
export function rawRequest(client: HttpClient, req: RawRequest): Promise<HttpResponse<unknown>> {
  return client.send({method: req.method, path: req.path, body: req.body, headers: req.headers, expect: 'any'})
}

/** `--paginate`: every page of a GET collection, following nextCursor. */
export function rawPages(client: HttpClient, path: string, headers?: Record<string, string>): AsyncGenerator<Page<unknown>> {
  return pages<unknown>(client, path, {headers})
}
