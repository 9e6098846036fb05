import type {ChildProcess} from 'node:child_process'
import {afterEach, describe, expect, it} from 'vitest'
import {useE2E} from '../e2e/helpers.js'
import {runBin} from '../helpers/bin.js'
import {startServer} from '../helpers/http-server.js'
import {figures} from './figures.js'
import {round, STACK_FRAME} from './helpers.js'

// Ctrl-C (SIGINT) in the middle of work: exit 130, no stack trace (cli-contract.md 1.5); SIGTERM
// where no command handles it: 143, as a shell reports a process SIGTERM ended (docs/scripting.md).

const e2e = useE2E()
const fig = figures('signals')
afterEach(async () => {
  await e2e.current.clearFaults()
  await e2e.current.clearRequests()
})

/** Sends SIGINT once `ready(stdout)` holds; measures how long the process took to end after it. */
function interruptWhen(ready: (stdout: string) => boolean): {
  onSpawn: (child: ChildProcess) => void
  sentAt: () => number | undefined
  exitMs: () => number | null
} {
  let sentAt: number | undefined
  let closedAt: number | undefined
  return {
    onSpawn: (child) => {
      child.on('close', () => {
        closedAt = performance.now()
      })
      let out = ''
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (sentAt === undefined && ready(out)) {
          sentAt = performance.now()
          child.kill('SIGINT')
        }
      })
    },
    sentAt: () => sentAt,
    exitMs: () => (sentAt === undefined || closedAt === undefined ? null : round(closedAt - sentAt)),
  }
}

describe('SIGINT during runs list --all', () => {
  it.each([
    ['--json', ['--json'], (out: string) => out.includes('"id"')],
    ['rows', [], (out: string) => out.includes('run_')],
  ] as Array<[string, string[], (out: string) => boolean]>)(
    '%s: after the first page arrived → exit 130, no stack trace',
    async (name, extra, ready) => {
      // every page takes 300 ms: the walk of ~300 runs by 10 would take ~9 s
      await e2e.current.fault({match: {method: 'GET', path: '/orgs/acme/runs$'}, actions: [{type: 'latency', ms: 300}]})
      const interrupt = interruptWhen(ready)
      const r = await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--limit', '10', ...extra], {
        onSpawn: interrupt.onSpawn,
        timeoutMs: 60_000,
      })
      const sentAt = interrupt.sentAt()
      const pages = (await e2e.current.requests({path: '/orgs/acme/runs'})).length
      fig.set(`runsListAll ${name}`, {exitCode: r.exitCode, msFromSigintToExit: interrupt.exitMs(), pagesRequested: pages})
      expect(sentAt, 'no page arrived before the time limit').toBeDefined()
      expect(r.signal).toBeNull()
      expect(r.exitCode).toBe(130)
      expect(r.stderr).not.toMatch(STACK_FRAME)
      expect(r.stderr).not.toContain('unexpected failure')
      expect(pages).toBeLessThan(30) // it stopped walking
    },
    90_000,
  )
})

describe('SIGINT while --jq runs', () => {
  it('jq busy on the document (a reduce of 10^10 steps, after its first result): exit 130 at once', async () => {
    const interrupt = interruptWhen((out) => out.includes('started\n'))
    const r = await e2e.current.amctl(
      ['runs', 'list', '--org', 'acme', '--limit', '1', '--jq', '"started", (reduce range(1e10) as $i (0; . + 1))'],
      {
        onSpawn: interrupt.onSpawn,
        timeoutMs: 60_000,
      },
    )
    fig.set('jqRunning', {exitCode: r.exitCode, msFromSigintToExit: interrupt.exitMs()})
    expect(interrupt.sentAt(), 'jq never printed its first result').toBeDefined()
    expect(r.signal).toBeNull()
    expect(r.exitCode).toBe(130)
    expect(r.stdout).toBe('started\n')
    expect(r.stderr).not.toMatch(STACK_FRAME)
  }, 90_000)
})

/** Sends `signal` once a request reached `server`; measures how long the process took to end after it. */
function signalOnRequest(
  server: {requests: unknown[]},
  signal: NodeJS.Signals,
): {onSpawn: (child: ChildProcess) => void; exitMs: () => number | null} {
  let sentAt = 0
  let closedAt = 0
  return {
    onSpawn: (child) => {
      const poll = setInterval(() => {
        if (server.requests.length > 0) {
          clearInterval(poll)
          sentAt = performance.now()
          child.kill(signal)
        }
      }, 20)
      child.on('close', () => {
        clearInterval(poll)
        closedAt = performance.now()
      })
    },
    exitMs: () => (sentAt ? round(closedAt - sentAt) : null),
  }
}

describe('SIGINT while a request waits for an answer', () => {
  it('exits 130 at once, without waiting for the timeout', async () => {
    const server = await startServer(() => {
      // never answers
    })
    try {
      const interrupt = signalOnRequest(server, 'SIGINT')
      const r = await runBin(['orgs', 'summary', '--org', 'acme', '--timeout', '60'], {
        env: {AMCTL_BASE_URL: server.url, AMCTL_TOKEN: 'svc_sigint_waiting_00001'},
        timeoutMs: 60_000,
        onSpawn: interrupt.onSpawn,
      })
      fig.set('waitingRequest', {exitCode: r.exitCode, msFromSigintToExit: interrupt.exitMs()})
      expect(r.signal).toBeNull()
      expect(r.exitCode).toBe(130)
      expect(r.stderr).not.toMatch(STACK_FRAME)
      expect(r.stdout).toBe('')
    } finally {
      await server.close()
    }
  }, 90_000)
})

describe('SIGTERM while a launch waits for its answer (evals run --wait: a cancelled CI job)', () => {
  it('exits 143 at once, as Ctrl-C exits 130 there: nothing is waited for, no stack trace, not killed by the signal', async () => {
    const server = await startServer(() => {
      // never answers
    })
    try {
      const r = await runBin(['evals', 'run', 'es_1', '--org', 'acme', '--wait', '--timeout', '60'], {
        env: {AMCTL_BASE_URL: server.url, AMCTL_TOKEN: 'svc_sigterm_waiting_0001'},
        timeoutMs: 60_000,
        onSpawn: signalOnRequest(server, 'SIGTERM').onSpawn,
      })
      expect(r.signal).toBeNull()
      expect(r.exitCode).toBe(143)
      expect(r.stderr).not.toMatch(STACK_FRAME)
      expect(r.stdout).toBe('')
      expect(server.requests.map((q) => q.method)).toEqual(['POST'])
    } finally {
      await server.close()
    }
  }, 90_000)
})
