import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {freshConfigDir} from '../../helpers/bin.js'
import {useE2E} from '../helpers.js'
import {API, expectError, expectJsonError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll, sorted} from './util.js'

// config set/get/unset/list, profiles, and how the stored values steer the API commands
// (precedence: flag > environment > profile > default).

const e2e = useE2E()

describe('amctl config set / get / list / unset', () => {
  it('set, get, list, unset: values per profile; no request; 0700 dir and 0600 file', async () => {
    const configDir = freshConfigDir()
    const run = (argv: string[]) => e2e.current.amctl(['config', ...argv], {configDir, as: null})
    const [results, reqs] = await requestsOf(e2e.current, async () => {
      // writes one after the other; reads at once
      const set = await run(['set', 'org', 'acme'])
      const setUrl = await run(['set', 'base-url', 'https://api.example.com/prefix/'])
      const setOther = await run(['set', 'org', 'globex', '--profile', 'staging'])
      const [get, getJson, list, listJson] = await Promise.all([
        run(['get', 'org']),
        run(['get', 'base-url', '--json']),
        run(['list']),
        run(['list', '--profile', 'staging', '--json']),
      ])
      return {set, setUrl, setOther, get, getJson, list, listJson}
    })
    expect(reqs).toEqual([])
    for (const r of [results.set, results.setUrl, results.setOther]) {
      expectOk(r)
      expect(r.stdout).toBe('')
    }
    expectOk(results.get)
    expect(results.get.stdout).toBe('acme\n')
    // the values in effect: AMCTL_BASE_URL (the test server's) wins over the profile's base-url
    expect(jsonDoc(results.getJson)).toEqual({profile: 'default', key: 'base-url', value: e2e.current.url, source: 'environment'})
    expect(lines(results.list.stdout)).toEqual([`base-url\t${e2e.current.url}`, 'org\tacme'])
    expect(jsonDoc(results.listJson)).toEqual({
      profile: 'staging',
      'base-url': e2e.current.url,
      org: 'globex',
      sources: {profile: 'flag', 'base-url': 'environment', org: 'profile'},
    })
    const [stored, storedJson] = await Promise.all([
      e2e.current.amctl(['config', 'get', 'base-url'], {configDir, as: null, env: {AMCTL_BASE_URL: undefined}}),
      e2e.current.amctl(['config', 'list', '--json'], {configDir, as: null, env: {AMCTL_BASE_URL: undefined}}),
    ])
    expect(stored.stdout).toBe('https://api.example.com/prefix\n')
    expect(jsonDoc(storedJson)).toMatchObject({'base-url': 'https://api.example.com/prefix', sources: {'base-url': 'profile'}})

    expect(statSync(configDir).mode & 0o777).toBe(0o700)
    const file = join(configDir, 'config.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles).toEqual({
      default: {org: 'acme', 'base-url': 'https://api.example.com/prefix'},
      staging: {org: 'globex'},
    })

    const unset = await run(['unset', 'org'])
    expectOk(unset)
    const unsetAgain = await run(['unset', 'org', '--json'])
    expectOk(unsetAgain, 'org was not set in profile "default"\n')
    expect(jsonDoc(unsetAgain)).toEqual({profile: 'default', key: 'org', removed: false})
    const emptyJson = await run(['get', 'org', '--json'])
    expectOk(emptyJson)
    expect(jsonDoc(emptyJson)).toEqual({profile: 'default', key: 'org', value: null, source: null})
  })

  it('unknown keys and clear-text non-loopback URLs: exit 2 naming what is valid', async () => {
    const configDir = freshConfigDir()
    const [unknown, unknownJson, http] = await Promise.all([
      e2e.current.amctl(['config', 'set', 'colour', 'red'], {configDir}),
      e2e.current.amctl(['config', 'get', 'token', '--json'], {configDir}),
      e2e.current.amctl(['config', 'set', 'base-url', 'http://api.example.com'], {configDir}),
    ])
    expect(expectError(unknown, 2, 'invalid_request')).toBe('unknown config key "colour"; valid keys: base-url, org')
    expect(expectJsonError(unknownJson, 2, 'invalid_request').message).toBe('unknown config key "token"; valid keys: base-url, org')
    expect(expectError(http, 2, 'invalid_request')).toContain('must use https')
    // nothing stored: the default server is shown, never hidden
    const list = await e2e.current.amctl(['config', 'list', '--json'], {configDir, env: {AMCTL_BASE_URL: undefined}})
    expect(jsonDoc(list)).toEqual({
      profile: 'default',
      'base-url': 'http://127.0.0.1:4010',
      org: null,
      sources: {profile: 'default', 'base-url': 'default', org: null},
    })
  })

  it("the profile's org is used; AMCTL_ORG beats it; --org beats both", async () => {
    const configDir = freshConfigDir()
    expectOk(await e2e.current.amctl(['config', 'set', 'org', 'globex'], {configDir}))
    const [[fromProfile, fromEnv, fromFlag, other], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['orgs', 'summary', '--json'], {configDir}),
      () => e2e.current.amctl(['orgs', 'summary', '--json'], {configDir, env: {AMCTL_ORG: 'acme'}}),
      () =>
        e2e.current.amctl(['orgs', 'summary', '--org', 'org_01J9GLOBEX00000000000000', '--json'], {configDir, env: {AMCTL_ORG: 'acme'}}),
      // another profile (AMCTL_PROFILE) has no org → GET /me, exit 2 for ada
      () => e2e.current.amctl(['orgs', 'summary'], {configDir, env: {AMCTL_PROFILE: 'empty'}}),
    ])
    expectOk(fromProfile)
    expectOk(fromEnv)
    expectOk(fromFlag)
    expect(jsonDoc(fromProfile).org.slug).toBe('globex')
    expect(jsonDoc(fromEnv).org.slug).toBe('acme')
    expect(jsonDoc(fromFlag)).toEqual(jsonDoc(fromProfile))
    expect(expectError(other, 2, 'invalid_request')).toContain('pass --org')
    // no GET /me but the one of the org-less profile: the org was known to the others
    expect(reqs).toEqual(
      sorted([
        `GET ${API}/orgs/globex/summary`,
        `GET ${API}/orgs/acme/summary`,
        `GET ${API}/orgs/org_01J9GLOBEX00000000000000/summary`,
        `GET ${API}/me`,
      ]),
    )
  })

  it("the profile's base-url is used when no flag or env gives one, with its path prefix kept", async () => {
    const configDir = freshConfigDir()
    expectOk(await e2e.current.amctl(['config', 'set', 'base-url', `${e2e.current.url}/`], {configDir}))
    const [ok, r1] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['orgs', 'summary', '--org', 'acme', '--json'], {configDir, env: {AMCTL_BASE_URL: undefined}}),
    )
    expectOk(ok)
    expect(r1).toEqual([`GET ${API}/orgs/acme/summary`])

    expectOk(await e2e.current.amctl(['config', 'set', 'base-url', `${e2e.current.url}/gateway`], {configDir}))
    const [prefixed, r2] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['orgs', 'summary', '--org', 'acme'], {configDir, env: {AMCTL_BASE_URL: undefined}}),
    )
    expectError(prefixed, 5, 'not_found', 404) // the dev server has no /gateway prefix
    expect(r2).toEqual([`GET /gateway${API}/orgs/acme/summary`])

    // AMCTL_BASE_URL beats the profile, --base-url beats both
    const [[env, flag], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['orgs', 'summary', '--org', 'acme', '--json'], {configDir}),
      () => e2e.current.amctl(['orgs', 'summary', '--org', 'acme', '--json', '--base-url', `${e2e.current.url}/x`], {configDir}),
    ])
    expectOk(env)
    expect(flag.exitCode).toBe(5)
    expect(reqs).toEqual(sorted([`GET ${API}/orgs/acme/summary`, `GET /x${API}/orgs/acme/summary`]))
  })
})
