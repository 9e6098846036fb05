import {describe, expect, it} from 'vitest'
import {call, callPage, callPages, namingResource, operationPath} from '../../src/api/request.js'
import {ApiError, BadResponseError} from '../../src/core/errors.js'
import {errorText} from '../../src/output/present.js'
import {failure} from '../helpers/failure.js'
import {runAt} from '../helpers/pages.js'
import {envelope, fakeApiClient, reply, unchecked, useFakeApi} from '../helpers/fake-api.js'

// One typed call per operation (src/contract/routes.ts names its method and path), and a 404
// that names what was asked for.

const api = useFakeApi({}, {me: false})
const client = () => fakeApiClient(api, 'svc_request_1234')

describe('operationPath', () => {
  it('fills the route with each parameter as one encoded segment, and adds the query it is given', () => {
    expect(operationPath('listRuns', {org: 'acme'}, {limit: 5, cursor: undefined})).toBe('/orgs/acme/runs?limit=5')
    expect(operationPath('forkRun', {runId: 'a/b c'})).toBe('/runs/a%2Fb%20c/fork')
  })
})

describe('call', () => {
  it("sends the operation's method and path with the body, and returns the answer", async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', {batchIds: ['b'], runIds: ['r']})
    const answer = await call(client(), 'runEvalSet', {org: 'acme', evalSetId: 'es_1'}, {body: {}})
    expect(answer).toEqual({batchIds: ['b'], runIds: ['r']})
    const [sent] = api.requests()
    expect(`${sent.method} ${sent.path}`).toBe('POST /api/v1/orgs/acme/eval-sets/es_1/run')
    expect(sent.body).toBe('{}')
    expect(sent.headers.authorization).toBe('Bearer svc_request_1234')
  })

  it('a 404 names the resource asked for, keeping the code, status and request id', async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', envelope(404, 'not_found', 'no such thing'))
    const e = await failure(call(client(), 'runEvalSet', {org: 'acme', evalSetId: 'es_1'}, {resource: {kind: 'eval set', id: 'es_1'}}))
    expect(e.message, "the server's message, unchanged").toBe('no such thing')
    expect(e.context?.text).toBe('eval set "es_1" not found')
    expect(errorText(e)).toBe('eval set "es_1" not found: no such thing')
    expect(e).toMatchObject({code: 'not_found', status: 404, exitCode: 5})
  })
})

const RUN = runAt('run_1', '2026-01-01T00:00:00Z')

describe('callPage and callPages: a list operation, typed by its operationId as call() is', () => {
  it("one page: the operation's path with the query it documents, the answer as the document types it", async () => {
    api.stub('GET /orgs/acme/runs', {items: [RUN], nextCursor: 'c2'})
    const page = await callPage(client(), 'listRuns', {org: 'acme'}, {query: {limit: 5, cursor: 'c1'}})
    // (typed by the operation: RunPage, whose items are Runs)
    const first: string = page.items[0].id
    expect(first).toBe('run_1')
    expect(page.nextCursor).toBe('c2')
    expect(api.requests().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v1/orgs/acme/runs?limit=5&cursor=c1'])
  })

  it('a page whose items is not an array is bad_response; a 404 names the resource', async () => {
    api.stub('GET /orgs/acme/connections', unchecked('a broken server', 200, {items: 'none'}))
    const bad = await failure(callPage(client(), 'listConnections', {org: 'acme'}))
    expect(bad).toMatchObject({
      code: 'bad_response',
      message: 'expected a page with an "items" array from GET /orgs/acme/connections, got string',
    })
    api.stub('GET /orgs/gone/connections', envelope(404, 'not_found', 'no such thing'))
    const missing = await failure(callPage(client(), 'listConnections', {org: 'gone'}, {resource: {kind: 'organization', id: 'gone'}}))
    expect(errorText(missing)).toBe('organization "gone" not found: no such thing')
  })

  it("every page from query.cursor, the rest of the query on each; a later 404 is that page's", async () => {
    let n = 0
    api.stub('GET /orgs/acme/runs', () => {
      n++
      return n < 3 ? reply(200, {items: [{...RUN, id: `run_${n}`}], nextCursor: `c${n + 1}`}) : envelope(404, 'not_found', 'cursor expired')
    })
    const seen: string[] = []
    const e = await failure(
      (async () => {
        const walk = callPages(
          client(),
          'listRuns',
          {org: 'acme'},
          {query: {limit: 2, cursor: 'c1'}, resource: {kind: 'organization', id: 'acme'}},
        )
        for await (const page of walk) seen.push(...page.items.map((run) => run.id))
      })(),
    )
    expect(seen).toEqual(['run_1', 'run_2'])
    expect(api.requests().map((r) => r.path)).toEqual([
      '/api/v1/orgs/acme/runs?limit=2&cursor=c1',
      '/api/v1/orgs/acme/runs?limit=2&cursor=c2',
      '/api/v1/orgs/acme/runs?limit=2&cursor=c3',
    ])
    expect(e.context?.text).toBe('page 3 (cursor c3) of GET /orgs/acme/runs not found')
  })

  it('only operations that answer a list, and callPages only those that take a cursor (type errors otherwise)', () => {
    const typed = (): void => {
      // @ts-expect-error getMe does not answer a list
      void callPage(client(), 'getMe', {})
      // @ts-expect-error listConnections answers one list: it takes no cursor to page with
      void callPages(client(), 'listConnections', {org: 'acme'})
      // @ts-expect-error listConnections documents no limit
      void callPage(client(), 'listConnections', {org: 'acme'}, {query: {limit: 5}})
    }
    expect(typeof typed).toBe('function')
  })
})

describe('namingResource', () => {
  const notFound = (message: string) => new ApiError(message, {code: 'not_found', status: 404, requestId: 'req_1'})

  it("gives a 404 the resource as context, said only when the server's message does not name it or the org (which may be what is missing)", () => {
    const named = namingResource(notFound('organization "globex" not found'), {kind: 'tag', id: 'tag_1'}, 'globex') as ApiError
    expect(named.context).toEqual({text: 'tag "tag_1" not found', names: ['tag', 'tag_1', 'organization', 'globex']})
    expect(errorText(named)).toBe('organization "globex" not found')
    const other = namingResource(notFound('no such thing'), {kind: 'tag', id: 'tag_1'}, 'globex') as ApiError
    expect(errorText(other)).toBe('tag "tag_1" not found: no such thing')
    const withId = namingResource(notFound('run_1 is gone'), {kind: 'run', id: 'run_1'}) as ApiError
    expect(errorText(withId)).toBe('run_1 is gone')
    const withKind = namingResource(notFound('Run not found'), {kind: 'run', id: 'run_1'}) as ApiError
    expect(errorText(withKind)).toBe('Run not found')
  })

  it('uses the label instead of `kind "id"` when given', () => {
    const e = namingResource(notFound('gone'), {kind: 'variant', id: 'v1', label: 'variant "v1" of experiment "e1"'}) as ApiError
    expect(errorText(e)).toBe('variant "v1" of experiment "e1" not found: gone')
    expect(e.message).toBe('gone')
    expect(e.requestId).toBe('req_1')
  })

  it('keeps a context an inner layer gave (a later page) over the resource', () => {
    const e = notFound('Cursor c1 has expired')
    e.context = {text: 'page 2 (cursor c1) of the runs of acme not found', names: ['page']}
    expect((namingResource(e, {kind: 'organization', id: 'acme'}) as ApiError).context?.text).toBe(
      'page 2 (cursor c1) of the runs of acme not found',
    )
  })

  it('leaves any other error as it is', () => {
    const other = new BadResponseError('broken')
    expect(namingResource(other, {kind: 'run', id: 'r'})).toBe(other)
    expect(other.context).toBeUndefined()
    const forbidden = new ApiError('no', {code: 'forbidden', status: 403})
    expect(namingResource(forbidden, {kind: 'run', id: 'r'})).toBe(forbidden)
    expect(forbidden.context).toBeUndefined()
  })
})
