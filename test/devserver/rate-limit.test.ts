import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {USERS} from '../../src/devserver/seed.js'
import {expectError, startTestServer, type TestServer} from './helpers.js'

let server: TestServer
// the server's clock: a window ends when the test moves it on, not after a real second
let now = Date.parse('2026-06-01T09:00:00Z')
beforeAll(async () => {
  server = await startTestServer({rateLimit: 3, now: () => now})
})
afterAll(() => server.close())

describe('rate limit (--rate-limit 3)', () => {
  it('allows N requests per second per token, then answers 429 rate_limited with Retry-After: 1', async () => {
    const ada = await server.token(USERS.ada.email)
    const grace = await server.token(USERS.grace.email)
    const statuses: number[] = []
    for (let i = 0; i < 3; i += 1) statuses.push((await server.api('GET', '/me', {token: ada})).status)
    expect(statuses).toEqual([200, 200, 200])
    const limited = await server.api('GET', '/orgs/acme/runs?limit=1', {token: ada})
    expect(expectError(limited, 429, 'rate_limited')).toContain('3 requests per second')
    expect(limited.headers.get('retry-after')).toBe('1')

    // another token has its own budget; requests without a valid token are not counted against anyone
    expect((await server.api('GET', '/me', {token: grace})).status).toBe(200)
    expectError(await server.api('GET', '/me'), 401, 'unauthorized')

    now += 999
    expectError(await server.api('GET', '/me', {token: ada}), 429, 'rate_limited')
    now += 1
    expect((await server.api('GET', '/me', {token: ada})).status).toBe(200)
  })

  it('leaves unlimited servers alone', async () => {
    const unlimited = await startTestServer()
    try {
      const token = await unlimited.token()
      const answers = await Promise.all(Array.from({length: 40}, () => unlimited.api('GET', '/me', {token})))
      expect(answers.every((answer) => answer.status === 200)).toBe(true)
    } finally {
      await unlimited.close()
    }
  })
})
