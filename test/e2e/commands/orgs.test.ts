import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {freshConfigDir} from '../../helpers/bin.js'
import {useE2E} from '../helpers.js'
import {API, expectError, expectJsonError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll, sorted} from './util.js'
import {seededRunCreatedAt} from '../../../src/devserver/seed.js'

// orgs summary, orgs implementation-doc set, and organization resolution (slug, public ID,
// the only org of the caller, membership checked on every request).

const e2e = useE2E()
const ACME_ID = 'org_01J9ACME0000000000000000'
const GLOBEX_ID = 'org_01J9GLOBEX00000000000000'

describe('amctl orgs summary', () => {
  it('piped: key<TAB>value lines, nested values as compact JSON; one GET', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['orgs', 'summary', '--org', 'acme']))
    expectOk(r)
    expect(reqs).toEqual([`GET ${API}/orgs/acme/summary`])
    expect(lines(r.stdout)).toEqual([
      `org\t{"slug":"acme","publicId":"${ACME_ID}","name":"Acme Corp"}`,
      'createdAt\t2025-01-01T00:00:00.000Z',
      'members\t1',
      'credits\t1000',
      'capabilities\t{"optimizations":true}',
      'providerKey\ttrue',
      'counts\t{"runs":260,"evalSets":2,"connections":2,"visibilityPrompts":2,"experiments":2,"optimizations":1,"mcpServers":2,"tags":2}',
      `latestRunAt\t${seededRunCreatedAt('acme', 260, e2e.current.server.seededAt ?? 0)}`,
      'implementationDocUpdatedAt\t',
    ])
  })

  it('--json: the API object, one document; slug and public ID give the same result, the path carries what was given', async () => {
    const [[bySlug, byId], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['orgs', 'summary', '--org', 'globex', '--json']),
      () => e2e.current.amctl(['orgs', 'summary', '--json'], {env: {AMCTL_ORG: GLOBEX_ID}}),
    ])
    expectOk(bySlug)
    expectOk(byId)
    expect(reqs).toEqual(sorted([`GET ${API}/orgs/globex/summary`, `GET ${API}/orgs/${GLOBEX_ID}/summary`]))
    expect(jsonDoc(byId)).toEqual(jsonDoc(bySlug))
    expect(jsonDoc(bySlug)).toMatchObject({
      org: {slug: 'globex', publicId: GLOBEX_ID, name: 'Globex Corporation'},
      credits: 25,
      capabilities: {optimizations: false},
      counts: {runs: 40},
      implementationDocUpdatedAt: null,
    })
  })

  it('ada (two orgs) without --org: exit 2 with the contract message, only GET /me sent', async () => {
    const [human, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['orgs', 'summary']))
    const message = expectError(human, 2, 'invalid_request')
    expect(message).toBe('you belong to 2 organizations (acme, globex): pass --org or run `amctl config set org <slug>`')
    expect(reqs).toEqual([`GET ${API}/me`])
  })

  it('grace (one org) without --org resolves globex through GET /me', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['orgs', 'summary', '--json'], {as: 'grace'}))
    expectOk(r)
    expect(reqs).toEqual([`GET ${API}/me`, `GET ${API}/orgs/globex/summary`])
    expect(jsonDoc(r).org.slug).toBe('globex')
  })

  it('not a member (exit 4), an unknown org (exit 5), a rejected AMCTL_TOKEN (exit 3 with the hint naming it)', async () => {
    const [[forbidden, missing, rejected]] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['orgs', 'summary', '--org', 'acme'], {as: 'grace'}),
      () => e2e.current.amctl(['orgs', 'summary', '--org', 'initech']),
      () => e2e.current.amctl(['orgs', 'summary', '--org', 'acme'], {env: {AMCTL_TOKEN: 'svc_thisTokenWasNeverIssued0000'}}),
    ])
    expect(expectError(forbidden, 4, 'forbidden', 403)).toBe('grace@example.com is not a member of organization acme')
    expect(expectError(missing, 5, 'not_found', 404)).toBe('organization "initech" not found')
    expect(expectError(rejected, 3, 'unauthorized', 401)).toBe('invalid or revoked token')
    expect(lines(rejected.stderr)[1]).toBe(
      'hint: the token in AMCTL_TOKEN was rejected, and it is used before any stored login: set AMCTL_TOKEN to a valid token, or unset it',
    )
  })

  it('removing a membership takes effect on the very next command; adding it back restores access', async () => {
    const ada = 'ada@example.com'
    try {
      await e2e.current.hook('DELETE', `/_dev/orgs/globex/members/${ada}`)
      const [denied, me] = await Promise.all([e2e.current.amctl(['orgs', 'summary', '--org', 'globex']), e2e.current.amctl(['api', '/me'])])
      expect(expectError(denied, 4, 'forbidden', 403)).toBe('ada@example.com is not a member of organization globex')
      // the same token still works, and /me no longer lists globex
      expectOk(me)
      expect(jsonDoc(me).orgs.map((o: {slug: string}) => o.slug)).toEqual(['acme'])
    } finally {
      await e2e.current.hook('POST', `/_dev/orgs/globex/members/${ada}`)
    }
    const after = await e2e.current.amctl(['orgs', 'summary', '--org', 'globex', '--json'])
    expectOk(after)
    expect(jsonDoc(after).org.slug).toBe('globex')
  })
})

describe('amctl orgs implementation-doc set', () => {
  it('PUTs the object from the file; the summary then shows when it was updated', async () => {
    const dir = freshConfigDir()
    const file = join(dir, 'impl.json')
    writeFileSync(file, JSON.stringify({language: 'typescript', sdk: {name: '@acme/sdk', version: '2.1.0'}}, null, 2))
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['orgs', 'implementation-doc', 'set', '--input', file, '--org', 'acme']),
    )
    expectOk(r)
    expect(reqs).toEqual([`PUT ${API}/orgs/acme/implementation-doc`])
    const out = lines(r.stdout)
    expect(out.slice(0, 2)).toEqual(['language\ttypescript', 'sdk\t{"name":"@acme/sdk","version":"2.1.0"}'])
    expect(out[2]).toMatch(/^updatedAt\t\d{4}-\d\d-\d\dT/)
    expect(out).toHaveLength(3)

    const summary = jsonDoc(await e2e.current.amctl(['orgs', 'summary', '--org', 'acme', '--json']))
    expect(summary.implementationDocUpdatedAt).toBe(out[2].split('\t')[1])
  })

  it('--input - reads stdin (--json prints the stored doc); invalid JSON (line and column) or a non-object: exit 2, nothing sent', async () => {
    const [[ok, bad, arr], reqs] = await requestsOfAll(e2e.current, [
      () =>
        e2e.current.amctl(['orgs', 'implementation-doc', 'set', '--input', '-', '--org', ACME_ID, '--json'], {
          input: '{"framework":"next"}\n',
        }),
      () =>
        e2e.current.amctl(['orgs', 'implementation-doc', 'set', '--input', '-', '--org', 'acme'], {input: '{\n  "a": 1,\n  "b": tru\n}\n'}),
      () => e2e.current.amctl(['orgs', 'implementation-doc', 'set', '--input', '-', '--org', 'acme', '--json'], {input: '[1,2]'}),
    ])
    expectOk(ok)
    const doc = jsonDoc(ok)
    expect(Object.keys(doc)).toEqual(['framework', 'updatedAt'])
    expect(doc.framework).toBe('next')
    expect(expectError(bad, 2, 'invalid_request')).toMatch(/^--input \(stdin\) is not valid JSON: .* at line 3, column 8$/)
    expect(expectJsonError(arr, 2, 'invalid_request').message).toBe('--input (stdin) must be a JSON object, got an array')
    expect(reqs).toEqual([`PUT ${API}/orgs/${ACME_ID}/implementation-doc`]) // the valid one only
  })
})
