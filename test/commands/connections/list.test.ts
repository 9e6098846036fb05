import {describe, expect, it} from 'vitest'
import ConnectionsList from '../../../src/commands/connections/list.js'
import {runCommand} from '../../helpers/cli.js'
import {useFakeApi} from '../../helpers/fake-api.js'

const items = [
  {id: 'conn_gh', name: 'GitHub', allowedHosts: ['api.github.com', 'github.com']},
  {id: 'conn_st', name: 'Stripe\tlive', allowedHosts: ['api.stripe.com']},
]
const api = useFakeApi({'GET /orgs/acme/connections': {items}}, {me: false})

describe('connections list', () => {
  it('sends GET /orgs/{org}/connections; table with id, name, allowed hosts', async () => {
    const tty = await runCommand(ConnectionsList, ['--org', 'acme'], {tty: true, env: api.env()})
    expect(tty.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+ALLOWED HOSTS$/)
    expect(tty.stdout).toMatch(/conn_gh\s+GitHub\s+api\.github\.com, github\.com/)
    expect(api.requests()[0]).toMatchObject({method: 'GET', path: '/api/v1/orgs/acme/connections'})
  })

  it('piped: TSV without header, id first, a tab inside a value escaped as \\t', async () => {
    const r = await runCommand(ConnectionsList, ['--org', 'acme'], {env: api.env()})
    expect(r.stdout).toBe('conn_gh\tGitHub\tapi.github.com,github.com\nconn_st\tStripe\\tlive\tapi.stripe.com\n')
  })

  it('--json: the API shape', async () => {
    const r = await runCommand(ConnectionsList, ['--org', 'acme', '--json'], {env: api.env()})
    expect(JSON.parse(r.stdout)).toEqual({items})
  })
})

describe('connections list: typed result and renderer', () => {
  it('returns the page and hands its items to the renderer as a list', async () => {
    const r = await runCommand(ConnectionsList, ['--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual({items})
    expect(r.rendered).toEqual([{method: 'list', rows: items, columns: ['ID', 'NAME', 'ALLOWED HOSTS']}])
  })
})
