import {type ChildProcess, spawn} from 'node:child_process'
import {rmSync} from 'node:fs'
import {createInterface} from 'node:readline'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {outcomeOf} from '../../../src/devserver/runs.js'
import {USERS} from '../../../src/devserver/seed.js'
import {BIN, type BinResult, freshConfigDir, runBin, runOnTerminal} from '../../helpers/bin.js'
import {jsonDoc, lines} from './util.js'
import {sealedEnv} from '../../helpers/env.js'

// runs watch and evals run --wait on runs that progress (contract 4 "Run lifecycle", 5): the dev
// server's `--run-seconds N` moves launched runs queued → running → a terminal status, and
// PATCH /_dev/runs/{runId} {"status","score"} sets a run's state. The servers run as
// `amctl dev server` subprocesses, through the documented flag.

type Planned = Map<string, {status: string; score: number | null}>

/**
 * How the dev server ends each of `ids`: the k-th run of an eval set × agent × model in the
 * organization draws the k-th outcome of that triple (src/devserver/runs.ts outcomeOf), k counted
 * over acme's whole run list, oldest first.
 */
async function planned(server: Server, ids: string[]): Promise<Planned> {
  const all: Array<{id: string; evalSetId: string | null; agent: string | null; model: string | null}> = []
  let cursor: string | null = null
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`
    const res = await fetch(`${server.url}/api/v1/orgs/acme/runs?limit=200${query}`, {headers: {authorization: `Bearer ${server.token}`}})
    const page = (await res.json()) as {items: typeof all; nextCursor: string | null}
    all.push(...page.items)
    cursor = page.nextCursor
  } while (cursor !== null)
  const counts = new Map<string, number>()
  const plans: Planned = new Map()
  for (const run of all.reverse()) {
    const triple = JSON.stringify([run.evalSetId, run.agent, run.model])
    const k = counts.get(triple) ?? 0
    counts.set(triple, k + 1)
    if (!ids.includes(run.id)) continue
    const {outcome, score} = outcomeOf(run, k)
    plans.set(run.id, {status: outcome, score})
  }
  return plans
}
/** The exit code of a wait on the planned runs (contract 5): 0 when every one succeeded, else 10. */
const exitFor = (plans: Planned) => ([...plans.values()].every((plan) => plan.status === 'succeeded') ? 0 : 10)
/** the shortest interval: a poll every second */
const FAST = ['--interval', '1']

interface Server {
  url: string
  token: string
  child: ChildProcess
  configDir: string
}

async function startServer(runSeconds: number): Promise<Server> {
  const configDir = freshConfigDir()
  const child = spawn(process.execPath, [BIN, 'dev', 'server', '--port', '0', '--run-seconds', String(runSeconds)], {
    env: sealedEnv({AMCTL_CONFIG_DIR: configDir, AMCTL_KEYCHAIN: 'off'}),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({input: child.stdout!}).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`dev server exited early (${code})`)))
  })
  const url = /http:\/\/[\w.:[\]-]+/.exec(first)?.[0]
  if (url === undefined) throw new Error(`no URL in the dev server's first line: ${first}`)
  const res = await fetch(`${url}/_dev/tokens`, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({email: USERS.ada.email}),
  })
  const {token} = (await res.json()) as {token: string}
  return {url, token, child, configDir}
}

async function stopServer(server: Server | undefined): Promise<void> {
  if (!server) return
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGINT')
  await exited
  rmSync(server.configDir, {recursive: true, force: true})
}

function amctl(server: Server, argv: string[], opts: {onSpawn?: (child: ChildProcess) => void} = {}): Promise<BinResult> {
  return runBin(argv, {env: {AMCTL_BASE_URL: server.url, AMCTL_TOKEN: server.token}, timeoutMs: 90_000, ...opts})
}

/** Sets a run's state through the dev server's hook. */
async function setRun(server: Server, runId: string, state: {status: string; score?: number | null}): Promise<void> {
  const res = await fetch(`${server.url}/_dev/runs/${encodeURIComponent(runId)}`, {
    method: 'PATCH',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(state),
  })
  expect(res.status, await res.text()).toBe(200)
}

/**
 * Calls `act` with the run IDs once stderr has named them all (`run_x queued` lines): `count`
 * of them, or as many as the "Launched eval set …: N runs" line says.
 */
function whenWatching(
  count: number | 'launched',
  act: (ids: string[]) => Promise<void>,
): {onSpawn: (child: ChildProcess) => void; done: () => Promise<void>} {
  let acted: Promise<void> | undefined
  return {
    onSpawn: (child) => {
      let err = ''
      child.stderr?.on('data', (chunk: Buffer) => {
        err += chunk.toString()
        const wanted = count === 'launched' ? Number(/^Launched eval set \S+: \d+ batch(?:es)?, (\d+) runs?$/m.exec(err)?.[1] ?? 0) : count
        const ids = [...err.matchAll(/^(run_\S+) (?:queued|running)$/gm)].map((m) => m[1])
        if (acted === undefined && wanted > 0 && ids.length >= wanted) acted = act(ids.slice(0, wanted))
      })
    },
    done: async () => {
      expect(acted, 'the runs were named on stderr').toBeDefined()
      await acted
    },
  }
}

describe('waiting for runs that progress on their own (--run-seconds 2)', () => {
  let server: Server | undefined
  beforeAll(async () => {
    server = await startServer(2)
  })
  afterAll(() => stopServer(server))

  it('evals run --wait --json: every launched run ends finished; the exit code follows their statuses', async () => {
    const argv = ['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--wait', ...FAST, '--wait-timeout', '60', '--json']
    const r = await amctl(server!, argv)
    const doc = jsonDoc(r)
    expect(doc.runs.map((run: {id: string}) => run.id)).toEqual(doc.runIds)
    // each run ends as the dev server draws it (deterministic), and the exit code follows
    const plans = await planned(server!, doc.runIds)
    for (const run of doc.runs) expect({status: run.status, score: run.score}).toEqual(plans.get(run.id))
    expect(r.exitCode, r.stderr).toBe(exitFor(plans))
  })

  it('evals run --wait piped: one stderr line per change, each run from queued to a terminal status', async () => {
    const r = await amctl(server!, ['evals', 'run', 'es_acme_search', '--org', 'acme', '--wait', '--interval', '1', '--wait-timeout', '60'])
    const rows = lines(r.stdout).map((line) => line.split('\t'))
    expect(rows.length).toBeGreaterThan(0)
    const plans = await planned(
      server!,
      rows.map(([id]) => id),
    )
    expect(r.exitCode, r.stderr).toBe(exitFor(plans))
    for (const [id, status] of rows) {
      expect(status).toBe(plans.get(id)?.status)
      expect(r.stderr).toContain(`${id} queued\n`)
      expect(r.stderr).toMatch(new RegExp(`^${id} \\w+ → ${status}`, 'm'))
    }
  })

  it('evals run --wait on a terminal: what was launched, the live view erased, a summary, the final table; exit as planned', async () => {
    const {exitCode, screen} = await runOnTerminal(['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--wait', ...FAST], {
      env: {AMCTL_BASE_URL: server!.url, AMCTL_TOKEN: server!.token, NO_COLOR: '1'},
      timeoutMs: 60_000,
    })
    // the final table's rows (the live view has no EVAL SET column)
    const finalRows = new Map([...screen.matchAll(/^(run_\w+)\s+(\w+)\s+es_acme_checkout\b/gm)].map((m) => [m[1], m[2]]))
    expect(finalRows.size, screen).toBe(2)
    const plans = await planned(server!, [...finalRows.keys()])
    expect(exitCode, screen).toBe(exitFor(plans))
    expect(screen).toMatch(/^Launched eval set es_acme_checkout: 1 batch, 2 runs\r?$/m)
    for (const [id, status] of finalRows) expect(status).toBe(plans.get(id)?.status)
    // the live view is erased (cursor up over it, erase down) just before the summary
    expect(screen).toMatch(/\u001b\[\d+F\u001b\[J[✓✗] /)
    // the summary, then the table (its header last but the rows)
    expect(screen).toMatch(exitFor(plans) === 0 ? /✓ all 2 runs succeeded/ : /✗ \d of 2 runs did not pass/)
    expect(screen.slice(screen.lastIndexOf('ID  '))).toMatch(/^ID\s+STATUS\s+EVAL SET/)
  })

  it('runs watch - with the IDs of a launch on stdin ends with every run finished', async () => {
    const launch = await amctl(server!, ['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--json'])
    expect(launch.exitCode, launch.stderr).toBe(0)
    const ids = jsonDoc(launch).runIds as string[]
    const r = await runBin(['runs', 'watch', '-', '--org', 'acme', '--interval', '1', '--json'], {
      env: {AMCTL_BASE_URL: server!.url, AMCTL_TOKEN: server!.token},
      input: `${ids.join('\n')}\n`, // what `jq -r '.runIds[]'` writes
      timeoutMs: 90_000,
    })
    const plans = await planned(server!, ids)
    expect(r.exitCode, r.stderr).toBe(exitFor(plans))
    expect(
      jsonDoc(r).items.map((run: {id: string; status: string; score: number | null}) => ({
        id: run.id,
        status: run.status,
        score: run.score,
      })),
    ).toEqual(ids.map((id) => ({id, ...plans.get(id)})))
  })
})

describe('waiting for runs set through PATCH /_dev/runs/{runId} (runs stay queued: --run-seconds 3600)', () => {
  let server: Server | undefined
  beforeAll(async () => {
    server = await startServer(3600)
  })
  afterAll(() => stopServer(server))

  async function launch(): Promise<string[]> {
    const r = await amctl(server!, ['evals', 'run', 'es_acme_checkout', '--org', 'acme', '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
    const ids = jsonDoc(r).runIds as string[]
    expect(ids.length).toBeGreaterThan(0)
    return ids
  }

  it('all succeed above --min-score: exit 0', async () => {
    const ids = await launch()
    const act = whenWatching(ids.length, async (seen) => {
      for (const id of seen) await setRun(server!, id, {status: 'running', score: null})
      for (const id of seen) await setRun(server!, id, {status: 'succeeded', score: 0.9})
    })
    const r = await amctl(server!, ['runs', 'watch', ...ids, '--org', 'acme', ...FAST, '--min-score', '0.8'], {onSpawn: act.onSpawn})
    await act.done()
    expect(r.exitCode, r.stderr).toBe(0)
    expect(lines(r.stdout).map((line) => line.split('\t')[1])).toEqual(ids.map(() => 'succeeded'))
  })

  it('a score below --min-score: exit 10', async () => {
    const ids = await launch()
    const act = whenWatching(ids.length, async (seen) => {
      for (const [i, id] of seen.entries()) await setRun(server!, id, {status: 'succeeded', score: i === 0 ? 0.2 : 0.9})
    })
    const r = await amctl(server!, ['runs', 'watch', ...ids, '--org', 'acme', ...FAST, '--min-score', '0.5'], {onSpawn: act.onSpawn})
    await act.done()
    expect(r.exitCode, r.stderr).toBe(10)
    expect(lines(r.stderr).at(-1)).toContain(`${ids[0]} scored 0.2 (below 0.5)`)
  })

  it('--fail-fast: the first failed run ends the wait while the others are still queued (exit 10)', async () => {
    const ids = await launch()
    const act = whenWatching(ids.length, (seen) => setRun(server!, seen[0], {status: 'failed', score: null}))
    const r = await amctl(server!, ['runs', 'watch', ...ids, '--org', 'acme', ...FAST, '--fail-fast', '--json'], {onSpawn: act.onSpawn})
    await act.done()
    expect(r.exitCode, r.stderr).toBe(10)
    const statuses = jsonDoc(r).items.map((run: {status: string}) => run.status)
    expect(statuses[0]).toBe('failed')
    if (ids.length > 1) expect(statuses.slice(1)).toEqual(ids.slice(1).map(() => 'queued'))
  })

  it('evals run --wait: cancelled after the launch → exit 10, the launch response with its runs', async () => {
    const act = whenWatching('launched', async (ids) => {
      for (const id of ids) await setRun(server!, id, {status: 'cancelled', score: null})
    })
    const r = await amctl(server!, ['evals', 'run', 'es_acme_search', '--org', 'acme', '--wait', ...FAST, '--json'], {onSpawn: act.onSpawn})
    await act.done()
    expect(r.exitCode, r.stderr).toBe(10)
    const doc = jsonDoc(r)
    expect(doc.runs.map((run: {status: string}) => run.status)).toEqual(doc.runIds.map(() => 'cancelled'))
  })
})
