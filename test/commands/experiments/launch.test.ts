import {describe, expect, it} from 'vitest'
import Launch from '../../../src/commands/experiments/launch.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, json, useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi({'POST /orgs/acme/experiments/exp_1/launch': {id: 'exp_1', status: 'running'}}, {me: false})

describe('experiments launch', () => {
  it('sends POST …/experiments/{id}/launch with {} or the given body', async () => {
    await runCommand(Launch, ['exp_1', '--org', 'acme'], {env: api.env()})
    await runCommand(Launch, ['exp_1', '--org', 'acme', '-F', 'trafficPercent=25'], {env: api.env()})
    expect(api.requests().map((r) => [r.method, r.path, json(r)])).toEqual([
      ['POST', '/api/v1/orgs/acme/experiments/exp_1/launch', {}],
      ['POST', '/api/v1/orgs/acme/experiments/exp_1/launch', {trafficPercent: 25}],
    ])
  })

  it('a second launch (409) exits 6', async () => {
    api.stub('POST /orgs/acme/experiments/exp_1/launch', () => envelope(409, 'conflict', 'experiment "exp_1" was already launched'))
    const r = await runCommand(Launch, ['exp_1', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(6)
    expect(r.stderr).toBe('error: experiment "exp_1" was already launched (conflict, HTTP 409)\n')
  })

  it('-F with a bad value exits 2 with no request', async () => {
    for (const args of [
      ['-F', 'noequals'],
      ['-F', '=x'],
      ['-F', 'k={bad'],
      ['-F', 'k=@/nonexistent/file'],
    ]) {
      const r = await runCommand(Launch, ['exp_1', '--org', 'acme', ...args], {env: api.env()})
      expect(r.exitCode, args.join(' ')).toBe(2)
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
    }
    expect(api.requests()).toHaveLength(0)
  })

  it('launch returns the experiment and hands it to the renderer as an object', async () => {
    const r = await runCommand(Launch, ['exp_1', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual({id: 'exp_1', status: 'running'})
    expect(r.rendered).toEqual([{method: 'object', value: {id: 'exp_1', status: 'running'}}])
  })
})
