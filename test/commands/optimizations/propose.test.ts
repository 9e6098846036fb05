import {describe, expect, it} from 'vitest'
import Propose from '../../../src/commands/optimizations/propose.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, json, useFakeApi} from '../../helpers/fake-api.js'
import {lines} from '../../helpers/output.js'

const api = useFakeApi({'POST /orgs/acme/optimizations/cl_1/propose': {proposalId: 'p_1'}}, {me: false})

describe('optimizations propose', () => {
  it('sends POST …/optimizations/{id}/propose with the fields given', async () => {
    const r = await runCommand(Propose, ['cl_1', '--org', 'acme', '-f', 'goal=speed', '--json'], {env: api.env()})
    expect(api.requests().map((q) => [q.method, q.path, json(q)])).toEqual([
      ['POST', '/api/v1/orgs/acme/optimizations/cl_1/propose', {goal: 'speed'}],
    ])
    expect(r.result).toEqual({proposalId: 'p_1'})
    expect(JSON.parse(r.stdout)).toEqual({proposalId: 'p_1'})
  })

  it('on a terminal a round is its key/values, then its trials as a list', async () => {
    const trials = [{id: 't1', status: 'done', description: 'faster checkout'}]
    api.stub('POST /orgs/acme/optimizations/cl_1/propose', {round: 3, trials})
    const r = await runCommand(Propose, ['cl_1', '--org', 'acme'], {env: api.env(), tty: true})
    expect(r.result).toEqual({round: 3, trials})
    expect(r.rendered).toEqual([
      {method: 'object', value: {round: 3}},
      {method: 'text', value: ''},
      {method: 'list', rows: trials, columns: ['TRIAL', 'STATUS', 'DESCRIPTION']},
    ])
    expect(r.stdout).toMatch(/^TRIAL\s+STATUS\s+DESCRIPTION\nt1\s+done\s+faster checkout\n$/m)
  })

  it.each(['capability missing', 'Forbidden', 'you shall not pass'])(
    'a 403 (%j) keeps the message and hints that Optimizations must be enabled (exit 4)',
    async (message) => {
      api.stub('POST /orgs/acme/optimizations/cl_1/propose', envelope(403, 'forbidden', message))
      const r = await runCommand(Propose, ['cl_1', '--org', 'acme'], {env: api.env()})
      expect(r.exitCode).toBe(4)
      const [error, hint, ...rest] = lines(r.stderr)
      expect(error).toBe(`error: ${message} (forbidden, HTTP 403)`)
      expect(hint).toBe('hint: Optimizations must be enabled for the organization "acme" to propose trials; an administrator can enable it')
      expect(rest).toEqual([])
    },
  )
})
