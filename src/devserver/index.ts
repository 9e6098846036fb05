import type {AddressInfo} from 'node:net'
import type {OrgRef} from '../contract/types.js'
import {writeFileAtomic} from '../core/fs-atomic.js'
import {mintToken} from './auth.js'
import {catalog, type OrgCatalog} from './catalog.js'
import type {Services} from './context.js'
import {DataFileLock, DataFileLocked, removeLeftoverTemps} from './data-file.js'
import {DeviceFlow} from './device-flow.js'
import {Faults} from './faults.js'
import {hostCheck} from './guard.js'
import {type Answered, createHttpServer} from './http-server.js'
import {APPROVE_MODES, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RUN_SECONDS, SEED_KINDS, type ApproveMode, type SeedKind} from './options.js'
import {OutcomePlans} from './outcome-plans.js'
import {Persistence} from './persistence.js'
import {RateLimiter} from './rate-limit.js'
import {RequestLog} from './request-log.js'
import {buildRouter} from './routes/index.js'
import {RunLifecycle} from './runs.js'
import {RequestBodies, SchemaSet} from './schema.js'
import {seedState} from './seed.js'
import type {UserRecord} from './state.js'
import {Store} from './store.js'
import {orgRef, userRef} from './views.js'

/** The local control plane behind `amctl dev server`. Nothing else in the CLI imports it. */

export interface DevServerOptions {
  /** default 4010; 0 picks a free port */
  port?: number
  /** default 127.0.0.1 */
  host?: string
  /** keep state in this file across restarts (locked while the server runs) */
  dataFile?: string
  /** default `default` */
  seed?: SeedKind
  /** requests per second per token; 0 or absent = unlimited */
  rateLimit?: number
  /** default `auto`: the first device-flow poll is approved for the first seeded user */
  approve?: ApproveMode
  /** seconds between device-flow polls, as told to clients (default 1) */
  deviceInterval?: number
  /** seconds a device code lives (default 600) */
  deviceExpiresIn?: number
  /** seconds a launched or forked run takes from `queued` to its outcome (default 10; 0 = at once) */
  runSeconds?: number
  /**
   * the server's clock, the time of day in epoch ms: the run lifecycle, rate-limit windows,
   * device-code and token lifetimes, the dates it writes (`dev server` passes its world's; tests
   * their own)
   */
  now: () => number
  /** receives one line per request (and internal errors) */
  log?: (line: string) => void
  /** receives what the operator must see at once, e.g. a failed write of `dataFile` */
  warn?: (line: string) => void
  /** receives each API answer the server made itself (not an injected fault): tests check them against the document */
  onAnswer?: (answer: Answered) => void
}

export interface DevServer {
  /** e.g. `http://127.0.0.1:4010` (no `/api/v1`, no trailing slash) */
  url: string
  port: number
  orgs: OrgRef[]
  users: UserRecord[]
  /** the IDs to try each command with, per organization, as they stand at start */
  catalog: OrgCatalog[]
  /** when this server seeded its state (epoch ms; its seeded runs are dated before it), or undefined when it read `dataFile` */
  seededAt?: number
  /** stops accepting, cuts open connections and releases `dataFile` (every change was written when it was answered) */
  close(): Promise<void>
}

/** A bad option or data file (or one another server holds): the caller's input, not a server failure. */
export class DevServerOptionError extends Error {}

const CLI_TOKEN_DAYS = 90

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const {port = DEFAULT_PORT, host = DEFAULT_HOST, seed = 'default', rateLimit = 0, approve = 'auto'} = options
  const {deviceInterval = 1, deviceExpiresIn = 600, runSeconds = DEFAULT_RUN_SECONDS, now, dataFile, log, warn} = options
  check(Number.isInteger(port) && port >= 0 && port <= 65_535, `port must be an integer from 0 to 65535, got ${port}`)
  check(SEED_KINDS.includes(seed), `seed must be one of ${SEED_KINDS.join(', ')}, got ${seed}`)
  check(Number.isInteger(rateLimit) && rateLimit >= 0, `rate limit must be a non-negative integer, got ${rateLimit}`)
  check(APPROVE_MODES.includes(approve), `approve must be one of ${APPROVE_MODES.join(', ')}, got ${approve}`)
  check(Number.isFinite(deviceInterval) && deviceInterval >= 0, `device interval must be a non-negative number, got ${deviceInterval}`)
  check(Number.isFinite(deviceExpiresIn) && deviceExpiresIn > 0, `device expiry must be a positive number, got ${deviceExpiresIn}`)
  check(Number.isFinite(runSeconds) && runSeconds >= 0, `run seconds must be a non-negative number, got ${runSeconds}`)

  // everything the file and the document decide is checked before the server listens
  const {schemas, bodies} = documentChecks()
  const lock = dataFile === undefined ? undefined : lockDataFile(dataFile, now(), log)
  try {
    const startedAt = now()
    const {store, seeded, text} =
      dataFile === undefined
        ? {store: new Store(seedState(seed, startedAt)), seeded: true, text: ''}
        : loadOrSeed(dataFile, seed, schemas, startedAt)
    const failedWrite = (error: Error): void => warn?.(`could not write ${dataFile}: ${error.message}; the change was refused (507)`)
    const persistence =
      dataFile === undefined
        ? undefined
        : new Persistence(
            dataFile,
            () => store.serialize(),
            (written) => store.restore(written),
            failedWrite,
            text,
          )
    const outcomes = new OutcomePlans()
    const runs = new RunLifecycle(runSeconds, now, outcomes)

    let url = ''
    const services: Services = {
      store,
      device: new DeviceFlow({
        approve,
        interval: deviceInterval,
        expiresIn: deviceExpiresIn,
        autoUser: () => store.state.users[0],
        issue: (user) => mintToken(store, user.id, 'amctl CLI', new Date(now() + CLI_TOKEN_DAYS * 86_400_000).toISOString(), now()).token,
        now,
      }),
      faults: new Faults(),
      requests: new RequestLog(),
      limiter: new RateLimiter(rateLimit, now),
      runs,
      outcomes,
      baseUrl: () => url,
      now,
    }
    let hostAllowed: (header: string | undefined) => boolean = () => false
    const http = createHttpServer({
      router: buildRouter(),
      services,
      bodies,
      hostAllowed: (header) => hostAllowed(header),
      persistence,
      log,
      onAnswer: options.onAnswer,
    })
    await new Promise<void>((resolve, reject) => {
      http.server.once('error', reject)
      http.server.listen(port, host, () => {
        http.server.off('error', reject)
        resolve()
      })
    })
    const actualPort = (http.server.address() as AddressInfo).port
    url = `http://${urlHost(host)}:${actualPort}`
    hostAllowed = hostCheck(host, actualPort)
    return {
      url,
      port: actualPort,
      orgs: store.state.orgs.map(orgRef),
      users: store.state.users.map(userRef),
      catalog: catalog(store.state, runs),
      seededAt: seeded ? startedAt : undefined,
      close: () => http.close().finally(() => lock?.release()),
    }
  } catch (error) {
    lock?.release()
    throw error
  }
}

let checks: {schemas: SchemaSet; bodies: RequestBodies} | undefined

/**
 * The document's checks, compiled by the first server a process starts and shared by the next
 * ones (the document never changes while the process runs): compiling them takes 10-40 ms, and
 * the tests start dozens of servers in one process.
 */
function documentChecks(): {schemas: SchemaSet; bodies: RequestBodies} {
  if (checks === undefined) {
    const schemas = new SchemaSet()
    checks = {schemas, bodies: new RequestBodies(schemas)}
  }
  return checks
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new DevServerOptionError(message)
}

function lockDataFile(file: string, now: number, log: ((line: string) => void) | undefined): DataFileLock {
  let lock: DataFileLock
  try {
    lock = DataFileLock.acquire(file, now)
  } catch (error) {
    if (error instanceof DataFileLocked) throw new DevServerOptionError(error.message)
    throw new DevServerOptionError(`cannot lock ${file}: ${(error as Error).message}`)
  }
  for (const name of removeLeftoverTemps(file)) log?.(`removed ${name}, left by an interrupted write`)
  return lock
}

/** State from `file` when it exists (its shape checked); otherwise the seed, written there at once. `text`: what the file holds. */
function loadOrSeed(file: string, seed: SeedKind, schemas: SchemaSet, seededAt: number): {store: Store; seeded: boolean; text: string} {
  let text: string | undefined
  try {
    text = Persistence.read(file)
  } catch (error) {
    throw new DevServerOptionError(`cannot read ${file}: ${(error as Error).message}`)
  }
  if (text === undefined) {
    const store = new Store(seedState(seed, seededAt))
    const seededText = store.serialize()
    try {
      writeFileAtomic(file, seededText)
    } catch (error) {
      throw new DevServerOptionError(`cannot write ${file}: ${(error as Error).message}`)
    }
    return {store, seeded: true, text: seededText}
  }
  try {
    return {store: Store.parse(text, schemas), seeded: false, text}
  } catch (error) {
    throw new DevServerOptionError(`${file} is not usable dev server state: ${(error as Error).message}`)
  }
}

/** How clients reach a server listening on `host` (wildcards mean this machine). */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

export {seedState} from './seed.js'
export type {OrgCatalog} from './catalog.js'
export {APPROVE_MODES, DEFAULT_HOST, DEFAULT_PORT, SEED_KINDS, isLoopbackHost, type ApproveMode, type SeedKind} from './options.js'
