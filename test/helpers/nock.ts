// nock for the unit tests of amctl's own network path (src/core/http/: node-http.ts, transport.ts
// and the client's loop over them): the real transport sends, and nock answers below it, in
// node:http, in this process, with no socket. nock would pass a request it has no interceptor
// for on to a real socket only with net connect enabled: useNock() disables it, and
// test/in-process.ts would refuse the socket anyway.
//
// Commands are tested through the fake API instead (./fake-api.ts), the transport their world
// hands them: nock is a global interceptor, patching node:http (and undici's global dispatcher,
// and fetch) for the whole process, and it costs ~90 ms to load, so only the files that use it
// import this helper (test/helpers/nock.test.ts holds the tree to that).
//
// nock starts intercepting as it loads; after the file, nock.restore() gives node:http and fetch
// back. It leaves undici's global dispatcher a plain undici Agent, as loading undici itself does
// (the property cannot be removed again): only Node's own fetch reads it, and no unit test fetches.
import nock from 'nock'
import {afterAll, afterEach, beforeAll, expect} from 'vitest'

/** A request as it reached nock: what node:http wrote, parsed back. */
export interface Sent {
  method: string
  url: string
  /** by lower-case name (nock's stand-in agent makes `connection: close`; keep-alive is the loopback tests') */
  headers: Record<string, string>
  /** the body as UTF-8 text ('' for none) */
  body: string
}

export interface Nocked {
  /** nock(origin): interceptors for one origin, each request they answer recorded in sent() */
  origin(origin: string): ReturnType<typeof nock>
  /** the requests an interceptor answered (or failed with replyWithError), in order */
  sent(): Sent[]
  /**
   * What went wrong, like gh's httpmock Verify: a request no interceptor matched (nock answers it
   * 501, or refuses it as a connection it may not make) and an interceptor no request used
   * (nock.isDone()). Then every interceptor is cleared. After each test, a non-empty list fails it.
   */
  verify(): string[]
}

/** nock for the tests of this file: net connect disabled, every interceptor verified after each test, all restored after the file. */
export function useNock(): Nocked {
  const sent: Sent[] = []
  const unmatched: string[] = []
  const onRequest = (request: Request, _interceptor: unknown, body: string) => {
    sent.push({method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body})
  }
  const onNoMatch = (request: Request) => {
    unmatched.push(`${request.method} ${request.url}`)
  }

  beforeAll(() => {
    // (a file before this one in the same process may have stopped it)
    if (!nock.isActive()) nock.activate()
    nock.disableNetConnect()
    nock.emitter.on('no match', onNoMatch)
  })
  const verify = (): string[] => {
    const problems = [
      ...unmatched.splice(0).map((request) => `no interceptor matched ${request}`),
      ...(nock.isDone() ? [] : nock.pendingMocks().map((interceptor) => `no request used ${interceptor}`)),
    ]
    sent.length = 0
    nock.cleanAll()
    nock.abortPendingRequests()
    return problems
  }
  afterEach(() => {
    expect(verify(), 'nock (test/helpers/nock.ts)').toEqual([])
  })
  afterAll(() => {
    nock.emitter.removeListener('no match', onNoMatch)
    nock.enableNetConnect()
    nock.restore()
  })

  return {
    origin: (origin) => nock(origin).on('request', onRequest),
    sent: () => sent,
    verify,
  }
}
