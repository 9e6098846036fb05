import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {Answered} from '../../src/devserver/http-server.js'
import {type DevServer, startDevServer} from '../../src/devserver/index.js'
import {USERS} from '../../src/devserver/seed.js'
import {checkAgainstDocument} from './helpers.js'
import {systemClock} from '../../src/core/clock.js'

// DevServerOptions.onAnswer: every API answer the server made itself, which the end-to-end harness
// (test/e2e/helpers.ts) checks against the OpenAPI document; injected faults and /_dev/ hooks are not
// the API's answers and are left out.

let server: DevServer
const answers: Answered[] = []
let token: string

beforeAll(async () => {
  server = await startDevServer({now: systemClock.wall, port: 0, onAnswer: (answer) => answers.push(answer)})
  const minted = await fetch(`${server.url}/_dev/tokens`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({email: USERS.ada.email}),
  })
  token = ((await minted.json()) as {token: string}).token
})
afterAll(() => server.close())

const get = (path: string) => fetch(`${server.url}${path}`, {headers: {authorization: `Bearer ${token}`}})

describe('onAnswer', () => {
  it('receives each API answer as sent (method, path without the query, status, type, body), not the hooks', async () => {
    answers.length = 0
    const res = await get('/api/v1/orgs/acme/runs?limit=2')
    const text = await res.text()
    expect(answers).toEqual([
      {method: 'GET', path: '/api/v1/orgs/acme/runs', status: 200, contentType: res.headers.get('content-type'), body: text},
    ])
    // and it is what the document says
    const [answer] = answers
    checkAgainstDocument(answer.method, answer.path, {status: answer.status, headers: res.headers, text, body: JSON.parse(text)})
  })

  it('is not called for an injected fault', async () => {
    await fetch(`${server.url}/_dev/faults`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({
        match: {path: '^/api/v1/me$'},
        count: 1,
        actions: [{type: 'status', status: 502, body: '<html>bad gateway</html>'}],
      }),
    })
    answers.length = 0
    expect((await get('/api/v1/me')).status).toBe(502)
    expect(answers).toEqual([])
    expect((await get('/api/v1/me')).status).toBe(200)
    expect(answers.map((a) => a.status)).toEqual([200])
  })

  it('an answer the document does not describe is caught by the check the harness runs', () => {
    expect(() => checkAgainstDocument('GET', '/api/v1/me', {status: 200, headers: new Headers(), text: '{"id":1}', body: {id: 1}})).toThrow(
      /does not match the document/,
    )
  })
})
