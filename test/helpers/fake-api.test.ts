import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {AttemptTimeout, MAX_BODY_BYTES} from '../../src/core/http/attempt.js'
import {HttpClient} from '../../src/core/http/client.js'
import {failure} from './failure.js'
import {fakeClock} from './fake-clock.js'
import {dropConnection, envelope, type FakeApiCore, fakeApi, ME, ORIGIN, refused, reply, TOKEN, timedOut, unchecked} from './fake-api.js'
import {fileTransport} from './transport.js'

// The fake API's own contract: what it answers, what it records, and what its verification
// (gh's httpmock.Verify) reports. useFakeApi turns a non-empty report into a failed test.

let api: FakeApiCore
beforeEach(() => {
  api = fakeApi({'GET /orgs/acme/summary': {runs: 1}})
  api.start()
  api.reset()
})
afterEach(() => {
  api.verify()
  api.stop()
})

/** the fake's own tests use made-up paths and answers */
const MADE_UP = 'a test of the fake itself, on a made-up path'

const client = (transport = api.transport) =>
  new HttpClient({baseUrl: ORIGIN, timeoutMs: 5000, userAgent: 'amctl/test', token: async () => TOKEN, transport, clock: fakeClock()})
const attempt = (path: string, more: {timeoutMs?: number; headers?: Record<string, string>} = {}) =>
  api.transport.send({
    url: `${ORIGIN}/api/v1${path}`,
    method: 'GET',
    headers: more.headers ?? {},
    body: undefined,
    timeoutMs: more.timeoutMs ?? 5000,
  })

describe('fake API', () => {
  it('answers a stub and records the request as sent', async () => {
    api.stub('POST /tokens', unchecked(MADE_UP, 201, {id: 't1'}, {'x-request-id': 'req_1'}))
    const res = await client().send({method: 'POST', path: '/tokens?x=1', body: {name: 'ci'}})
    expect(res).toMatchObject({status: 201, data: {id: 't1'}, requestId: 'req_1', contentType: 'application/json'})
    expect(api.requests()).toEqual([
      {
        origin: ORIGIN,
        method: 'POST',
        path: '/api/v1/tokens?x=1',
        headers: expect.objectContaining({authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json'}),
        body: '{"name":"ci"}',
        operation: 'createToken',
      },
    ])
    expect(api.verify()).toEqual([])
  })

  it('answers with an envelope, a function of the request, or a dropped connection', async () => {
    api.stub('GET /a', unchecked(MADE_UP, 409, {error: {code: 'conflict', message: 'taken'}}))
    api.stub('GET /b', (req) => unchecked(MADE_UP, 200, {echo: req.path}))
    api.stub('POST /c', () => {
      throw dropConnection()
    })
    expect(await failure(client().json({method: 'GET', path: '/a'}))).toMatchObject({code: 'conflict', exitCode: 6})
    expect(await client().json({method: 'GET', path: '/b?q=1'})).toEqual({echo: '/api/v1/b?q=1'})
    expect(await failure(client().json({method: 'POST', path: '/c', body: {}}))).toMatchObject({code: 'outcome_unknown', exitCode: 9})
    expect(api.verify()).toEqual([])
  })

  it('reports a stub the test never used', async () => {
    api.stub('GET /used', unchecked(MADE_UP, 200, {}))
    api.stub('DELETE /orgs/acme/tags/t1', reply(204))
    await client().json({method: 'GET', path: '/used'})
    expect(api.verify()).toEqual([`stub never used: DELETE ${ORIGIN}/api/v1/orgs/acme/tags/t1`])
  })

  it('answers in order, one per request, what answers() gave (after what it gave before); one never used is reported', async () => {
    api.answers('GET /thing', Array(3).fill(unchecked(MADE_UP, 503)))
    api.answers('GET /thing', [unchecked(MADE_UP, 503), unchecked(MADE_UP, 200, {ok: true})])
    await failure(client().json({method: 'GET', path: '/thing'}))
    expect(api.requests().map((r) => r.path)).toEqual(Array(4).fill('/api/v1/thing'))
    expect(api.verify()).toEqual([`1 answer(s) never used: GET ${ORIGIN}/api/v1/thing`])
  })

  it('fails an attempt as the network would: a dropped connection, a refused one, a timeout, a held answer', async () => {
    api.answers('GET /a', [dropConnection(), refused(), timedOut()])
    api.stub('GET /held', unchecked(MADE_UP, 200, {}), {delayMs: 60_000})
    await expect(attempt('/a')).rejects.toMatchObject({code: 'ECONNRESET'})
    await expect(attempt('/a')).rejects.toMatchObject({code: 'ECONNREFUSED'})
    await expect(attempt('/a')).rejects.toBeInstanceOf(AttemptTimeout)
    // held at least as long as the attempt's timeout: that attempt ends as the network's does (sent), at once
    await expect(attempt('/held', {timeoutMs: 200})).rejects.toMatchObject({name: 'AttemptTimeout', sent: true})
    expect(api.verify()).toEqual([])
  })

  it('refuses what the network refuses, before anything is recorded, and reads an answer through its size limit', async () => {
    await expect(attempt('/x', {headers: {expect: '100-continue'}})).rejects.toMatchObject({code: 'UND_ERR_NOT_SUPPORTED'})
    expect(api.requests()).toEqual([])
    api.stub('GET /big', unchecked(MADE_UP, 200, 'a', {'content-length': String(MAX_BODY_BYTES + 1)}))
    await expect(attempt('/big')).rejects.toMatchObject({code: 'bad_response'})
    expect(api.verify()).toEqual([])
  })

  it('holds every stub answer to the document: a wrong one is reported with what is wrong; unchecked() lets one through', async () => {
    api.stub('GET /me', {id: 'usr_1', name: 'Ada'})
    api.stub('GET /orgs/acme/runs', {items: [{id: 'run_1'}], nextCursor: null})
    api.stub('POST /cli/token', unchecked('a server that answers outside the document', 200, {hello: 'world'}))
    await client().json({method: 'GET', path: '/me'})
    await client().json({method: 'GET', path: '/orgs/acme/runs'})
    await client().json({method: 'POST', path: '/cli/token', body: {}})
    expect(api.verify()).toEqual([
      "stub answer not in the document: GET /api/v1/me → 200 does not match the document: email is required (a stub; one that breaks the document on purpose answers with unchecked('why', …))",
      "stub answer not in the document: GET /api/v1/orgs/acme/runs → 200 does not match the document: items[0].status is required (a stub; one that breaks the document on purpose answers with unchecked('why', …))",
    ])
    expect(() => unchecked(' ', 200, {})).toThrow(/say why/)
  })

  it('accepts the answers the document gives, errors included, and records the operation each request reached', async () => {
    api.stub('GET /me', ME)
    api.stub('DELETE /orgs/acme/tags/t1', envelope(404, 'not_found', 'no such tag'))
    await client().json({method: 'GET', path: '/me'})
    await failure(client().json({method: 'DELETE', path: '/orgs/acme/tags/t1'}))
    await failure(client().json({method: 'GET', path: '/nowhere'}))
    expect(api.requests().map((r) => r.operation)).toEqual(['getMe', 'deleteTag', undefined])
    expect(api.verify()).toEqual([`request matched no stub: GET ${ORIGIN}/api/v1/nowhere`])
  })

  it('reports a request that matched no stub', async () => {
    await failure(client().json({method: 'GET', path: '/nowhere'}))
    expect(api.verify()).toEqual([`request matched no stub: GET ${ORIGIN}/api/v1/nowhere`])
  })

  it("is the file's transport while it is on: the commands test/helpers/cli.ts runs send through it", () => {
    expect(fileTransport()).toBe(api.transport)
    api.stop()
    expect(fileTransport()).toBeUndefined()
    api.start()
  })

  it('does not require a default in every test, but reports one no test used when every test ran and passed', async () => {
    await client().json({method: 'GET', path: '/orgs/acme/summary'})
    expect(api.verify()).toEqual([])
    expect(api.stop([])).toEqual(['default no test used: GET /me'])
    api.start()
  })

  it('judges no default when a test did not run to a pass (left out by -t NAME, skipped, or failed): it may be the one that uses it', async () => {
    expect(api.verify()).toEqual([])
    expect(api.stop(['a test that uses GET /me (skip)'])).toEqual([])
    api.start()
  })

  it("another fake's request never reaches it (a leftover of an earlier test file): nothing is global", async () => {
    const earlier = api
    earlier.verify()
    earlier.stop()
    api = fakeApi({}, {me: false})
    api.start()
    api.reset()
    api.stub('GET /orgs/acme/runs', {items: []})
    // a retry of the earlier file, after its last test, goes through the transport it was given
    const leftover = await failure(client(earlier.transport).json({method: 'GET', path: '/orgs/acme/runs?limit=200'}))
    expect(leftover).toMatchObject({code: 'network_error'})
    expect(api.requests()).toEqual([])
    expect(api.verify()).toEqual([`stub never used: GET ${ORIGIN}/api/v1/orgs/acme/runs`])
  })
})
