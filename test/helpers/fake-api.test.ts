import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {HttpClient} from '../../src/core/http/client.js'
import {failure} from './failure.js'
import {dropConnection, envelope, type FakeApiCore, fakeApi, ORIGIN, reply, TOKEN} from './fake-api.js'

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

const client = () =>
  new HttpClient({baseUrl: ORIGIN, timeoutMs: 5000, userAgent: 'amctl/test', token: async () => TOKEN, sleep: async () => {}})

describe('fake API', () => {
  it('answers a stub and records the request as sent', async () => {
    api.stub('POST /tokens', reply(201, {id: 't1'}, {'x-request-id': 'req_1'}))
    const res = await client().send({method: 'POST', path: '/tokens?x=1', body: {name: 'ci'}})
    expect(res).toMatchObject({status: 201, data: {id: 't1'}, requestId: 'req_1', contentType: 'application/json'})
    expect(api.requests()).toEqual([
      {
        origin: ORIGIN,
        method: 'POST',
        path: '/api/v1/tokens?x=1',
        headers: expect.objectContaining({authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json'}),
        body: '{"name":"ci"}',
      },
    ])
    expect(api.verify()).toEqual([])
  })

  it('answers with an envelope, a function of the request, or a dropped connection', async () => {
    api.stub('GET /a', envelope(409, 'conflict', 'taken'))
    api.stub('GET /b', (req) => reply(200, {echo: req.path}))
    api.stub('POST /c', () => {
      throw dropConnection()
    })
    expect(await failure(client().json({method: 'GET', path: '/a'}))).toMatchObject({code: 'conflict', exitCode: 6})
    expect(await client().json({method: 'GET', path: '/b?q=1'})).toEqual({echo: '/api/v1/b?q=1'})
    expect(await failure(client().json({method: 'POST', path: '/c', body: {}}))).toMatchObject({code: 'outcome_unknown', exitCode: 9})
    expect(api.verify()).toEqual([])
  })

  it('reports a stub the test never used', async () => {
    api.stub('GET /used', {})
    api.stub('DELETE /orgs/acme/tags/t1', reply(204))
    await client().json({method: 'GET', path: '/used'})
    expect(api.verify()).toEqual([`stub never used: DELETE ${ORIGIN}:443/api/v1/orgs/acme/tags/t1`])
  })

  it('verifies the interceptors of a raw nock scope too', async () => {
    api.scope().get('/api/v1/thing').times(4).reply(503).get('/api/v1/thing').reply(200, {ok: true})
    await failure(client().json({method: 'GET', path: '/thing'}))
    expect(api.requests().map((r) => r.path)).toEqual(Array(4).fill('/api/v1/thing'))
    expect(api.verify()).toEqual([`stub never used: GET ${ORIGIN}:443/api/v1/thing`])
  })

  it('reports a request that matched no stub', async () => {
    await failure(client().json({method: 'GET', path: '/nowhere'}))
    expect(api.verify()).toEqual([`request matched no stub: GET ${ORIGIN}/api/v1/nowhere`])
  })

  it('does not require a default in every test, but reports one no test used', async () => {
    expect(api.verify()).toEqual([])
    expect(api.stop()).toEqual(['default no test used: GET /me', 'default no test used: GET /orgs/acme/summary'])
    api.start()
  })
})
