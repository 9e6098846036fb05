import {describe, expect, it} from 'vitest'
import ScenariosCreate from '../../../src/commands/scenarios/create.js'
import {runCommand} from '../../helpers/cli.js'
import {json, useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi(
  {'POST /orgs/acme/visibility-prompts/vp_1/scenarios': {id: 'sc_1', repository: 'acme/web', persona: 'buyer'}},
  {me: false},
)

describe('scenarios create', () => {
  it('sends POST …/visibility-prompts/{id}/scenarios with {repository, persona}', async () => {
    const r = await runCommand(
      ScenariosCreate,
      ['--prompt', 'vp_1', '--repository', 'acme/web', '--persona', 'buyer', '--org', 'acme', '--json'],
      {env: api.env()},
    )
    expect(r.exitCode).toBe(0)
    expect(api.requests()[0]).toMatchObject({method: 'POST', path: '/api/v1/orgs/acme/visibility-prompts/vp_1/scenarios'})
    expect(json(api.requests()[0])).toEqual({repository: 'acme/web', persona: 'buyer'})
    expect(JSON.parse(r.stdout)).toMatchObject({id: 'sc_1'})
  })

  it.each([
    [['--repository', 'acme/web', '--persona', 'p'], 'missing required flag --prompt'],
    [['--prompt', 'vp_1', '--repository', ' ', '--persona', 'p'], '--repository must not be empty'],
    [['--prompt', '..', '--repository', 'r', '--persona', 'p'], '--prompt cannot be ".."'],
  ])('%j exits 2 with no request', async (args, message) => {
    const r = await runCommand(ScenariosCreate, [...args, '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(message)
    expect(api.requests()).toHaveLength(0)
  })
})

describe('scenarios create: typed result and renderer', () => {
  it('returns the scenario and hands it to the renderer as an object', async () => {
    const r = await runCommand(ScenariosCreate, ['--prompt', 'vp_1', '--repository', 'acme/web', '--persona', 'buyer', '--org', 'acme'], {
      env: api.env(),
    })
    const scenario = {id: 'sc_1', repository: 'acme/web', persona: 'buyer'}
    expect(r.result).toEqual(scenario)
    expect(r.rendered).toEqual([{method: 'object', value: scenario}])
    expect(r.stdout).toBe('id\tsc_1\nrepository\tacme/web\npersona\tbuyer\n')
  })
})
