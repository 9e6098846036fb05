import {describe, expect, it} from 'vitest'
import VariantContent from '../../../src/commands/experiments/variant-content.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi(
  {'GET /orgs/acme/experiments/exp_1/variants/var_b/content': {variantId: 'var_b', content: '# B\nline two'}},
  {me: false},
)

describe('experiments variant-content', () => {
  it('sends GET …/experiments/{id}/variants/{variantId}/content', async () => {
    const r = await runCommand(VariantContent, ['exp_1', 'var_b', '--org', 'acme', '--json'], {env: api.env()})
    expect(api.requests()[0]).toMatchObject({method: 'GET', path: '/api/v1/orgs/acme/experiments/exp_1/variants/var_b/content'})
    expect(JSON.parse(r.stdout)).toEqual({variantId: 'var_b', content: '# B\nline two'})
  })

  it('an answer of {}: a line saying so on a terminal (was nothing at all), nothing piped, {} with --json (issue 32 item 20)', async () => {
    api.stub('GET /orgs/acme/experiments/exp_1/variants/var_e/content', {})
    const tty = await runCommand(VariantContent, ['exp_1', 'var_e', '--org', 'acme'], {env: api.env(), tty: true})
    expect([tty.exitCode, tty.stdout, tty.stderr]).toEqual([0, '', '(an empty answer: no members)\n'])
    const piped = await runCommand(VariantContent, ['exp_1', 'var_e', '--org', 'acme'], {env: api.env()})
    expect([piped.exitCode, piped.stdout, piped.stderr]).toEqual([0, '', ''])
    const json = await runCommand(VariantContent, ['exp_1', 'var_e', '--org', 'acme', '--json'], {env: api.env()})
    expect(JSON.parse(json.stdout)).toEqual({})
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

  it('variant-content returns the content and hands it to the renderer as an object', async () => {
    const content = {variantId: 'var_b', content: '# B\nline two'}
    const r = await runCommand(VariantContent, ['exp_1', 'var_b', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual(content)
    expect(r.rendered).toEqual([{method: 'object', value: content}])
  })
})
