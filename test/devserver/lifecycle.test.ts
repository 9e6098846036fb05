import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {TERMINAL_RUN_STATUSES} from '../../src/contract/vocabulary.js'
import {outcomeOf} from '../../src/devserver/runs.js'
import {EVAL_SETS, ORGS, RUN_COUNTS, USERS, seedState, seededRunId} from '../../src/devserver/seed.js'
import {expectError, startTestServer, type TestServer} from './helpers.js'
import {tempDir} from '../helpers/temp.js'
import {systemClock} from '../../src/core/clock.js'

/** A clock the test moves by hand. */
function clock(start = Date.parse('2026-03-01T12:00:00.000Z')) {
  let now = start
  return {now: () => now, advance: (seconds: number) => (now += seconds * 1000)}
}

const servers: TestServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

async function start(options: Parameters<typeof startTestServer>[0]) {
  const server = await startTestServer(options)
  servers.push(server)
  return {server, ada: await server.token(USERS.ada.email)}
}

/** How many runs of the run's eval set × agent × model acme's seeded history holds: a first launch's runs are the next (./history.ts). */
function seeded(run: {evalSetId: string; agent: string; model: string}): number {
  const history = seedState('default', systemClock.wall()).runs[ORGS.acme.publicId]
  return history.filter((r) => r.evalSetId === run.evalSetId && r.agent === run.agent && r.model === run.model).length
}

async function runsById(server: TestServer, token: string, ids: string[]): Promise<Record<string, any>> {
  const page = await server.api('GET', '/orgs/acme/runs?limit=20', {token})
  return Object.fromEntries(page.body.items.filter((run: any) => ids.includes(run.id)).map((run: any) => [run.id, run]))
}

describe('launched runs move on their own', () => {
  it('queued, then running after a fifth of --run-seconds, then their outcome and score at the end', async () => {
    const time = clock()
    const {server, ada} = await start({runSeconds: 10, now: time.now})
    const launched = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}/run`, {token: ada, body: {}})
    const ids: string[] = launched.body.runIds
    expect(ids).toHaveLength(3)
    const status = async () => Object.values(await runsById(server, ada, ids)).map((run: any) => run.status)

    expect(await status()).toEqual(['queued', 'queued', 'queued'])
    time.advance(1.999)
    expect(await status()).toEqual(['queued', 'queued', 'queued'])
    time.advance(0.001)
    expect(await status()).toEqual(['running', 'running', 'running'])
    time.advance(7.999)
    expect(await status()).toEqual(['running', 'running', 'running'])
    time.advance(0.001)
    const done = await runsById(server, ada, ids)
    for (const id of ids) {
      const {outcome, score} = outcomeOf(done[id], seeded(done[id]))
      expect(done[id]).toMatchObject({id, status: outcome, score})
      expect(TERMINAL_RUN_STATUSES).toContain(done[id].status)
    }
  })

  it('forks too; --run-seconds 0 finishes a run at once, already in the answer that creates it', async () => {
    const time = clock()
    const {server, ada} = await start({runSeconds: 0, now: time.now})
    const fork = await server.api('POST', `/runs/${seededRunId('acme', 10)}/fork`, {token: ada, body: {}})
    const {outcome, score} = outcomeOf(fork.body, seeded(fork.body))
    expect(fork.body).toMatchObject({forkedFrom: seededRunId('acme', 10), status: outcome, score})
    const launched = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: ada, body: {}})
    const runs = await runsById(server, ada, launched.body.runIds)
    for (const id of launched.body.runIds) expect(runs[id].status).toBe(outcomeOf(runs[id], seeded(runs[id])).outcome)
  })

  it('the same launches give the same runs, outcomes and scores on another server', async () => {
    const results: unknown[] = []
    for (let i = 0; i < 2; i += 1) {
      const {server, ada} = await start({runSeconds: 0})
      const launched = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}/run`, {token: ada, body: {}})
      const runs = await runsById(server, ada, launched.body.runIds)
      results.push(launched.body.runIds.map((id: string) => [id, runs[id].status, runs[id].score]))
    }
    expect(results[0]).toEqual(results[1])
    // and the outcomes differ from run to run: not everything succeeds
    const triple = {evalSetId: EVAL_SETS.acmeSearch, agent: 'cursor-agent', model: 'gemini-2.5-pro'}
    const outcomes = new Set(Array.from({length: 100}, (_, k) => outcomeOf(triple, k).outcome))
    expect(outcomes).toEqual(new Set(['succeeded', 'failed', 'cancelled']))
  })

  it('a launch ends the same whatever else the server did before: tokens minted, other eval sets launched (issue 26 item 22)', async () => {
    const ended: unknown[] = []
    for (const before of [0, 1, 3]) {
      const {server, ada} = await start({runSeconds: 0})
      for (let i = 0; i < before; i += 1) {
        await server.token(USERS.ada.email)
        await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}/run`, {token: ada, body: {}})
      }
      const launched = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: ada, body: {}})
      const runs = await runsById(server, ada, launched.body.runIds)
      ended.push(launched.body.runIds.map((id: string) => [runs[id].agent, runs[id].model, runs[id].status, runs[id].score]))
    }
    expect(ended[1]).toEqual(ended[0])
    expect(ended[2]).toEqual(ended[0])
    // what the README and docs/dev-server.md promise of the first launch of es_acme_checkout
    expect(ended[0]).toEqual([
      ['claude-code', 'claude-sonnet-4-5', 'succeeded', expect.any(Number)],
      ['codex', 'gpt-5', 'failed', null],
    ])
  })

  it('keep moving across a restart with --data: the plan is in the file, nothing ticks', async () => {
    const dir = tempDir('amctl-lifecycle-')
    const dataFile = join(dir, 'state.json')
    const time = clock()
    const first = await start({runSeconds: 10, now: time.now, dataFile})
    const launched = await first.server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: first.ada, body: {}})
    const [id] = launched.body.runIds as string[]
    await servers.shift()!.close()

    time.advance(5)
    const second = await start({runSeconds: 60, now: time.now, dataFile})
    expect((await runsById(second.server, second.ada, [id]))[id].status).toBe('running')
    time.advance(5)
    // the run keeps the 10 seconds it was launched with
    const run = (await runsById(second.server, second.ada, [id]))[id]
    expect(run.status).toBe(outcomeOf(run, seeded(run)).outcome)
  })

  it('seeded runs keep their statuses', async () => {
    const time = clock()
    const {server, ada} = await start({now: time.now})
    time.advance(3600)
    const page = await server.api('GET', '/orgs/acme/runs?limit=3', {token: ada})
    expect(page.body.items.map((run: any) => run.status)).toEqual(['queued', 'running', 'running'])
    expect(page.body.items[0].id).toBe(seededRunId('acme', RUN_COUNTS.acme))
  })
})

describe('PATCH /_dev/runs/{runId}', () => {
  it('sets a status and a score; the run then stays as set', async () => {
    const time = clock()
    const {server, ada} = await start({runSeconds: 10, now: time.now})
    const launched = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: ada, body: {}})
    const [id] = launched.body.runIds as string[]
    const set = await server.call('PATCH', `/_dev/runs/${id}`, {body: {status: 'failed', score: 0.25}})
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({id, status: 'failed', score: 0.25})
    time.advance(60)
    expect((await runsById(server, ada, [id]))[id]).toMatchObject({status: 'failed', score: 0.25})
  })

  it('keeps what the run shows now for what is not given, takes any status, and a null score', async () => {
    const time = clock()
    const {server, ada} = await start({runSeconds: 10, now: time.now})
    const launched = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: ada, body: {}})
    const [id] = launched.body.runIds as string[]
    time.advance(3)
    expect((await server.call('PATCH', `/_dev/runs/${id}`, {body: {score: 0.5}})).body).toMatchObject({status: 'running', score: 0.5})
    const paused = await server.call('PATCH', `/_dev/runs/${id}`, {body: {status: 'paused', score: null}})
    expect(paused.body).toMatchObject({status: 'paused', score: null})
    expect((await runsById(server, ada, [id]))[id]).toMatchObject({status: 'paused', score: null})
    const seeded = await server.call('PATCH', `/_dev/runs/${seededRunId('globex', 1)}`, {body: {status: 'cancelled'}})
    expect(seeded.body).toMatchObject({id: seededRunId('globex', 1), status: 'cancelled'})
  })

  it.each([
    [{score: 1.5}, 'score must be a number from 0 to 1'],
    [{score: '0.5'}, 'score must be a number from 0 to 1'],
    [{status: ''}, 'status must be a non-empty string'],
    [{status: 'succeeded', createdAt: 'x'}, 'createdAt cannot be set here'],
  ])('refuses %j with 400', async (body, message) => {
    const {server} = await start({})
    const answer = await server.call('PATCH', `/_dev/runs/${seededRunId('acme', 1)}`, {body})
    expect(expectError(answer, 400, 'invalid_request')).toContain(message)
  })

  it('answers 404 for a run that does not exist', async () => {
    const {server} = await start({seed: 'empty'})
    expectError(await server.call('PATCH', '/_dev/runs/run_nope', {body: {status: 'failed'}}), 404, 'not_found')
  })
})
