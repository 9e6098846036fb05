import {describe, expect, it} from 'vitest'
import OrgsSummary from '../../../src/commands/orgs/summary.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, useFakeApi} from '../../helpers/fake-api.js'

const SUMMARY = {org: {slug: 'acme', publicId: 'org_1', name: 'Acme'}, runs: 260, capabilities: {optimizations: true}}
const api = useFakeApi({'GET /orgs/acme/summary': SUMMARY, 'GET /orgs/org_1/summary': SUMMARY}, {me: false})

describe('orgs summary', () => {
  it('sends GET /orgs/{org}/summary and renders key/value, key<TAB>value, or the object as-is', async () => {
    const tty = await runCommand(OrgsSummary, ['--org', 'acme'], {tty: true, env: api.env()})
    expect(tty.stdout).toMatch(/^org:\n {2}slug: {6}acme\n {2}publicId: {2}org_1\n {2}name: {6}Acme\n/m)
    expect(tty.stdout).toMatch(/^runs:\s+260$/m)
    const piped = await runCommand(OrgsSummary, ['--org', 'acme'], {env: api.env()})
    expect(piped.stdout).toBe('org\t{"slug":"acme","publicId":"org_1","name":"Acme"}\nruns\t260\ncapabilities\t{"optimizations":true}\n')
    const json = await runCommand(OrgsSummary, ['--org', 'acme', '--json'], {env: api.env()})
    expect(JSON.parse(json.stdout)).toEqual(SUMMARY)
    expect(api.requests().every((r) => r.method === 'GET' && r.path === '/api/v1/orgs/acme/summary')).toBe(true)
  })

  it('pretty-prints --json on a TTY', async () => {
    const r = await runCommand(OrgsSummary, ['--org', 'acme', '--json'], {tty: true, env: api.env()})
    expect(r.stdout).toBe(`${JSON.stringify(SUMMARY, null, 2)}\n`)
  })

  it('takes the org from AMCTL_ORG, and a flag beats it', async () => {
    await runCommand(OrgsSummary, [], {env: api.env({AMCTL_ORG: 'org_1'})})
    await runCommand(OrgsSummary, ['--org', 'acme'], {env: api.env({AMCTL_ORG: 'org_1'})})
    expect(api.requests().map((r) => r.path)).toEqual(['/api/v1/orgs/org_1/summary', '/api/v1/orgs/acme/summary'])
  })

  it('a 403 exits 4 with the server message', async () => {
    api.stub('GET /orgs/globex/summary', () => envelope(403, 'forbidden', 'you are not a member of globex'))
    const r = await runCommand(OrgsSummary, ['--org', 'globex', '--json'], {env: api.env()})
    expect(r.exitCode).toBe(4)
    expect(JSON.parse(r.stdout)).toEqual({error: {code: 'forbidden', message: 'you are not a member of globex', status: 403}})
    expect(r.stderr).toBe('')
  })
})

describe('orgs summary: typed result and renderer', () => {
  it('returns the summary and hands it to the renderer as one object, in every mode', async () => {
    for (const argv of [[], ['--json']]) {
      const r = await runCommand(OrgsSummary, ['--org', 'acme', ...argv], {env: api.env()})
      expect(r.result).toEqual(SUMMARY)
      expect(r.rendered).toEqual([{method: 'object', value: SUMMARY}])
    }
  })
})
