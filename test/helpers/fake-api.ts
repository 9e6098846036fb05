import {randomBytes} from 'node:crypto'
import {syncBuiltinESMExports} from 'node:module'
import nock from 'nock'
import {afterAll, afterEach, beforeAll, beforeEach} from 'vitest'
import {HttpClient} from '../../src/core/http/client.js'
import {DocumentAnswers} from '../../src/devserver/answers.js'
import {setSentRequests} from './declared.js'
import {fakeClock} from './fake-clock.js'
import {removeTempDirs} from './temp.js'

/**
 * The one way in-process tests fake the API: nock, whose interceptor of node:http answers the
 * requests amctl sends through node:http (every request without a proxy). A stub is "METHOD /path" (path without /api/v1, query ignored) → a JSON
 * body, or a function of the recorded request giving a reply (or throwing, to fail the request
 * at the network, see `dropConnection`).
 *
 * Like gh's httpmock.Verify: a test fails when a stub it registered (`stub`) was never used, or
 * when a request matched no stub. Defaults a file declares for all its tests (`useFakeApi({...})`,
 * and `GET /me`) are optional per test, but a default no test of the file used fails the file.
 *
 * Held to the contract: every answer a stub gives is checked against the OpenAPI document as the
 * dev server's are (src/devserver/answers.ts: a documented status, a body its schema accepts), and
 * a test whose stub answers what the document does not allow fails. A test of a hostile or broken
 * server answers so on purpose with `unchecked('why', …)`, which is not checked. Each request
 * records the operation it reached (`operation`), which test/helpers/cli.ts holds to the command's
 * declared operations. A raw `scope()` is not checked: it is for tests of the transport itself.
 */

/**
 * Each test file's fake API has a host of its own (this module is loaded afresh for every file,
 * test/fresh-file.ts): a request a file leaves behind (a retry after its last test) goes to that
 * host, which no later file in the same worker answers or counts (STALE_API).
 */
export const ORIGIN = `https://api-${randomBytes(4).toString('hex')}.amctl.test`
const STALE_API = /^https:\/\/api-[0-9a-f]{8}\.amctl\.test$/
export const TOKEN = 'svc_unit_test_token_abcd'
export const ME = {id: 'usr_1', email: 'ada@acme.test', name: 'Ada', orgs: [{slug: 'acme', publicId: 'org_1', name: 'Acme'}]}

export interface Recorded {
  /** scheme, host and port */
  origin: string
  method: string
  /** path and query as sent */
  path: string
  /** lower-case names */
  headers: Record<string, string>
  body: string
  /** the document's operation the method and path reach (undefined: none, e.g. `amctl api` to any path) */
  operation?: string
}

/**
 * An answer: made with `reply`, `envelope` or `unchecked`; a string body is sent as it is, anything
 * else as JSON. `unchecked` is why it breaks the document on purpose (then it is not checked).
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
    readonly unchecked?: string,
  ) {}
}

/** A stub's answer: a JSON body (200), a Reply, or a function of the request giving one (or throwing). */
export type Route = Record<string, unknown> | unknown[] | Reply | ((req: Recorded) => Reply | Promise<Reply>)

export interface StubOptions {
  /** another origin than the API's (default ORIGIN) */
  origin?: string
  /** the answer's headers come at once, its body only after this long (a server that holds it) */
  delayMs?: number
}

export interface FakeApi {
  /** the API's base URL (AMCTL_BASE_URL) */
  url: string
  /** registers a stub for this test: it must be used before the test ends */
  stub(key: string, route: Route, opts?: StubOptions): void
  /**
   * a nock scope for what a stub cannot say (answers in sequence with `.times`, `replyWithError`,
   * `.delay`); its requests are recorded and its interceptors verified like stubs
   */
  scope(origin?: string): nock.Scope
  /** requests since the test began, in order, unmatched ones included */
  requests(): Recorded[]
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>
  /** for this test, requests bypass the fake and reach real sockets (a test of the transport itself): nock is off */
  passthrough(): void
}

interface Entry {
  interceptor: nock.Interceptor
}

/** What node:http reports when the connection drops after the request was written (throw it from a route). */
export function dropConnection(): Error {
  return Object.assign(new Error('socket hang up'), {code: 'ECONNRESET'})
}

/** What node:http reports when nothing listens (throw it from a route). */
export function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), {code: 'ECONNREFUSED'})
}

/** An error answer with the API's envelope. */
export function envelope(status: number, code: string, message: string): Reply {
  return new Reply(status, {error: {code, message}})
}

/** An answer: the status, a body (JSON unless a string), headers. */
export function reply(status: number, body?: unknown, headers?: Record<string, string>): Reply {
  return new Reply(status, body, headers)
}

/**
 * An answer the OpenAPI document does not allow, given on purpose (a hostile or broken server, a
 * path outside the document for `amctl api`): `reason` says why; the one answer a stub may give
 * that is not checked against the document.
 */
export function unchecked(reason: string, status: number, body?: unknown, headers?: Record<string, string>): Reply {
  if (reason.trim() === '') throw new Error('unchecked(): say why the answer breaks the document')
  return new Reply(status, body, headers, reason)
}

let answers: DocumentAnswers | undefined
/** What is wrong with a stub's answer to `req` (undefined: the document gives it, or it is unchecked). */
function offContract(req: Recorded, answer: Reply): string | undefined {
  if (answer.unchecked !== undefined) return undefined
  answers ??= new DocumentAnswers()
  const json = typeof answer.body === 'string' || answer.body === undefined ? undefined : answer.body
  const problem = answers.problem(req.method, req.path, answer.status, json)
  return problem === undefined ? undefined : `${problem} (a stub; one that breaks the document on purpose answers with unchecked('why', …))`
}

/** The document's operation a request reaches. */
function operationOf(method: string, path: string): string | undefined {
  answers ??= new DocumentAnswers()
  return answers.operation(method, path)?.operation.operationId
}

function recorded(req: Request, body: string): Recorded {
  const url = new URL(req.url)
  const headers: Record<string, string> = {}
  req.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value
  })
  const path = url.pathname + url.search
  return {origin: url.origin, method: req.method, path, headers, body, operation: operationOf(req.method, path)}
}

function toReply(route: Route, req: Recorded): Reply | Promise<Reply> {
  if (route instanceof Reply) return route
  return typeof route === 'function' ? route(req) : new Reply(200, route)
}

function serialize(reply: Reply): [number, string, Record<string, string>] {
  const isText = typeof reply.body === 'string' || reply.body === undefined
  const headers = isText ? {...reply.headers} : {'content-type': 'application/json', ...reply.headers}
  return [reply.status, isText ? ((reply.body as string | undefined) ?? '') : JSON.stringify(reply.body), headers]
}

/** The fake without test hooks: `useFakeApi` wires it into a test file; test/helpers/fake-api.test.ts tests it. */
export interface FakeApiCore extends FakeApi {
  /** turns nock on */
  start(): void
  /** before each test: the defaults again, no requests */
  reset(): void
  /** after each test: what was wrong (unused stubs, unmatched requests); clears the stubs */
  verify(): string[]
  /** after the file: uninstalls nock; what was wrong (defaults no test used) */
  stop(): string[]
}

export function fakeApi(defaults: Record<string, Route> = {}, opts: {me?: boolean} = {}): FakeApiCore {
  const all: Record<string, Route> = {...(opts.me === false ? {} : {'GET /me': ME}), ...defaults}
  const entries = new Map<string, Entry>()
  const defaultsUsed = new Set<string>()
  let requests: Recorded[] = []
  let unmatched: string[] = []
  // (checked in verify, after the test: compiling a schema must not slow an answer whose timing a test measures)
  let answered: Array<[Recorded, Reply]> = []
  const onNoMatch = (req: Request): void => {
    const r = recorded(req, '')
    // an earlier file's leftover: it fails at nock's disabled network, unanswered, in no file's report
    if (r.origin !== ORIGIN && STALE_API.test(r.origin)) return
    unmatched.push(`${r.method} ${r.origin}${r.path}`)
    requests.push(r)
  }
  const seen = new WeakMap<Request, Recorded>()
  const scope = (origin = ORIGIN): nock.Scope =>
    nock(origin).on('request', (req: Request, _interceptor: unknown, body: string) => {
      const r = recorded(req, body)
      seen.set(req, r)
      requests.push(r)
    })

  const add = (key: string, route: Route, required: boolean, {origin = ORIGIN, delayMs}: StubOptions = {}): void => {
    const [method, path] = key.split(' ')
    const known = entries.get(`${origin} ${key}`)
    if (known) nock.removeInterceptor(known.interceptor)
    const interceptor = scope(origin).persist().intercept(`/api/v1${path}`, method).query(true)
    entries.set(`${origin} ${key}`, {interceptor})
    // a default is optional per test (nock leaves it out of pendingMocks); its use is counted per file
    if (!required) interceptor.optionally()
    if (delayMs !== undefined) interceptor.delay(delayMs)
    interceptor.reply(async (req: Request) => {
      if (!required) defaultsUsed.add(key)
      const request = seen.get(req) ?? recorded(req, '')
      const answer = await toReply(route, request)
      answered.push([request, answer])
      return serialize(answer)
    })
  }

  const self: FakeApiCore = {
    url: ORIGIN,
    stub: (key, route, stubOpts) => add(key, route, true, stubOpts),
    scope,
    requests: () => requests,
    passthrough: () => {
      nock.restore()
      syncBuiltinESMExports()
    },
    env: (extra = {}) => ({AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: ORIGIN, ...extra}),
    start() {
      setSentRequests(() => requests)
      if (!nock.isActive()) nock.activate()
      // nock replaces node:http's request() on the CommonJS module; an ES import of node:http made
      // before (src/core/http/node-http.ts, in an earlier file of the worker) would keep the real one
      syncBuiltinESMExports()
      nock.disableNetConnect()
      nock.emitter.on('no match', onNoMatch)
    },
    reset() {
      requests = []
      unmatched = []
      answered = []
      // (on again after a test that let its requests through)
      if (!nock.isActive()) nock.activate()
      syncBuiltinESMExports()
      for (const [key, route] of Object.entries(all)) add(key, route, false)
    },
    verify() {
      const unused = nock.pendingMocks()
      const stray = unmatched
      const broken = answered.map(([request, answer]) => offContract(request, answer)).filter((problem) => problem !== undefined)
      unmatched = []
      answered = []
      entries.clear()
      nock.abortPendingRequests()
      nock.cleanAll()
      return [
        ...unused.map((key) => `stub never used: ${key}`),
        ...stray.map((request) => `request matched no stub: ${request}`),
        ...broken.map((problem) => `stub answer not in the document: ${problem}`),
      ]
    },
    stop() {
      setSentRequests(undefined)
      nock.emitter.removeListener('no match', onNoMatch)
      nock.enableNetConnect()
      nock.restore()
      syncBuiltinESMExports()
      const neverUsed = Object.keys(all).filter((key) => !defaultsUsed.has(key))
      return neverUsed.map((key) => `default no test used: ${key}`)
    },
  }
  return self
}

/** One fake API per test file, verified after each test (and its defaults after the file). */
export function useFakeApi(defaults: Record<string, Route> = {}, opts: {me?: boolean} = {}): FakeApi {
  const api = fakeApi(defaults, opts)
  beforeAll(() => api.start())
  beforeEach(() => api.reset())
  afterEach(() => {
    const problems = api.verify()
    if (problems.length > 0) throw new Error(`fake API:\n  ${problems.join('\n  ')}`)
  })
  afterAll(() => {
    const problems = api.stop()
    // (the file's temp dirs go first: a hook that throws ends the file's other afterAll hooks)
    removeTempDirs()
    if (problems.length > 0) throw new Error(`fake API:\n  ${problems.join('\n  ')}`)
  })
  return api
}

export function json(req: Recorded): unknown {
  return req.body === '' ? undefined : JSON.parse(req.body)
}

/**
 * An HTTP client of the fake API's origin that sends `token`, for tests of src/api and the client
 * loop: no proxy, and a fake clock (retries wait no real time).
 */
export function fakeApiClient(api: Pick<FakeApi, 'url'>, token: string): HttpClient {
  return new HttpClient({baseUrl: api.url, timeoutMs: 5000, userAgent: 'amctl/test', token: async () => token, env: {}, clock: fakeClock()})
}
