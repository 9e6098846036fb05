import {createServer, type IncomingMessage, type Server} from 'node:http'
import {afterEach, describe, expect, it} from 'vitest'
import snapshot from '../../command-snapshot.json' with {type: 'json'}
import {type OperationId, ROUTES} from '../../src/contract/routes.js'
import {EVAL_SETS, EXPERIMENTS, OPTIMIZATIONS, PERSONAS, REPOSITORIES, TAGS, VISIBILITY_PROMPTS} from '../../src/devserver/seed.js'
import {oneJson, runInProcess, useE2E, type FaultRule} from '../e2e/helpers.js'
import {freshConfigDir, runBin, type BinResult} from '../helpers/bin.js'
import {fakeClock} from '../helpers/fake-clock.js'
import {sendJson, startServer} from '../helpers/http-server.js'
import {figures} from './figures.js'
import {expectOneErrorLine, freePort, lines, round, runCount, serverWalk, STACK_FRAME} from './helpers.js'

// The fault suite of issue 5: amctl against the dev server, with faults injected through its
// /_dev/ hooks, and against small node:http servers for what the dev server cannot do (nothing
// listening yet, a server that never answers). Where the behaviour under test is the number
// and kind of retries, not the waiting between them, the command runs in this process
// (e2e.inProcess) on a fake clock: the waits it asks for are recorded, not waited; the times in
// the figures add them to the real time. Everything else runs the built CLI as a subprocess.

const e2e = useE2E()
const fig = figures('faults')
afterEach(async () => {
  await e2e.current.clearFaults()
})

const ATTEMPTS = 4 // 1 + 3 retries (contract 1.6)

describe('runs list --all --json while ~30 % of the page requests fail', () => {
  // 503, 429 with Retry-After: 1, or the connection dropped before an answer, picked at random
  // (a fixed seed, so the run is reproducible) for 30 % of the GETs of the run list. With seed 57
  // no page fails more than twice in a row; a page failing on all 4 attempts would, by the
  // contract, end the walk (exit 1 or 7, tested below), so that seed keeps this test about loss.
  const SEED = 57
  const LIMIT = 20
  const ADDED = 1000

  it('returns every run exactly once, in the server order, and exits 0', async () => {
    const {current} = e2e
    await current.hook('POST', '/_dev/orgs/globex/runs', {count: ADDED})
    const expected = await serverWalk(current, 'globex')
    expect(expected.length).toBeGreaterThanOrEqual(ADDED)
    expect(new Set(expected).size).toBe(expected.length)

    await current.clearRequests()
    const rule: FaultRule = {
      match: {method: 'GET', path: '^/api/v1/orgs/globex/runs$'},
      probability: 0.3,
      seed: SEED,
      actions: [{type: 'status', status: 503}, {type: 'status', status: 429, headers: {'Retry-After': '1'}}, {type: 'drop-before'}],
    }
    await current.fault(rule)
    const r = await current.inProcess(['runs', 'list', '--org', 'globex', '--all', '--json', '--limit', String(LIMIT)])
    await current.clearFaults()

    const log = await current.requests({path: '^/api/v1/orgs/globex/runs'})
    const faulted = log.filter((entry) => entry.fault !== null)
    // the longest run of failures on one page (its retries all ask for the same URL)
    let streak = 0
    let longest = 0
    for (let i = 0; i < log.length; i++) {
      streak = log[i].fault !== null ? (i > 0 && log[i - 1].path === log[i].path && log[i - 1].fault !== null ? streak + 1 : 1) : 0
      longest = Math.max(longest, streak)
    }
    let got: string[] = []
    try {
      got = (oneJson(r).items as Array<{id: string}>).map((run) => run.id)
    } catch {
      // recorded as lost below; the assertions say why
    }
    const gotSet = new Set(got)
    fig.set('runsList', {
      runs: expected.length,
      pageSize: LIMIT,
      pages: log.filter((entry) => entry.status === 200).length,
      requests: log.length,
      faultsInjected: faulted.length,
      faults503: faulted.filter((entry) => entry.status === 503).length,
      faults429: faulted.filter((entry) => entry.status === 429).length,
      faultsDropped: faulted.filter((entry) => entry.status === null).length,
      faultRate: Number((faulted.length / Math.max(1, log.length)).toFixed(3)),
      longestFailureStreak: longest,
      received: got.length,
      lost: expected.filter((id) => !gotSet.has(id)).length,
      duplicated: got.length - gotSet.size,
      exitCode: r.exitCode,
      ms: round(r.ms),
      retryWaits: r.sleeps.length,
    })

    expect(r.stderr).not.toMatch(STACK_FRAME)
    expect(r.exitCode, r.stderr).toBe(0)
    expect(got).toEqual(expected)
    // the faults really happened, of all three kinds, and none was given up on
    expect(faulted.filter((entry) => entry.status === 503).length).toBeGreaterThan(0)
    expect(faulted.filter((entry) => entry.status === 429).length).toBeGreaterThan(0)
    expect(faulted.filter((entry) => entry.status === null).length).toBeGreaterThan(0)
    expect(faulted.length / log.length).toBeGreaterThan(0.15)
    expect(longest).toBeLessThan(ATTEMPTS)
    // every failed request was waited for before it was asked again; a 429 for at least its Retry-After
    expect(r.sleeps).toHaveLength(faulted.length)
    expect(r.sleeps.filter((ms) => ms >= 1000).length).toBeGreaterThanOrEqual(faulted.filter((entry) => entry.status === 429).length)
  }, 120_000)
})

describe('evals run when the connection drops after the launch is committed', () => {
  const ID = EVAL_SETS.acmeCheckout
  const HUMAN = 20
  const JSON_RUNS = 5
  const launchPath = `^/api/v1/orgs/acme/eval-sets/${ID}/run$`

  /** The newest `n` run IDs of acme, straight from the API. */
  async function newest(n: number): Promise<string[]> {
    const token = await e2e.current.token('ada')
    const res = await fetch(`${e2e.current.url}/api/v1/orgs/acme/runs?limit=${n}`, {headers: {authorization: `Bearer ${token}`}})
    return ((await res.json()) as {items: Array<{id: string}>}).items.map((run) => run.id)
  }

  it('never launches twice: one launch per invocation, each exits 9 and shows the newest runs', async () => {
    const {current} = e2e
    // a clean launch first: how many runs one launch creates
    const clean = await current.amctl(['evals', 'run', ID, '--org', 'acme', '--json'])
    expect(clean.exitCode, clean.stderr).toBe(0)
    const perLaunch = (oneJson(clean).runIds as string[]).length
    expect(perLaunch).toBeGreaterThan(0)

    await current.fault({match: {method: 'POST', path: `/eval-sets/${ID}/run$`}, actions: [{type: 'drop-after'}]})
    const startCount = await runCount(current, 'acme')
    await current.clearRequests()
    const outcomes: Array<{exit: number | null; posts: number; created: number; shown: boolean}> = []
    const save = () => {
      const posts = outcomes.reduce((n, o) => n + o.posts, 0)
      fig.set('dropAfterLaunch', {
        invocations: outcomes.length,
        launchesSeenByServer: posts,
        runsPerLaunch: perLaunch,
        runCountGrowth: outcomes.reduce((n, o) => n + o.created, 0),
        doubleLaunches: posts - outcomes.length,
        exit9: outcomes.filter((o) => o.exit === 9).length,
        newestRunsShown: outcomes.filter((o) => o.shown).length,
      })
    }

    for (let i = 0; i < HUMAN + JSON_RUNS; i++) {
      const json = i >= HUMAN
      const before = await runCount(current, 'acme')
      const postsBefore = (await current.requests({method: 'POST', path: launchPath})).length
      const r = await current.amctl(['evals', 'run', ID, '--org', 'acme', ...(json ? ['--json'] : [])])
      const posts = (await current.requests({method: 'POST', path: launchPath})).length - postsBefore
      const created = (await runCount(current, 'acme')) - before
      const launched = await newest(perLaunch)
      let shownIds: string[] = []
      if (json) {
        const doc = JSON.parse(r.stdout)
        expect(doc).toMatchObject({outcome: 'unknown', recentRuns: expect.any(Array)})
        expect(doc.error).toMatchObject({code: 'outcome_unknown'})
        expect(r.stderr).toBe('')
        shownIds = (doc.recentRuns as Array<{id: string}>).map((run) => run.id)
      } else {
        // human: the runs on stdout (TSV, ID first), the error and the explanation on stderr
        shownIds = lines(r.stdout).map((line) => line.split('\t')[0])
        const err = lines(r.stderr)
        expect(err[0]).toMatch(
          /^error: POST .*\/run was sent but no answer came .*the server may have accepted the request; check before retrying \(outcome_unknown\)$/,
        )
        expect(r.stderr).toContain(`check whether the launch of ${ID} is among them`)
        expect(r.stderr).not.toMatch(STACK_FRAME)
      }
      const shown = launched.every((id) => shownIds.includes(id))
      outcomes.push({exit: r.exitCode, posts, created, shown})
      save()
      expect(r.exitCode, r.stderr).toBe(9)
      expect(posts).toBe(1)
      expect(created).toBe(perLaunch)
      expect(shownIds.length).toBeGreaterThanOrEqual(perLaunch)
      expect(shown, `launched ${launched} not among the runs shown: ${shownIds}`).toBe(true)
    }

    const total = HUMAN + JSON_RUNS
    expect((await current.requests({method: 'POST', path: launchPath})).length).toBe(total)
    expect((await runCount(current, 'acme')) - startCount).toBe(total * perLaunch)
  }, 180_000)

  it('a POST dropped before the work (drop-before) is not resent either: exit 9, nothing launched', async () => {
    const {current} = e2e
    await current.fault({match: {method: 'POST', path: `/eval-sets/${ID}/run$`}, count: 1, actions: [{type: 'drop-before'}]})
    const before = await runCount(current, 'acme')
    await current.clearRequests()
    const r = await current.amctl(['evals', 'run', ID, '--org', 'acme', '--json'])
    expect(r.exitCode, r.stderr).toBe(9)
    expect(oneJson(r)).toMatchObject({outcome: 'unknown'})
    expect(await current.requests({method: 'POST'})).toHaveLength(1)
    expect(await runCount(current, 'acme')).toBe(before)
  })
})

describe('retries of POST: only when the server provably did not take it', () => {
  it('429 with Retry-After is retried and the launch happens once', async () => {
    const {current} = e2e
    const ID = EVAL_SETS.acmeSearch
    await current.fault({
      match: {method: 'POST', path: `/eval-sets/${ID}/run$`},
      count: 1,
      actions: [{type: 'status', status: 429, headers: {'Retry-After': '1'}}],
    })
    const before = await runCount(current, 'acme')
    await current.clearRequests()
    const r = await current.inProcess(['evals', 'run', ID, '--org', 'acme', '--json'])
    const posts = await current.requests({method: 'POST'})
    fig.set('post429', {attempts: posts.length, exitCode: r.exitCode, ms: round(r.ms)})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(posts.map((p) => p.status)).toEqual([429, 200])
    expect(r.sleeps).toHaveLength(1)
    expect(r.sleeps[0]).toBeGreaterThanOrEqual(1000)
    const runIds = oneJson(r).runIds as string[]
    expect(runIds.length).toBeGreaterThan(0)
    expect(await runCount(current, 'acme')).toBe(before + runIds.length)
  })

  it('429 on tokens create is retried; the new token is printed once', async () => {
    const {current} = e2e
    await current.fault({
      match: {method: 'POST', path: '^/api/v1/tokens$'},
      count: 1,
      actions: [{type: 'status', status: 429, headers: {'Retry-After': '1'}}],
    })
    await current.clearRequests()
    const r = await current.inProcess(['tokens', 'create', '--name', 'retried', '--expires', '1d', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.sleeps).toHaveLength(1)
    expect((await current.requests({method: 'POST'})).map((p) => p.status)).toEqual([429, 200])
    expect(oneJson(r).token).toMatch(/^svc_/)
  })

  it('503 is not retried for a POST: one request, exit 1', async () => {
    const {current} = e2e
    await current.fault({match: {method: 'POST', path: '/run$'}, count: 2, actions: [{type: 'status', status: 503}]})
    await current.clearRequests()
    const r = await current.amctl(['evals', 'run', EVAL_SETS.acmeSearch, '--org', 'acme'])
    expect(await current.requests({method: 'POST'})).toHaveLength(1)
    expect(expectOneErrorLine(r, 1)).toContain('HTTP 503')
  })

  it('a POST refused before sending (nothing listening yet) is retried once the server is up, and sent once', async () => {
    const port = await freePort()
    let server: Server | undefined
    const received: Array<{method: string; url: string}> = []
    const start = () => {
      server = createServer((req: IncomingMessage, res) => {
        received.push({method: req.method ?? '', url: req.url ?? ''})
        req.resume()
        req.on('end', () => sendJson(res, 200, {batchIds: ['bat_1'], runIds: ['run_1', 'run_2']}))
      })
      return new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve))
    }
    // the server comes up while amctl waits after the first refused attempt
    const clock = fakeClock()
    clock.onSleep = (n) => n === 1 && start()
    try {
      const r = await runInProcess(
        ['evals', 'run', 'es_1', '--org', 'acme', '--verbose', '--json'],
        {AMCTL_BASE_URL: `http://127.0.0.1:${port}`, AMCTL_TOKEN: 'svc_refused_then_up_0001', AMCTL_CONFIG_DIR: freshConfigDir()},
        clock,
      )
      const refused = lines(r.stderr).filter((line) => line.startsWith('✗ POST') && line.includes('ECONNREFUSED')).length
      fig.set('postRefused', {refusedAttempts: refused, requestsReceived: received.length, exitCode: r.exitCode, ms: round(r.ms)})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(refused).toBe(1)
      expect(r.sleeps).toHaveLength(1)
      expect(received).toEqual([{method: 'POST', url: '/api/v1/orgs/acme/eval-sets/es_1/run'}])
      expect(oneJson(r)).toEqual({batchIds: ['bat_1'], runIds: ['run_1', 'run_2']})
    } finally {
      await new Promise<void>((resolve) => {
        if (!server) return resolve()
        server.closeAllConnections()
        server.close(() => resolve())
      })
    }
  })

  it('a POST that can never be sent (nothing listening) exits 1 after the retries, not 9', async () => {
    const port = await freePort()
    const r = await runInProcess(['evals', 'run', 'es_1', '--org', 'acme', '--verbose'], {
      AMCTL_BASE_URL: `http://127.0.0.1:${port}`,
      AMCTL_TOKEN: 'svc_nothing_listening_01',
      AMCTL_CONFIG_DIR: freshConfigDir(),
    })
    expect(r.sleeps).toHaveLength(ATTEMPTS - 1)
    const attempts = lines(r.stderr).filter((line) => line.startsWith('✗ POST')).length
    expect(attempts).toBe(ATTEMPTS)
    const errors = lines(r.stderr).filter((line) => line.startsWith('error: '))
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(/could not reach the server: .*ECONNREFUSED.*\(network_error\)$/)
    expect(r.exitCode).toBe(1)
  })
})

describe('retries of GET: up to the limit, then the last error', () => {
  // four one-shot rules, each with its own message: the error shown must be the fourth
  const failFourTimes = async (status: number) => {
    for (let n = 1; n <= ATTEMPTS; n++) {
      await e2e.current.fault({
        match: {method: 'GET', path: '/summary$'},
        count: 1,
        actions: [{type: 'status', status, message: `failure ${n} of ${ATTEMPTS}`}],
      })
    }
  }

  it.each([502, 503, 504])('GET answered %i four times: 4 attempts, exit 1 with the last error', async (status) => {
    const {current} = e2e
    await failFourTimes(status)
    await current.clearRequests()
    const r = await current.inProcess(['orgs', 'summary', '--org', 'acme'])
    const log = await current.requests({path: '/summary$'})
    fig.set(`get${status}`, {attempts: log.length, exitCode: r.exitCode, ms: round(r.ms)})
    expect(log.map((entry) => entry.status)).toEqual([status, status, status, status])
    expect(r.sleeps).toHaveLength(ATTEMPTS - 1)
    const line = expectOneErrorLine(r, 1)
    expect(line).toContain(`failure 4 of 4`)
    expect(line).toContain(`HTTP ${status}`)
  })

  it('GET answered 429 four times: exit 7 (rate_limited)', async () => {
    const {current} = e2e
    await failFourTimes(429)
    await current.clearRequests()
    const r = await current.inProcess(['orgs', 'summary', '--org', 'acme'])
    const log = await current.requests({path: '/summary$'})
    fig.set('get429', {attempts: log.length, exitCode: r.exitCode, ms: round(r.ms)})
    expect(log).toHaveLength(ATTEMPTS)
    expect(expectOneErrorLine(r, 7)).toMatch(/failure 4 of 4 \(rate_limited, HTTP 429\)$/)
  })

  it('GET answered 503 three times then 200: exit 0 with the data', async () => {
    const {current} = e2e
    await current.fault({match: {method: 'GET', path: '/summary$'}, count: 3, actions: [{type: 'status', status: 503}]})
    await current.clearRequests()
    const r = await current.inProcess(['orgs', 'summary', '--org', 'acme', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect((await current.requests({path: '/summary$'})).map((entry) => entry.status)).toEqual([503, 503, 503, 200])
    expect(r.sleeps).toHaveLength(3)
    expect(oneJson(r).org).toMatchObject({slug: 'acme'})
  })

  it('500 is not retried', async () => {
    const {current} = e2e
    await current.fault({match: {method: 'GET', path: '/summary$'}, count: 2, actions: [{type: 'status', status: 500}]})
    await current.clearRequests()
    const r = await current.amctl(['orgs', 'summary', '--org', 'acme'])
    expect(await current.requests({path: '/summary$'})).toHaveLength(1)
    expectOneErrorLine(r, 1)
  })
})

// These cases wait for their timeouts (which is what they test), so they all run side by side,
// each with its own server or proxy (the faults project allows that many at once).
describe.concurrent('waiting for timeouts', () => {
  describe('a server that accepts the connection and never answers (--timeout 1)', () => {
    const TIMEOUT_S = 1
    // "it ended" bound: every attempt's timeout, the largest backoffs (0.5 + 1 + 2 s), and a
    // generous margin for a loaded machine
    const MARGIN_MS = 20_000
    const idempotentBound = ATTEMPTS * TIMEOUT_S * 1000 + 3500 + MARGIN_MS

    // every command whose operation is a POST (command-snapshot.json, generated from the commands),
    // each with a command line that reaches it; `amctl api -X POST` besides
    const ARGV: Record<string, string[]> = {
      'auth:login': ['auth', 'login', '--no-browser'],
      'tokens:create': ['tokens', 'create', '--name', 'hang', '--expires', '1d'],
      'evals:run': ['evals', 'run', EVAL_SETS.acmeCheckout, '--org', 'acme'],
      'runs:fork': ['runs', 'fork', 'run_acme_0001'],
      'experiments:launch': ['experiments', 'launch', EXPERIMENTS.acmeOnboarding, '--org', 'acme'],
      'scenarios:create': [
        'scenarios',
        'create',
        '--prompt',
        VISIBILITY_PROMPTS.acmePreference,
        '--repository',
        REPOSITORIES.acme[0],
        '--persona',
        PERSONAS.acme[0].name,
        '--org',
        'acme',
      ],
      'optimizations:preview': ['optimizations', 'preview', OPTIMIZATIONS.acmeCheckout, '--org', 'acme'],
      'optimizations:propose': ['optimizations', 'propose', OPTIMIZATIONS.acmeCheckout, '--org', 'acme'],
      'optimizations:chat': ['optimizations', 'chat', OPTIMIZATIONS.acmeCheckout, '--message', 'hello', '--org', 'acme'],
    }
    const postCommands = snapshot.commands
      .filter(({operations}) => operations.some((id) => ROUTES[id as OperationId].method === 'POST'))
      .map(({command}) => command)
    const POSTS: Array<[string, string[]]> = [
      ...postCommands.map((id): [string, string[]] => [id.replaceAll(':', ' '), ARGV[id]]),
      ['api -X POST', ['api', '-X', 'POST', '/orgs/{org}/things', '--org', 'acme']],
    ]
    it('covers every command whose operation is a POST (a new one needs its command line here)', () => {
      expect(Object.keys(ARGV).sort()).toEqual([...postCommands].sort())
    })
    const IDEMPOTENT: Array<[string, string[], string]> = [
      ['orgs summary (GET)', ['orgs', 'summary', '--org', 'acme'], 'GET'],
      ['runs list (GET)', ['runs', 'list', '--org', 'acme'], 'GET'],
      ['evals update (PATCH)', ['evals', 'update', EVAL_SETS.acmeCheckout, '--samples', '3', '--org', 'acme'], 'PATCH'],
      ['tags delete (DELETE)', ['tags', 'delete', TAGS.acmeFlaky, '--yes', '--org', 'acme'], 'DELETE'],
    ]

    async function hangingServer() {
      const seen: Array<{method: string; url: string}> = []
      const server = await startServer((req) => {
        seen.push({method: req.method, url: req.path})
        // never answers
      })
      return {server, seen}
    }
    // auth login's device flow needs a terminal on stdin (without one it exits 2 before any
    // request), so it runs on a pseudo-terminal; the runner's CI variable is not passed on
    const run = (url: string, argv: string[]): Promise<BinResult> =>
      runBin([...argv, '--timeout', String(TIMEOUT_S)], {
        env: {AMCTL_BASE_URL: url, AMCTL_TOKEN: 'svc_hanging_server_0001'},
        timeoutMs: 90_000,
        stdinTerminal: argv[0] === 'auth' && argv[1] === 'login',
      })
    const timings: Record<string, number> = {}

    it.each(IDEMPOTENT)(
      '%s: retried on timeout, then exit 1',
      async (name, argv, method) => {
        const {server, seen} = await hangingServer()
        try {
          const r = await run(server.url, argv)
          timings[name] = round(r.ms)
          fig.set('timeoutMs', {...timings})
          const line = expectOneErrorLine(r, 1)
          expect(line).toMatch(new RegExp(`no answer within ${TIMEOUT_S} s \\(network_error\\)$`))
          await server.settled()
          expect(seen.map((s) => s.method)).toEqual(Array(ATTEMPTS).fill(method))
          expect(r.ms).toBeLessThan(idempotentBound)
        } finally {
          await server.close()
        }
      },
      120_000,
    )

    it.each(POSTS)(
      '%s: sent once, never resent, exit 9',
      async (name, argv) => {
        const {server, seen} = await hangingServer()
        try {
          const r = await run(server.url, argv)
          timings[name] = round(r.ms)
          fig.set('timeoutMs', {...timings})
          expect(r.signal).toBeNull()
          expect(r.stderr).not.toMatch(STACK_FRAME)
          const errors = lines(r.stderr).filter((line) => line.startsWith('error: '))
          expect(errors).toHaveLength(1)
          expect(errors[0]).toMatch(
            /was sent but no answer came \(no answer within 1 s\): the server may have accepted the request; check before retrying \(outcome_unknown\)$/,
          )
          expect(r.exitCode).toBe(9)
          // the child has exited: its connections close once the server has read what it sent
          await server.settled()
          expect(seen.filter((s) => s.method === 'POST')).toHaveLength(1)
          // evals run then tries to list the newest runs (a GET, retried): that may take its own timeouts
          const bound = name === 'evals run' ? TIMEOUT_S * 1000 + idempotentBound : TIMEOUT_S * 1000 + MARGIN_MS
          expect(r.ms).toBeLessThan(bound)
        } finally {
          await server.close()
        }
      },
      120_000,
    )
  })

  describe('a proxy that drops every CONNECT (HTTPS_PROXY)', () => {
    // undici asks such a proxy again at once, in a loop, and acts on an abort only once it has a
    // connection: before the fix in src/core/http/client.ts the command ignored --timeout and spun
    // until killed. Nothing can reach the API this way, so a POST fails with exit 1, not 9.
    async function droppingProxy() {
      const proxy = createServer((_req, res) => res.writeHead(502).end())
      const seen = {connects: 0}
      proxy.on('connect', (_req, socket) => {
        seen.connects += 1
        socket.destroy()
      })
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
      const close = () =>
        new Promise<void>((resolve) => {
          proxy.closeAllConnections()
          proxy.close(() => resolve())
        })
      return {url: `http://127.0.0.1:${(proxy.address() as {port: number}).port}`, seen, close}
    }

    it.each([
      ['GET', ['orgs', 'summary', '--org', 'acme'], 1],
      ['POST', ['evals', 'run', 'es_1', '--org', 'acme'], 1],
    ] as Array<[string, string[], number]>)(
      '%s ends within --timeout with exit 1, "no connection"',
      async (method, argv, exit) => {
        const proxy = await droppingProxy()
        const r = await runBin([...argv, '--timeout', '1'], {
          env: {AMCTL_BASE_URL: 'https://api.example.com', AMCTL_TOKEN: 'svc_proxy_drops_connect1', HTTPS_PROXY: proxy.url},
          timeoutMs: 60_000,
        }).finally(proxy.close)
        fig.set(`proxyDropsConnect${method}`, {exitCode: r.exitCode, ms: round(r.ms), proxyConnects: proxy.seen.connects})
        const line = expectOneErrorLine(r, exit)
        expect(line).toMatch(/could not reach the server: no connection within 1 s \(network_error\)$/)
        expect(proxy.seen.connects).toBeGreaterThan(0)
        expect(r.ms).toBeLessThan((method === 'GET' ? ATTEMPTS * 1000 + 3500 : 1000) + 20_000)
      },
      90_000,
    )
  })
})
