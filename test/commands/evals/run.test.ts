import {describe, expect, it} from 'vitest'
import EvalsRun from '../../../src/commands/evals/run.js'
import {runCommand} from '../../helpers/cli.js'
import {json, useFakeApi} from '../../helpers/fake-api.js'

const runs = [{id: 'run_2', status: 'queued', evalSetId: 'es_1', batchId: 'b_1', createdAt: '2026-01-02T00:00:00Z'}]
const api = useFakeApi({
  'POST /orgs/acme/eval-sets/es_1/run': {batchIds: ['b_1'], runIds: ['run_2', 'run_3']},
  'GET /orgs/acme/runs': {items: runs, nextCursor: null},
})

describe('evals run', () => {
  it('sends POST …/eval-sets/{id}/run with {} and prints batchIds and runIds', async () => {
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(api.requests()[0]).toMatchObject({method: 'POST', path: '/api/v1/orgs/acme/eval-sets/es_1/run'})
    expect(json(api.requests()[0])).toEqual({})
    expect(r.stdout).toBe('batchIds\t["b_1"]\nrunIds\t["run_2","run_3"]\n')
    expect(r.stderr).toContain('Launched eval set es_1: 1 batch, 2 runs')
    const j = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--json'], {env: api.env()})
    expect(JSON.parse(j.stdout)).toEqual({batchIds: ['b_1'], runIds: ['run_2', 'run_3']})
  })

  it('when the connection drops after sending: no resubmission, newest runs listed, exit 9', async () => {
    api.routes.set('POST /orgs/acme/eval-sets/es_1/run', (_req: unknown, res: import('node:http').ServerResponse) => {
      res.socket?.destroy()
    })
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--json'], {env: api.env()})
    expect(r.exitCode).toBe(9)
    const doc = JSON.parse(r.stdout)
    expect(doc).toMatchObject({outcome: 'unknown', recentRuns: runs})
    expect(doc.error.code).toBe('outcome_unknown')
    const launches = api.requests().filter((q) => q.method === 'POST')
    expect(launches).toHaveLength(1)
    expect(api.requests().at(-1)!.path).toBe('/api/v1/orgs/acme/runs?limit=10')

    const human = await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env: api.env()})
    expect(human.exitCode).toBe(9)
    expect(human.stderr).toMatch(/the server may have accepted the request; check before retrying \(outcome_unknown\)/)
    expect(human.stdout).toBe('run_2\tqueued\tes_1\t2026-01-02T00:00:00Z\n')
  })

  it('402 insufficient_credits exits 8', async () => {
    api.routes.set('POST /orgs/acme/eval-sets/es_1/run', (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(402, {'content-type': 'application/json'})
      res.end(JSON.stringify({error: {code: 'insufficient_credits', message: 'no credits left'}}))
    })
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(8)
    expect(r.stderr).toBe('error: no credits left (insufficient_credits, HTTP 402)\n')
  })
})
