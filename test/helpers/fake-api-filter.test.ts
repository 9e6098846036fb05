import {describe, expect, it} from 'vitest'
import type {HttpClient} from '../../src/core/http/client.js'
import {fakeApiClient, TOKEN, useFakeApi} from './fake-api.js'

// A file whose default only one of its tests uses (issue 38 §4): run whole, the default is used
// and the file passes; run with `vitest -t` on the other test alone, the default goes unused and
// the file passes all the same (./fake-api-filter.integration.test.ts runs it so). The fake API's
// own tests (./fake-api.test.ts) show an unused default failing a file whose tests all ran.

const api = useFakeApi({'GET /orgs/acme/summary': {runs: 1}}, {me: false})
const client = (): HttpClient => fakeApiClient(api, TOKEN)

describe('a default of the file', () => {
  it('answers a test that gives no stub of its own', async () => {
    expect(await client().json({method: 'GET', path: '/orgs/acme/summary'})).toEqual({runs: 1})
  })

  it('is not needed by a test that does not send it', async () => {
    api.stub('GET /orgs/acme/connections', {items: []})
    expect(await client().json({method: 'GET', path: '/orgs/acme/connections'})).toEqual({items: []})
    expect(api.requests().map((r) => r.path)).toEqual(['/api/v1/orgs/acme/connections'])
  })
})
