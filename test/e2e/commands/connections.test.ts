import {describe, expect, it} from 'vitest'
import {CONNECTION_SECRETS} from '../../../src/devserver/seed.js'
import {useE2E} from '../helpers.js'
import {API, expectJsonError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll, sorted} from './util.js'

const e2e = useE2E()
const GLOBEX_ID = 'org_01J9GLOBEX00000000000000'

function expectNoSecret(text: string): void {
  for (const secret of Object.values(CONNECTION_SECRETS)) expect(text).not.toContain(secret)
  expect(text).not.toMatch(/secret/i)
}

describe('amctl connections list', () => {
  it('piped: id, name, allowed hosts as TSV rows without a header; never a secret', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['connections', 'list', '--org', 'acme']))
    expectOk(r)
    expect(reqs).toEqual([`GET ${API}/orgs/acme/connections`])
    expect(lines(r.stdout)).toEqual([
      'conn_acme_github\tGitHub (acme bot)\tapi.github.com,github.com',
      'conn_acme_stripe\tStripe test mode\tapi.stripe.com',
    ])
    expectNoSecret(r.stdout + r.stderr)
  })

  it('--json: the API shape {"items":[…]}; by public ID, same as by slug', async () => {
    const [[r, bySlug], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['connections', 'list', '--org', GLOBEX_ID, '--json']),
      () => e2e.current.amctl(['connections', 'list', '--json'], {as: 'grace'}),
    ])
    expectOk(r)
    expect(reqs).toEqual(sorted([`GET ${API}/orgs/${GLOBEX_ID}/connections`, `GET ${API}/me`, `GET ${API}/orgs/globex/connections`]))
    const doc = jsonDoc(r)
    expect(doc).toEqual({
      items: [{id: 'conn_globex_slack', name: 'Slack workspace', allowedHosts: ['slack.com'], createdAt: '2025-01-01T00:00:00.000Z'}],
    })
    expectNoSecret(r.stdout)
    expect(jsonDoc(bySlug)).toEqual(doc)
  })

  it('another organization: exit 4; in --json mode the error document only', async () => {
    const r = await e2e.current.amctl(['connections', 'list', '--org', 'acme', '--json'], {as: 'grace'})
    expect(expectJsonError(r, 4, 'forbidden', 403).message).toBe('grace@example.com is not a member of organization acme')
  })
})
