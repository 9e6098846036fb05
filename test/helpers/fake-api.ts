import {STATUS_CODES} from 'node:http'
import {Readable} from 'node:stream'
import {afterAll, afterEach, beforeAll, beforeEach, type RunnerTestSuite} from 'vitest'
import {HttpClient} from '../../src/core/http/client.js'
import {
  type Attempt,
  AttemptTimeout,
  headerRecord,
  type RawResponse,
  readText,
  refusal,
  type Transport,
} from '../../src/core/http/attempt.js'
import {networkTransport} from '../../src/core/http/transport.js'
import {DocumentAnswers} from '../../src/devserver/answers.js'
import {setSentRequests} from './declared.js'
import {fakeClock} from './fake-clock.js'
import {removeTempDirs} from './temp.js'
import {setFileTransport} from './transport.js'

/**
 * The one way in-process tests fake the API: a transport (src/core/http/attempt.ts) that a test's
 * world hands its commands (test/helpers/cli.ts takes the file's fake API for every command it
 * runs) and a test's HttpClient takes as `transport`. Nothing global is patched: a request that
 * does not go through a fake API's transport never reaches it, so no test file's requests reach
 * another's. A stub is "METHOD /path" (path without /api/v1, query ignored) → a JSON body, a
 * Reply, an Error to fail the attempt with (`dropConnection()`, `refused()`, `timedOut()`), or a
 * function of the recorded request giving one (or throwing one). `answers` gives a key its
 * answers in order, one per request.
 *
 * The fake answers as the network does (src/core/http/transport.ts): the same refusals before
 * anything is sent (`refusal`), the same size limit while the body is read (`readText`), and an
 * answer held at least as long as the attempt's timeout (`delayMs`) ends it as the network's
 * timeout does, without waiting.
 *
 * Like gh's httpmock.Verify: a test fails when a stub it registered (`stub`, `answers`) was never
 * used, or when a request matched no stub. Defaults a file declares for all its tests
 * (`useFakeApi({...})`, and `GET /me`) are optional per test, but a default no test of the file
 * used fails the file: when every test of the file ran and passed. A test the run left out
 * (`vitest -t NAME`, a `file:line`, `.only`, a skip) or one that failed may be the one that
 * uses it, so the defaults are not judged then (vitest marks a test it did not run `skip`).
 *
 * Held to the contract: every answer a stub gives is checked against the OpenAPI document as the
 * dev server's are (src/devserver/answers.ts: a documented status, a body its schema accepts), and
 * a test whose stub answers what the document does not allow fails. A test of a hostile or broken
 * server answers so on purpose with `unchecked('why', …)`, which is not checked. Each request
 * records the operation it reached (`operation`), which test/helpers/cli.ts holds to the command's
 * declared operations.
 */

/** The fake API's origin (a name that resolves nowhere: nothing reaches the network by it). */
export const ORIGIN = 'https://api.amctl.test'
export const TOKEN = 'svc_unit_test_token_abcd'
export const ME = {id: 'usr_1', email: 'ada@acme.test', name: 'Ada', orgs: [{slug: 'acme', publicId: 'org_1', name: 'Acme'}]}

const API_PREFIX = '/api/v1'

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

/**
 * A stub's answer: a JSON body (200), a Reply, an Error the attempt fails with, or a function of
 * the request giving one of those (or throwing the Error).
 */
export type Route = Record<string, unknown> | unknown[] | Reply | Error | ((req: Recorded) => Reply | Error | Promise<Reply | Error>)

export interface StubOptions {
  /** another origin than the API's (default ORIGIN) */
  origin?: string
  /** what comes before the stub's path (default /api/v1; a base URL with a path of its own has more) */
  prefix?: string
  /**
   * the server holds the answer this long: at least the attempt's timeout and the attempt ends
   * as the network's does then (AttemptTimeout, the request sent), at once; less, and it answers
   */
  delayMs?: number
}

export interface FakeApi {
  /** the API's base URL (AMCTL_BASE_URL) */
  url: string
  /** what a test's world or HttpClient sends through */
  transport: Transport
  /** registers a stub for this test: it must be used before the test ends (a later stub of the same key replaces it) */
  stub(key: string, route: Route, opts?: StubOptions): void
  /** registers answers in order, one per request to `key` (after those given before): each must be used before the test ends */
  answers(key: string, routes: readonly Route[], opts?: StubOptions): void
  /** requests since the test began, in order, unmatched ones included */
  requests(): Recorded[]
  env(extra?: Record<string, string | undefined>): Record<string, string | undefined>
  /** for this test, requests bypass the fake and go out on the network (a test of the real path against a server of its own) */
  passthrough(): void
}

/** What node:http reports when the connection drops after the request was written (a route's answer, or thrown from one). */
export function dropConnection(): Error {
  return Object.assign(new Error('socket hang up'), {code: 'ECONNRESET'})
}

/** What node:http reports when nothing listens (a route's answer, or thrown from one). */
export function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), {code: 'ECONNREFUSED'})
}

/** The request was sent and no answer came within the attempt's timeout. */
export function timedOut(): Error {
  return new AttemptTimeout(true)
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

function recorded(attempt: Attempt): Recorded {
  const url = new URL(attempt.url)
  const path = url.pathname + url.search
  return {
    origin: url.origin,
    method: attempt.method,
    path,
    headers: Object.fromEntries(Object.entries(attempt.headers).map(([name, value]) => [name.toLowerCase(), value])),
    body: attempt.body ?? '',
    operation: operationOf(attempt.method, path),
  }
}

async function answerOf(route: Route, req: Recorded): Promise<Reply | Error> {
  if (route instanceof Reply || route instanceof Error) return route
  return typeof route === 'function' ? route(req) : new Reply(200, route)
}

/** `pending`, or the caller's reason as soon as it gives up (a wait's Ctrl-C while a route holds its answer), as the network's attempt does. */
function untilGivenUp<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return pending
  return new Promise<T>((resolve, reject) => {
    const giveUp = (): void => reject(signal.reason)
    if (signal.aborted) giveUp()
    signal.addEventListener('abort', giveUp, {once: true})
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', giveUp))
  })
}

/** The answer as the network would hand it to the client: the body read through the same size limit. */
async function rawResponse(answer: Reply): Promise<RawResponse> {
  const isText = typeof answer.body === 'string' || answer.body === undefined
  const text = isText ? ((answer.body as string | undefined) ?? '') : JSON.stringify(answer.body)
  const given = Object.entries(isText ? answer.headers : {'content-type': 'application/json', ...answer.headers})
  const headers = headerRecord(given.flat())
  const body = await readText(Readable.from([Buffer.from(text)]), answer.status, headers['content-length'])
  return {status: answer.status, statusText: STATUS_CODES[answer.status] ?? '', headers, text: body}
}

/** A stub: its answers (one for good, or a queue), whether a test must use it, and whether one did. */
interface Entry {
  key: string
  routes: Route[]
  queue: boolean
  required: boolean
  used: boolean
  delayMs?: number
}

/** The fake without test hooks: `useFakeApi` wires it into a test file; test/helpers/fake-api.test.ts tests it. */
export interface FakeApiCore extends FakeApi {
  /** makes it the file's: test/helpers/cli.ts runs commands through it */
  start(): void
  /** before each test: the defaults again, no requests */
  reset(): void
  /** after each test: what was wrong (unused stubs, unmatched requests, answers off the document); clears the stubs */
  verify(): string[]
  /**
   * after the file: no longer the file's; what was wrong (defaults no test used, judged only when
   * `notRun`, the tests that did not run to a pass, is empty)
   */
  stop(notRun?: readonly string[]): string[]
}

export function fakeApi(defaults: Record<string, Route> = {}, opts: {me?: boolean} = {}): FakeApiCore {
  const all: Record<string, Route> = {...(opts.me === false ? {} : {'GET /me': ME}), ...defaults}
  const entries = new Map<string, Entry>()
  const defaultsUsed = new Set<string>()
  let requests: Recorded[] = []
  let unmatched: string[] = []
  // (checked in verify, after the test: compiling a schema must not slow an answer whose timing a test measures)
  let answered: Array<[Recorded, Reply]> = []
  let network: Transport | undefined

  /** "METHOD origin/prefix/path" of a stub, and of a request (its query left out) */
  const stubKey = (key: string, {origin = ORIGIN, prefix = API_PREFIX}: StubOptions = {}): string => {
    const [method, path] = key.split(' ')
    return `${method} ${origin}${prefix}${path}`
  }

  const add = (key: string, routes: Route[], queue: boolean, required: boolean, stubOpts: StubOptions = {}): void => {
    const at = stubKey(key, stubOpts)
    const known = entries.get(at)
    // answers in order go on after the ones given before for the key
    if (queue && known?.queue) known.routes.push(...routes)
    else entries.set(at, {key, routes, queue, required, used: false, delayMs: stubOpts.delayMs})
  }

  const send = async (attempt: Attempt): Promise<RawResponse> => {
    if (network) return network.send(attempt)
    // what the network refuses before anything is written, the fake refuses too
    const refused = refusal(attempt)
    if (refused) throw refused
    attempt.signal?.throwIfAborted()
    const req = recorded(attempt)
    requests.push(req)
    const url = new URL(attempt.url)
    const entry = entries.get(`${req.method} ${url.origin}${url.pathname}`)
    if (entry === undefined || entry.routes.length === 0) {
      unmatched.push(`${req.method} ${req.origin}${req.path}`)
      // a name that resolves nowhere: not sent, not retried, and the test fails in verify
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND (the fake API has no stub for ${req.method} ${req.origin}${req.path})`), {
        code: 'ENOTFOUND',
      })
    }
    entry.used = true
    if (!entry.required) defaultsUsed.add(entry.key)
    if (entry.delayMs !== undefined && entry.delayMs >= attempt.timeoutMs) throw new AttemptTimeout(true)
    const route = entry.queue ? (entry.routes.shift() as Route) : entry.routes[0]
    const answer = await untilGivenUp(answerOf(route, req), attempt.signal)
    if (answer instanceof Error) throw answer
    answered.push([req, answer])
    return rawResponse(answer)
  }

  const self: FakeApiCore = {
    url: ORIGIN,
    transport: {send, close: async () => {}},
    stub: (key, route, stubOpts) => add(key, [route], false, true, stubOpts),
    answers: (key, routes, stubOpts) => add(key, [...routes], true, true, stubOpts),
    requests: () => requests,
    passthrough: () => {
      network = networkTransport({})
    },
    env: (extra = {}) => ({AMCTL_TOKEN: TOKEN, AMCTL_BASE_URL: ORIGIN, ...extra}),
    start() {
      setSentRequests(() => requests)
      setFileTransport(self.transport)
    },
    reset() {
      requests = []
      unmatched = []
      answered = []
      network = undefined
      entries.clear()
      for (const [key, route] of Object.entries(all)) add(key, [route], false, false)
    },
    verify() {
      const unused = [...entries.entries()].filter(([, entry]) => entry.required && (entry.queue ? entry.routes.length > 0 : !entry.used))
      const stray = unmatched
      const broken = answered.map(([request, answer]) => offContract(request, answer)).filter((problem) => problem !== undefined)
      unmatched = []
      answered = []
      entries.clear()
      return [
        ...unused.map(([at, entry]) => (entry.queue ? `${entry.routes.length} answer(s) never used: ${at}` : `stub never used: ${at}`)),
        ...stray.map((request) => `request matched no stub: ${request}`),
        ...broken.map((problem) => `stub answer not in the document: ${problem}`),
      ]
    },
    stop(notRun = []) {
      setSentRequests(undefined)
      setFileTransport(undefined)
      if (notRun.length > 0) return []
      const neverUsed = Object.keys(all).filter((key) => !defaultsUsed.has(key))
      return neverUsed.map((key) => `default no test used: ${key}`)
    },
  }
  return self
}

/**
 * The tests of `suite` that did not run to a pass: left out by the run (vitest marks a test the
 * run's filter or a skip leaves out with mode `skip` and never gives it a `pass`), or failed.
 */
function notPassed(suite: Readonly<RunnerTestSuite>): string[] {
  return suite.tasks.flatMap((task) =>
    task.type === 'suite' ? notPassed(task) : task.result?.state === 'pass' ? [] : [`${task.name} (${task.result?.state ?? task.mode})`],
  )
}

/**
 * One fake API per test file, verified after each test (and its defaults after the file, when
 * every test of the file ran and passed).
 */
export function useFakeApi(defaults: Record<string, Route> = {}, opts: {me?: boolean} = {}): FakeApi {
  const api = fakeApi(defaults, opts)
  beforeAll(() => api.start())
  beforeEach(() => api.reset())
  afterEach(() => {
    const problems = api.verify()
    if (problems.length > 0) throw new Error(`fake API:\n  ${problems.join('\n  ')}`)
  })
  // (vitest reads the hook's first argument as fixtures to set up: none, the suite is the second)
  // biome-ignore lint/correctness/noEmptyPattern: vitest requires the fixtures' argument to be an object pattern
  afterAll(({}, suite) => {
    const problems = api.stop(notPassed(suite))
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
 * loop: through the fake's transport, and a fake clock (retries wait no real time).
 */
export function fakeApiClient(api: Pick<FakeApi, 'url' | 'transport'>, token: string): HttpClient {
  return new HttpClient({
    baseUrl: api.url,
    timeoutMs: 5000,
    userAgent: 'amctl/test',
    token: async () => token,
    transport: api.transport,
    clock: fakeClock(),
  })
}
