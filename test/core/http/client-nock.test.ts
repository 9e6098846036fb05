// The client's dispatcher is injectable (setDispatcher): nock 15, which installs its own undici
// global dispatcher, works with it as well as undici's MockAgent does.
import nock from 'nock'
import {getGlobalDispatcher} from 'undici'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {HttpClient} from '../../../src/core/http/client.js'
import {setDispatcher} from '../../../src/core/http/dispatcher.js'

const ORIGIN = 'https://api.nock.test'
const TOKEN = 'svc_nock_token_4321'

beforeAll(() => {
  nock.disableNetConnect()
  setDispatcher(getGlobalDispatcher())
})
afterEach(() => {
  nock.cleanAll()
})
afterAll(() => {
  setDispatcher(undefined)
  nock.enableNetConnect()
  nock.restore()
})

function client(): HttpClient {
  return new HttpClient({baseUrl: ORIGIN, timeoutMs: 5000, userAgent: 'amctl/test', token: async () => TOKEN, sleep: async () => {}})
}

describe('HttpClient through nock', () => {
  it('sends the request nock expects and reads its answer', async () => {
    const scope = nock(ORIGIN, {reqheaders: {authorization: `Bearer ${TOKEN}`, 'user-agent': 'amctl/test'}})
      .get('/api/v1/me')
      .reply(200, {email: 'ada@acme.test', orgs: []}, {'content-type': 'application/json'})
    const me = await client().json({method: 'GET', path: '/me'})
    expect(me).toEqual({email: 'ada@acme.test', orgs: []})
    expect(scope.isDone()).toBe(true)
    expect(nock.isDone()).toBe(true)
  })

  it('retries a 503 GET and parses the error envelope of a POST', async () => {
    nock(ORIGIN)
      .get('/api/v1/me')
      .reply(503, {error: {code: 'unavailable', message: 'busy'}})
      .get('/api/v1/me')
      .reply(200, {ok: true}, {'content-type': 'application/json'})
      .post('/api/v1/tokens', {name: 'ci', expiresIn: '30d'})
      .reply(409, {error: {code: 'conflict', message: 'name taken'}}, {'content-type': 'application/json', 'x-request-id': 'req_n'})
    expect(await client().json({method: 'GET', path: '/me'})).toEqual({ok: true})
    await expect(client().json({method: 'POST', path: '/tokens', body: {name: 'ci', expiresIn: '30d'}})).rejects.toMatchObject({
      code: 'conflict',
      status: 409,
      exitCode: 6,
      requestId: 'req_n',
    })
    expect(nock.isDone()).toBe(true)
  })
})
