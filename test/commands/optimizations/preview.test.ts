import {describe, expect, it} from 'vitest'
import Preview from '../../../src/commands/optimizations/preview.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, json, useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi({'POST /orgs/acme/optimizations/cl_1/rounds/current/preview': {optimizationId: 'cl_1'}}, {me: false})

describe('optimizations preview', () => {
  it('sends POST …/optimizations/{id}/rounds/current/preview with {}', async () => {
    await runCommand(Preview, ['cl_1', '--org', 'acme'], {env: api.env()})
    expect(api.requests().map((r) => [r.method, r.path, json(r)])).toEqual([
      ['POST', '/api/v1/orgs/acme/optimizations/cl_1/rounds/current/preview', {}],
    ])
  })

  it('the argument is the optimization ID, named as users know it (the API calls it climbId)', async () => {
    const missing = await runCommand(Preview, ['--org', 'acme'], {env: api.env()})
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toMatch(/missing argument OPTIMIZATION_ID\b/)
    const control = await runCommand(Preview, ['cl\u0007', '--org', 'acme'], {env: api.env()})
    expect(control.stderr).toMatch(/^error: OPTIMIZATION_ID must not contain control characters/)
    expect(Preview.args).toHaveProperty('optimization_id')
    expect(api.requests()).toHaveLength(0)
  })

  it('returns the round; piped, the renderer gets it as one object', async () => {
    const r = await runCommand(Preview, ['cl_1', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual({optimizationId: 'cl_1'})
    expect(r.rendered).toEqual([{method: 'object', value: {optimizationId: 'cl_1'}}])
    expect(r.stdout).toBe('optimizationId\tcl_1\n')
  })

  it('a retired route answer (403) shows the upgrade message verbatim', async () => {
    api.stub(
      'POST /orgs/acme/optimizations/cl_1/rounds/current/preview',
      envelope(403, 'forbidden', 'Cycles were retired in API 0.14; use optimizations rounds'),
    )
    const r = await runCommand(Preview, ['cl_1', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toBe('error: Cycles were retired in API 0.14; use optimizations rounds (forbidden, HTTP 403)\n')
  })
})
