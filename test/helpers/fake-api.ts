import type {ServerResponse} from 'node:http'
import {afterAll, beforeAll, beforeEach} from 'vitest'
import {type Recorded, sendJson, startServer, type TestServer} from './http-server.js'

/**
 * A recording node:http server for command tests: routes are "METHOD /path" (path without
 * /api/v1, query ignored) → a JSON body, or a function for anything more. Unrouted requests
 * answer 404 with the envelope. `env()` gives the variables that point amctl at it.
 */
export type Route = Record<string, unknown> | unknown[] | ((req: Recorded, res: ServerResponse) => void)

export const TOKEN = 'svc_unit_test_token_abcd'
export const ME = {id: 'usr_1', email: 'ada@acme.test', name: 'Ada', orgs: [{slug: 'acme', publicId: 'org_1', name: 'Acme'}]}

export interface FakeApi {
  server: TestServer
  routes: Map<string, Route>
  /** requests to /api/v1 since the last reset, /me included */
  requests(): Recorded[]
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>
}

export function useFakeApi(initial: Record<string, Route> = {}): FakeApi {
  const routes = new Map<string, Route>()
  let server!: TestServer
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const path = req.path.replace(/^\/api\/v1/, '').split('?')[0]
      const route = routes.get(`${req.method} ${path}`)
      if (route === undefined) return sendJson(res, 404, {error: {code: 'not_found', message: `no route ${req.method} ${path}`}})
      if (typeof route === 'function') return route(req, res)
      sendJson(res, 200, route)
    })
    api.server = server
  })
  afterAll(() => server.close())
  beforeEach(() => {
    routes.clear()
    routes.set('GET /me', ME)
    for (const [key, value] of Object.entries(initial)) routes.set(key, value)
    server.requests.length = 0
  })
  const api: FakeApi = {
    server,
    routes,
    requests: () => server.requests,
    env: (extra = {}) => ({AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: server.url, ...extra}),
  }
  return api
}

export function json(req: Recorded): unknown {
  return req.body === '' ? undefined : JSON.parse(req.body)
}
