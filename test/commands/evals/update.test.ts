import {describe, expect, it} from 'vitest'
import EvalsUpdate from '../../../src/commands/evals/update.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, json, reply, useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi(
  {
    'PATCH /orgs/acme/eval-sets/es_1': (req) =>
      reply(200, {id: 'es_1', name: 'Checkout', cadence: 'DAILY', samplesPerTarget: 1, connectionIds: [], ...JSON.parse(req.body)}),
  },
  {me: false},
)
const update = (...args: string[]) => runCommand(EvalsUpdate, ['es_1', '--org', 'acme', ...args], {env: api.env()})

describe('evals update', () => {
  it('sends only what is given: cadence upper-cased, samplesPerTarget as a number', async () => {
    const r = await update('--cadence', 'weekly', '--samples', '5', '--json')
    expect(r.exitCode).toBe(0)
    const [req] = api.requests()
    expect(req.method).toBe('PATCH')
    expect(req.path).toBe('/api/v1/orgs/acme/eval-sets/es_1')
    expect(json(req)).toEqual({cadence: 'WEEKLY', samplesPerTarget: 5})
    expect(JSON.parse(r.stdout)).toMatchObject({id: 'es_1', cadence: 'WEEKLY', samplesPerTarget: 5})
  })

  it('flags and the ID in any order: each repeated flag takes one value per occurrence (contract 1.1)', async () => {
    const r1 = await runCommand(EvalsUpdate, ['--connection', 'c1', 'es_1', '--org', 'acme'], {env: api.env()})
    const r2 = await runCommand(EvalsUpdate, ['--org', 'acme', '--connection', 'c1', '--connection', 'c2', 'es_1'], {env: api.env()})
    const r3 = await runCommand(EvalsUpdate, ['--set', 'a=1', '--set', 'b=[2]', 'es_1', '--org', 'acme'], {env: api.env()})
    expect([r1.exitCode, r2.exitCode, r3.exitCode]).toEqual([0, 0, 0])
    const [a, b, c] = api.requests()
    expect(a.path).toBe('/api/v1/orgs/acme/eval-sets/es_1')
    expect(json(a)).toEqual({connectionIds: ['c1']})
    expect(json(b)).toEqual({connectionIds: ['c1', 'c2']})
    expect(json(c)).toEqual({a: 1, b: [2]})
  })

  it('member names are data: --set constructor, __proto__ and toString are sent as ordinary members', async () => {
    const r = await update('--set', 'constructor=1', '--set', '__proto__={"x":1}', '--set', 'toString="s"')
    expect(r.exitCode, r.stderr).toBe(0)
    expect(api.requests()[0].body).toBe('{"constructor":1,"__proto__":{"x":1},"toString":"s"}')
  })

  it('repeated --connection becomes connectionIds; --clear-connections sends []; --set adds members', async () => {
    await update('--connection', 'conn_a', '--connection', 'conn_b')
    await update('--clear-connections', '--set', 'skillIds=["sk_1"]', '--set', 'name="New"')
    expect(json(api.requests()[0])).toEqual({connectionIds: ['conn_a', 'conn_b']})
    expect(json(api.requests()[1])).toEqual({connectionIds: [], skillIds: ['sk_1'], name: 'New'})
  })

  it.each([
    [['--samples', '0'], '--samples must be from 1 to 50, got 0'],
    [['--samples', '51'], '--samples must be from 1 to 50, got 51'],
    [['--samples', '2.5'], '--samples must be a whole number from 1 to 50, got "2.5"'],
    [['--samples', 'abc'], '--samples must be a whole number from 1 to 50, got "abc"'],
    [['--cadence', 'hourly'], '--cadence must be one of NONE, DAILY, WEEKLY, MONTHLY (any case), got "hourly"'],
    [['--connection', 'c1', '--clear-connections'], '--connection and --clear-connections contradict each other'],
    [[], 'nothing to change'],
    [['--set', 'skillIds=[sk_1]'], '--set skillIds: the value is not valid JSON'],
    [['--set', 'cadence="DAILY"'], '--set cadence is not allowed: use --cadence'],
    [['--set', 'novalue'], '--set expects KEY=JSON'],
  ])('%j exits 2 with no request', async (args, message) => {
    const r = await update(...args)
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(message)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(api.requests()).toHaveLength(0)
  })

  it('a 400 from the server exits 2 with its message', async () => {
    api.stub('PATCH /orgs/acme/eval-sets/es_1', () => envelope(400, 'invalid_request', 'connection "c9" is not in this organization'))
    const r = await update('--connection', 'c9')
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toBe('error: connection "c9" is not in this organization (invalid_request, HTTP 400)\n')
  })
})

describe('evals update: typed result and renderer', () => {
  it('returns the updated eval set and hands it to the renderer as an object', async () => {
    const r = await update('--samples', '2')
    const updated = {id: 'es_1', name: 'Checkout', cadence: 'DAILY', samplesPerTarget: 2, connectionIds: []}
    expect(r.result).toEqual(updated)
    expect(r.rendered).toEqual([{method: 'object', value: updated}])
  })
})
