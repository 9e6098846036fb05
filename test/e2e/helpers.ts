import {afterAll, afterEach, beforeAll, expect} from 'vitest'
import type {FaultAction} from '../../src/devserver/faults.js'
import {startDevServer, type DevServer} from '../../src/devserver/index.js'
import type {RequestLogEntry} from '../../src/devserver/request-log.js'
import {USERS} from '../../src/devserver/seed.js'
import {type BinOptions, type BinResult, freshConfigDir, runBin} from '../helpers/bin.js'
import {runArgv} from '../helpers/cli.js'
import {type FakeClock, fakeClock} from '../helpers/fake-clock.js'
import {checkAgainstDocument, compileAnswerSchemas, type TestServerOptions} from '../devserver/helpers.js'
import {systemClock} from '../../src/core/clock.js'
import {API_PREFIX} from '../../src/contract/vocabulary.js'

/**
 * End-to-end fixture: the local control plane runs in the test process on port 0; amctl is the
 * built bin/run.cjs in a subprocess without a TTY, pointed at it through AMCTL_BASE_URL. Each
 * `amctl()` call gets a fresh config dir unless `configDir` is given.
 */

export type Who = keyof typeof USERS

export type {RequestLogEntry} from '../../src/devserver/request-log.js'

export interface FaultRule {
  match?: {method?: string; path?: string}
  count?: number
  probability?: number
  seed?: number
  actions: FaultAction[]
}

export interface AmctlOptions extends BinOptions {
  /** whose token goes into AMCTL_TOKEN (default ada); null = none */
  as?: Who | null
  /** a config dir to share between calls (login, then status …) */
  configDir?: string
}

export interface InProcessOptions {
  as?: Who | null
  configDir?: string
  env?: Record<string, string | undefined>
  /** default: a fresh fake clock */
  clock?: FakeClock
}

export interface InProcessResult extends BinResult {
  /** each wait (ms) the command asked the clock for */
  sleeps: number[]
}

export interface E2E {
  server: DevServer
  url: string
  /** a fresh token for a seeded user (minted through /_dev/tokens) */
  token(who?: Who): Promise<string>
  /** runs the built CLI against the dev server */
  amctl(argv: string[], opts?: AmctlOptions): Promise<BinResult>
  /**
   * runs the command in this process (src/, see runArgv) against the dev server, its waits on a
   * fake clock: for what would otherwise wait out real retry back-off. `ms` is the time a user
   * would wait: the real time plus the clock's sleeps (also in `sleeps`).
   */
  inProcess(argv: string[], opts?: InProcessOptions): Promise<InProcessResult>
  /** the dev server's request log (API requests only, never /_dev/) */
  requests(filter?: {method?: string; path?: string}): Promise<RequestLogEntry[]>
  clearRequests(): Promise<void>
  fault(rule: FaultRule): Promise<void>
  clearFaults(): Promise<void>
  /** calls a /_dev/ hook */
  hook(method: string, path: string, body?: unknown): Promise<any>
}

/**
 * Every answer the dev server made itself that does not match the OpenAPI document, as one line
 * each (issue 10: in tests every dev-server answer is validated against the document).
 */
export const undocumentedAnswers: string[] = []

export async function startE2E(options: TestServerOptions = {}): Promise<E2E> {
  // the answers are checked in this process, which is the server's: not while a command waits on it
  compileAnswerSchemas()
  const server = await startDevServer({
    port: 0,
    // the time of day the world hands out: the built CLI it answers reads the same
    now: systemClock.wall,
    onAnswer: ({method, path, status, contentType, body}) => {
      // (the API's answers, as test/devserver/helpers.ts checks them: not the /device page a browser opens)
      if (!path.startsWith(`${API_PREFIX}/`)) return
      try {
        const json = contentType.startsWith('application/json') && body !== '' ? JSON.parse(body) : undefined
        checkAgainstDocument(method, path, {status, headers: new Headers({'content-type': contentType}), text: body, body: json})
      } catch (error) {
        undocumentedAnswers.push((error as Error).message.split('\n')[0])
      }
    },
    ...options,
  })
  const tokens = new Map<Who, string>()
  const hook = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: body === undefined ? {} : {'content-type': 'application/json'},
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
  const token = async (who: Who = 'ada'): Promise<string> => {
    const known = tokens.get(who)
    if (known) return known
    const {token: minted} = (await hook('POST', '/_dev/tokens', {email: USERS[who].email})) as {token: string}
    tokens.set(who, minted)
    return minted
  }
  return {
    server,
    url: server.url,
    token,
    hook,
    async amctl(argv, opts = {}) {
      const as = opts.as === undefined ? 'ada' : opts.as
      const env: Record<string, string | undefined> = {
        AMCTL_BASE_URL: server.url,
        AMCTL_CONFIG_DIR: opts.configDir ?? freshConfigDir(),
        AMCTL_TOKEN: as === null ? undefined : await token(as),
        ...opts.env,
      }
      return runBin(argv, {...opts, env})
    },
    async inProcess(argv, opts = {}) {
      const as = opts.as === undefined ? 'ada' : opts.as
      const clock = opts.clock ?? fakeClock(undefined, systemClock.wall())
      const env: Record<string, string | undefined> = {
        AMCTL_BASE_URL: server.url,
        AMCTL_CONFIG_DIR: opts.configDir ?? freshConfigDir(),
        AMCTL_TOKEN: as === null ? undefined : await token(as),
        ...opts.env,
      }
      return runInProcess(argv, env, clock)
    },
    async requests(filter = {}) {
      const query = new URLSearchParams(Object.entries(filter).filter(([, v]) => v !== undefined) as [string, string][])
      const {items} = (await hook('GET', `/_dev/requests${query.size ? `?${query}` : ''}`)) as {items: RequestLogEntry[]}
      return items
    },
    clearRequests: () => hook('DELETE', '/_dev/requests'),
    fault: (rule) => hook('POST', '/_dev/faults', rule),
    clearFaults: () => hook('DELETE', '/_dev/faults'),
  }
}

/**
 * A clock for the dev server that stands still at the time it was made (`useE2E({now:
 * standingClock()})`): a run launched or forked stays `queued` however long the machine takes
 * between two commands, where on the server's real clock it is `running` after a fifth of
 * --run-seconds and finished after them. For a file whose runs need not move on their own.
 */
export function standingClock(at: number = systemClock.wall()): () => number {
  return () => at
}

/** One dev server per test file: `const e2e = useE2E()` then `e2e.current.amctl([...])`. */
export function useE2E(options: TestServerOptions = {}): {current: E2E} {
  const holder = {} as {current: E2E}
  beforeAll(async () => {
    holder.current = await startE2E(options)
  })
  afterAll(() => holder.current?.server.close())
  afterEach(() => {
    const found = undocumentedAnswers.splice(0)
    expect(found, 'dev-server answers that do not match the OpenAPI document').toEqual([])
  })
  return holder
}

/** Parses stdout as exactly one JSON document (fails the test otherwise). */
export function oneJson(result: BinResult): any {
  return JSON.parse(result.stdout)
}

/**
 * `amctl <argv>` in this process with `env` (see E2E.inProcess); also for servers of a test's
 * own. `ms` is the real time plus the fake clock's sleeps: what a user would wait.
 */
export async function runInProcess(
  argv: string[],
  env: Record<string, string | undefined>,
  // (the time of day of the dev server and the built CLI: the system's, as the world hands it out)
  clock: FakeClock = fakeClock(undefined, systemClock.wall()),
): Promise<InProcessResult> {
  const started = performance.now()
  const r = await runArgv(argv, {env, clock, transport: 'network'})
  const sleeps = [...clock.sleeps]
  const waited = sleeps.reduce((sum, ms) => sum + ms, 0)
  return {stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode, signal: null, ms: performance.now() - started + waited, sleeps}
}
