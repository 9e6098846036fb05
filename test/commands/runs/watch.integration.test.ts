import {execFileSync} from 'node:child_process'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import RunsWatch from '../../../src/commands/runs/watch.js'
import {runCommand} from '../../helpers/cli.js'
import {sealedEnv} from '../../helpers/env.js'
import {useFakeApi} from '../../helpers/fake-api.js'
import {fakeSignals} from '../../helpers/fake-signals.js'
import {startServer} from '../../helpers/http-server.js'
import {tempDir} from '../../helpers/temp.js'
import {run} from './fixtures.js'

// runs watch where it needs more than this process (the integration project; the rest in
// ./watch.test.ts): the jq engine (a worker thread), a request to a real server cancelled by
// Ctrl-C, a FIFO as $GITHUB_STEP_SUMMARY.

const api = useFakeApi({}, {me: false})

/** The org's list: r1 in `status`. */
const runsAre = (status: string, score: number | null = null) =>
  api.stub('GET /orgs/acme/runs', {items: [run('r1', status, score)], nextCursor: null})

describe('runs watch', () => {
  it('a --jq error after the verdict keeps the verdict (10, 11: a retry on exit 1 would launch again); after a pass it is 1', async () => {
    const expression = '.items[0].id, (.items[0].id | .x)'
    const jqError = 'error: --jq: Cannot index string with string ("x") (jq_error)\n'
    runsAre('failed')
    const failed = await runCommand(RunsWatch, ['r1', '--org', 'acme', '--jq', expression], {env: api.env()})
    expect(failed.exitCode).toBe(10)
    expect(failed.stdout).toBe('r1\n')
    expect(failed.stderr.endsWith(jqError)).toBe(true)
    runsAre('running')
    const timedOut = await runCommand(RunsWatch, ['r1', '--org', 'acme', '--wait-timeout', '5', '--jq', expression], {env: api.env()})
    expect(timedOut.exitCode).toBe(11)
    expect(timedOut.stderr.endsWith(jqError)).toBe(true)
    runsAre('succeeded', 0.9)
    const passed = await runCommand(RunsWatch, ['r1', '--org', 'acme', '--jq', expression], {env: api.env()})
    expect(passed.exitCode).toBe(1)
    expect(passed.stderr.endsWith(jqError)).toBe(true)
  })

  it('during a poll that hangs: the request is cancelled, not left to time out and retry after the wait', async () => {
    // a real server: the request's connection must close when Ctrl-C ends the wait (before, it
    // stayed open until the 30 s timeout, then the poll was retried into whatever ran next)
    const signals = fakeSignals()
    let closed!: Promise<void>
    const server = await startServer((_req, res) => {
      closed = new Promise((resolve) => res.once('close', () => resolve()))
      // Ctrl-C, through the command's world, while the request waits for its answer
      setImmediate(() => signals.raise('SIGINT'))
    })
    try {
      const r = await runCommand(RunsWatch, ['r1', '--org', 'acme'], {
        signals,
        env: api.env({AMCTL_BASE_URL: server.url}),
        transport: 'network',
      })
      expect(r.exitCode).toBe(130)
      expect(signals.listening('SIGINT'), 'no SIGINT listener outlives the wait').toBe(0)
      await closed
      expect(server.requests.map((q) => q.path)).toEqual(['/api/v1/orgs/acme/runs?limit=200'])
    } finally {
      await server.close()
    }
  })

  it('a $GITHUB_STEP_SUMMARY that is a FIFO nobody reads does not block: a warning, and the verdict stands', async () => {
    const dir = tempDir('amctl-watch-gha-')
    const fifo = join(dir, 'summary.fifo')
    execFileSync('mkfifo', [fifo], {env: sealedEnv()})
    api.stub('GET /orgs/acme/runs', {items: [run('w1', 'succeeded', 0.9)], nextCursor: null})
    const r = await runCommand(RunsWatch, ['w1', '--org', 'acme'], {env: api.env({GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: fifo})})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/warning: could not add the summary to \$GITHUB_STEP_SUMMARY: it is a FIFO nobody reads/)
  })
})
