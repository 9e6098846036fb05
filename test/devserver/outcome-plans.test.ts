import {afterEach, describe, expect, it} from 'vitest'
import {EVAL_SETS, ORGS, RUN_COUNTS, USERS, seedState, seededRunCreatedAt, seededRunId} from '../../src/devserver/seed.js'
import {MAX_PLANS, OutcomePlans} from '../../src/devserver/outcome-plans.js'
import {expectError, startTestServer, type TestServer} from './helpers.js'
import {systemClock} from '../../src/core/clock.js'
import {scoreStep} from '../../src/gate/stats.js'
import type {JsonObject} from '../../src/contract/types.js'

// The dev server makes the regression gate testable: a seeded history with scores for every eval
// set × agent × model, dated just before the server started, and outcomes planned for the next
// launched runs (POST /_dev/orgs/:org/outcomes).

const servers: TestServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

async function start(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer({runSeconds: 0, ...options})
  servers.push(server)
  return {server, ada: await server.token(USERS.ada.email)}
}

describe('the seeded history', () => {
  it('runs ten minutes apart, the newest ten minutes before seeding; every other timestamp fixed', () => {
    const seededAt = Date.parse('2026-06-01T12:34:56.789Z')
    const state = seedState('default', seededAt)
    const acme = state.runs[ORGS.acme.publicId]
    expect(acme.at(-1)).toMatchObject({id: seededRunId('acme', RUN_COUNTS.acme), createdAt: '2026-06-01T12:24:00.000Z'})
    expect(acme.at(-2)?.createdAt).toBe('2026-06-01T12:14:00.000Z')
    expect(state.runs[ORGS.globex.publicId][0].createdAt).toBe(seededRunCreatedAt('globex', 1, seededAt))
    expect(seededRunCreatedAt('globex', 1, seededAt)).toBe('2026-05-30T17:19:00.000Z')
    expect(seedState('default', seededAt)).toEqual(state)
  })

  it('has a succeeded run with a score for every eval set and each agent and model it targets', () => {
    const state = seedState('default', systemClock.wall())
    for (const [orgId, runs] of Object.entries(state.runs)) {
      const sets = Object.values(state.evalSets).filter((owned) => owned.orgId === orgId)
      for (const {item} of sets) {
        for (const target of item.targets as Array<{agent: string; model: string}>) {
          const scored = runs.filter(
            (r) =>
              r.evalSetId === item.id &&
              r.agent === target.agent &&
              r.model === target.model &&
              r.status === 'succeeded' &&
              typeof r.score === 'number',
          )
          expect(scored.length, `${item.id} ${target.agent} ${target.model}`).toBeGreaterThan(0)
        }
      }
    }
  })
})

describe('POST /_dev/orgs/:org/outcomes', () => {
  it('the next launched runs that match end as planned; a plan with a count is used up, the others fall back to the ID', async () => {
    const {server, ada} = await start()
    const plan = await server.call('POST', '/_dev/orgs/acme/outcomes', {
      body: {evalSetId: EVAL_SETS.acmeCheckout, agent: 'codex', status: 'succeeded', score: 0.42, count: 1},
    })
    expect(plan.status).toBe(200)
    expect(plan.body).toMatchObject({
      evalSetId: EVAL_SETS.acmeCheckout,
      agent: 'codex',
      status: 'succeeded',
      score: 0.42,
      count: 1,
      hits: 0,
    })
    await server.call('POST', '/_dev/orgs/acme/outcomes', {body: {agent: 'claude-code', status: 'failed', score: null}})
    const first = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: ada, body: {}})
    const second = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: ada, body: {}})
    const page = await server.api('GET', '/orgs/acme/runs?limit=10', {token: ada})
    const byId = Object.fromEntries(page.body.items.map((r: any) => [r.id, r]))
    const [claude1, codex1] = first.body.runIds.map((id: string) => byId[id])
    const [claude2, codex2] = second.body.runIds.map((id: string) => byId[id])
    expect(codex1).toMatchObject({agent: 'codex', status: 'succeeded', score: 0.42})
    expect([claude1.status, claude1.score, claude2.status, claude2.score]).toEqual(['failed', null, 'failed', null])
    expect(codex2.score).not.toBe(0.42) // the plan was used up: its outcome comes from its ID again
    const listed = await server.call('GET', '/_dev/orgs/acme/outcomes')
    expect(listed.body.items).toEqual([{agent: 'claude-code', status: 'failed', score: null, hits: 2}])
    await server.call('DELETE', '/_dev/orgs/acme/outcomes')
    expect((await server.call('GET', '/_dev/orgs/acme/outcomes')).body.items).toEqual([])
  })

  it.each([
    [{score: 0.5}, 'status'],
    [{status: 'paused'}, 'status'],
    [{status: 'succeeded', score: 2}, 'score must be a number from 0 to 1'],
    [{status: 'succeeded', count: 0}, 'count'],
    [{status: 'succeeded', when: 'later'}, 'when is not a member of an outcome plan'],
    [{status: 'succeeded', mean: 0.7}, 'mean and sd come together'],
    [{status: 'succeeded', mean: 0.7, sd: 0.03, score: 0.5}, 'either score or mean and sd'],
    [{status: 'succeeded', mean: 1.5, sd: 0.03}, 'mean must be a number from 0 to 1'],
    [{status: 'succeeded', score: 0.5, seed: 3}, 'seed acts only with mean and sd, failRate or cancelRate'],
    [{status: 'failed', failRate: 0.1}, 'failRate and cancelRate act only in a plan of succeeded runs'],
    [{status: 'succeeded', failRate: 1.5}, 'failRate must be a number from 0 to 1'],
    [{status: 'succeeded', cancelRate: -0.1}, 'cancelRate must be a number from 0 to 1'],
    [{status: 'succeeded', failRate: 0.7, cancelRate: 0.4}, 'failRate and cancelRate must add up to at most 1'],
  ])('%j is refused (400) naming what is wrong', async (body, message) => {
    const {server} = await start()
    expect(expectError(await server.call('POST', '/_dev/orgs/acme/outcomes', {body}), 400, 'invalid_request')).toContain(message)
  })

  it.each([
    [{}, 'status is required (one of succeeded, failed, cancelled)'],
    [{status: 'succeeded', mean: 0.5, sd: 0.1, seed: null}, 'seed must be an integer from 0 to 4294967295, got null'],
  ])('%j: 400 naming the member, never "undefined" (issue 32 item 23)', async (body, message) => {
    const {server} = await start()
    expect(expectError(await server.call('POST', '/_dev/orgs/acme/outcomes', {body}), 400, 'invalid_request')).toBe(message)
  })

  it('mean and sd: scores drawn from that normal distribution, clipped to 0–1, the same for a given seed', async () => {
    const draws = async (seed: number, mean = 0.7, sd = 0.05) => {
      const {server, ada} = await start()
      await server.call('POST', '/_dev/orgs/acme/outcomes', {body: {agent: 'codex', status: 'succeeded', mean, sd, seed}})
      const ids: string[] = []
      for (let i = 0; i < 40; i++) {
        const launch = await server.api('POST', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}/run`, {token: ada, body: {}})
        ids.push(launch.body.runIds[1])
      }
      const page = await server.api('GET', '/orgs/acme/runs?limit=200', {token: ada})
      const byId = Object.fromEntries(page.body.items.map((r: any) => [r.id, r]))
      return ids.map((id) => byId[id].score as number)
    }
    const a = await draws(7)
    expect(await draws(7)).toEqual(a)
    expect(await draws(8)).not.toEqual(a)
    const mean = a.reduce((x, y) => x + y, 0) / a.length
    const sd = Math.sqrt(a.reduce((x, y) => x + (y - mean) ** 2, 0) / (a.length - 1))
    expect(mean).toBeGreaterThan(0.66)
    expect(mean).toBeLessThan(0.74)
    expect(sd).toBeGreaterThan(0.03)
    expect(sd).toBeLessThan(0.07)
    // (in hundredths, as the seeded history's: 40 draws at sd 0.05 take 14 values)
    expect(new Set(a).size).toBeGreaterThan(10)
    // clipped to 0–1
    for (const score of await draws(1, 0.99, 0.5)) expect(score >= 0 && score <= 1).toBe(true)
  })

  it("drawn scores have the seeded history's two decimals, so the gate finds the same step in planted runs as in seeded ones (issue 37 item 18); a fixed score stays as given", () => {
    const plans = new OutcomePlans()
    plans.add('org_1', {agent: 'codex', status: 'succeeded', mean: 0.7, sd: 0.05, seed: 3, count: 200})
    plans.add('org_1', {status: 'succeeded', score: 0.7123})
    const take = () => plans.take('org_1', {evalSetId: 'es_1', agent: 'codex', model: 'gpt-5'})?.score as number
    const drawn = Array.from({length: 200}, take)
    const seeded = Object.values(seedState('default', systemClock.wall()).runs)
      .flat()
      .flatMap((run) => (typeof run.score === 'number' ? [run.score] : []))
    expect(seeded.length).toBeGreaterThan(100)
    expect([scoreStep(drawn), scoreStep(seeded)]).toEqual([0.01, 0.01])
    expect(take()).toBe(0.7123)
  })

  it('failRate and cancelRate: each run fails or is cancelled with that chance, the same for a seed; the scores of the runs that succeed are those of the plan without them', () => {
    const take = (body: JsonObject, runs = 4000) => {
      const plans = new OutcomePlans()
      plans.add('org_1', {status: 'succeeded', count: runs, ...body})
      return Array.from({length: runs}, () => plans.take('org_1', {evalSetId: 'es_1', agent: 'codex', model: 'gpt-5'}))
    }
    const flaky = take({mean: 0.72, sd: 0.04, seed: 5, failRate: 0.15, cancelRate: 0.03})
    const share = (status: string) => flaky.filter((o) => o?.outcome === status).length / flaky.length
    // 4,000 draws: the shares' standard errors are 0.6 and 0.3 points; the seed fixes them (no flakiness)
    expect(share('failed')).toBeGreaterThan(0.13)
    expect(share('failed')).toBeLessThan(0.17)
    expect(share('cancelled')).toBeGreaterThan(0.02)
    expect(share('cancelled')).toBeLessThan(0.04)
    expect(flaky.filter((o) => o?.outcome !== 'succeeded').every((o) => o?.score === null)).toBe(true)
    expect(take({mean: 0.72, sd: 0.04, seed: 5, failRate: 0.15, cancelRate: 0.03})).toEqual(flaky)
    expect(take({mean: 0.72, sd: 0.04, seed: 6, failRate: 0.15, cancelRate: 0.03})).not.toEqual(flaky)
    const plain = take({mean: 0.72, sd: 0.04, seed: 5})
    flaky.forEach((o, i) => {
      if (o?.outcome === 'succeeded') expect(o.score).toBe(plain[i]?.score)
    })
    // with a fixed score, and with a rate of 1: every run fails
    const fixed = take({score: 0.5, failRate: 0.5, seed: 2}, 400)
    expect(new Set(fixed.map((o) => `${o?.outcome} ${o?.score}`))).toEqual(new Set(['succeeded 0.5', 'failed null']))
    expect(take({mean: 0.72, sd: 0.04, failRate: 1}, 50).every((o) => o?.outcome === 'failed')).toBe(true)
  })

  it('an organization holds at most MAX_PLANS (1000) plans: the next is refused (invalid_request: a 400) (issue 26 item 19)', () => {
    const plans = new OutcomePlans()
    for (let i = 0; i < MAX_PLANS; i++) plans.add('org_1', {status: 'succeeded', score: 0.5, count: 1})
    expect(() => plans.add('org_1', {status: 'succeeded', score: 0.5})).toThrow(/at most 1000 outcome plans/)
    // another organization has its own
    expect(plans.add('org_2', {status: 'succeeded', score: 0.5})).toMatchObject({status: 'succeeded'})
  })
})
