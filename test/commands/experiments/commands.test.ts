import {describe, expect, it} from 'vitest'
import Launch from '../../../src/commands/experiments/launch.js'
import VariantContent from '../../../src/commands/experiments/variant-content.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, json, useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi(
  {
    'POST /orgs/acme/experiments/exp_1/launch': {id: 'exp_1', status: 'running'},
    'GET /orgs/acme/experiments/exp_1/variants/var_b/content': {variantId: 'var_b', content: '# B\nline two'},
  },
  {me: false},
)

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
})

describe('experiments variant-content', () => {
  it('sends GET …/experiments/{id}/variants/{variantId}/content', async () => {
    const r = await runCommand(VariantContent, ['exp_1', 'var_b', '--org', 'acme', '--json'], {env: api.env()})
    expect(api.requests()[0]).toMatchObject({method: 'GET', path: '/api/v1/orgs/acme/experiments/exp_1/variants/var_b/content'})
    expect(JSON.parse(r.stdout)).toEqual({variantId: 'var_b', content: '# B\nline two'})
  })

  it('names the variant and experiment in a 404', async () => {
    api.stub('GET /orgs/acme/experiments/exp_1/variants/var_z/content', () => envelope(404, 'not_found', 'not found'))
    const r = await runCommand(VariantContent, ['exp_1', 'var_z', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toContain('variant "var_z" of experiment "exp_1" not found')
  })

  it('needs both IDs', async () => {
    const r = await runCommand(VariantContent, ['exp_1', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toBe('error: missing argument VARIANT_ID (invalid_request)\n')
    expect(api.requests()).toHaveLength(0)
  })
})

describe('experiments: typed results and renderer', () => {
  it('launch returns the experiment and hands it to the renderer as an object', async () => {
    const r = await runCommand(Launch, ['exp_1', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual({id: 'exp_1', status: 'running'})
    expect(r.rendered).toEqual([{method: 'object', value: {id: 'exp_1', status: 'running'}}])
  })

  it('variant-content returns the content and hands it to the renderer as an object', async () => {
    const content = {variantId: 'var_b', content: '# B\nline two'}
    const r = await runCommand(VariantContent, ['exp_1', 'var_b', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual(content)
    expect(r.rendered).toEqual([{method: 'object', value: content}])
  })
})
