import {describe, expect, it} from 'vitest'
import {useE2E} from '../helpers.js'
import {API, expectError, expectJsonError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll, sorted} from './util.js'

// experiments launch (once; a second launch is a conflict) and experiments variant-content.

const e2e = useE2E()

describe('amctl experiments launch', () => {
  it('launches with the -F/-f body; launching again exits 6 (conflict)', async () => {
    const argv = ['experiments', 'launch', 'exp_acme_onboarding', '--org', 'acme']
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl([...argv, '-F', 'trafficPercent=25', '-f', 'note=first wave']))
    expectOk(r)
    expect(reqs).toEqual([`POST ${API}/orgs/acme/experiments/exp_acme_onboarding/launch`])
    const out = lines(r.stdout)
    expect(out.slice(0, 4)).toEqual([
      'id\texp_acme_onboarding',
      'name\tOnboarding guide wording',
      'status\tlaunched',
      'variantIds\t["var_acme_onboarding_control","var_acme_onboarding_concise"]',
    ])
    expect(out[4]).toMatch(/^launchedAt\t\d{4}-/)
    expect(out[5]).toBe('launchOptions\t{"trafficPercent":25,"note":"first wave"}')

    const [again, againReqs] = await requestsOf(e2e.current, () => e2e.current.amctl(argv))
    expect(expectError(again, 6, 'conflict', 409)).toBe(`experiment "exp_acme_onboarding" was already launched at ${out[4].split('\t')[1]}`)
    expect(againReqs).toEqual([`POST ${API}/orgs/acme/experiments/exp_acme_onboarding/launch`]) // a 409 is not retried
  })

  it('--json, with no body flags ({} is sent): the launched experiment; an unknown one: exit 5 naming it', async () => {
    const [[r, missing], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['experiments', 'launch', 'exp_globex_docs', '--json'], {as: 'grace'}),
      () => e2e.current.amctl(['experiments', 'launch', 'exp_nope', '--org', 'acme']),
    ])
    expectOk(r)
    expect(jsonDoc(r)).toMatchObject({id: 'exp_globex_docs', status: 'launched', launchOptions: {}})
    expect(expectError(missing, 5, 'not_found', 404)).toBe('experiment "exp_nope" not found')
    expect(reqs).toEqual(
      sorted([
        `GET ${API}/me`,
        `POST ${API}/orgs/globex/experiments/exp_globex_docs/launch`,
        `POST ${API}/orgs/acme/experiments/exp_nope/launch`,
      ]),
    )
  })
})

describe('amctl experiments variant-content', () => {
  it('GETs the content; piped key<TAB>value with newlines escaped as \\n; --json keeps them', async () => {
    const argv = ['experiments', 'variant-content', 'exp_acme_onboarding', 'var_acme_onboarding_concise', '--org', 'acme']
    const [[r, json], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(argv),
      () => e2e.current.amctl([...argv, '--json']),
    ])
    const path = `GET ${API}/orgs/acme/experiments/exp_acme_onboarding/variants/var_acme_onboarding_concise/content`
    expect(reqs).toEqual([path, path])
    expectOk(r)
    expect(lines(r.stdout)).toEqual([
      'variantId\tvar_acme_onboarding_concise',
      'experimentId\texp_acme_onboarding',
      'format\tmarkdown',
      'body\t# Start\\n\\n`npm i @acme/sdk && acme init`',
    ])
    expectOk(json)
    expect(jsonDoc(json)).toEqual({
      variantId: 'var_acme_onboarding_concise',
      experimentId: 'exp_acme_onboarding',
      format: 'markdown',
      body: '# Start\n\n`npm i @acme/sdk && acme init`',
    })
  })

  it('a variant of another experiment or an unknown experiment: exit 5 naming what is missing', async () => {
    const [[r, json]] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['experiments', 'variant-content', 'exp_acme_onboarding', 'var_acme_pricing_a', '--org', 'acme']),
      () => e2e.current.amctl(['experiments', 'variant-content', 'exp_nope', 'var_x', '--org', 'acme', '--json']),
    ])
    expect(expectError(r, 5, 'not_found', 404)).toBe('variant "var_acme_pricing_a" not found in experiment "exp_acme_onboarding"')
    const error = expectJsonError(json, 5, 'not_found', 404)
    // the experiment itself is missing: the server says so, and that is what is shown
    expect(error.message).toBe('experiment "exp_nope" not found')
  })

  it('an ID holding / ? # % cannot change the route: it is one encoded segment, and the server says it does not exist', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['experiments', 'variant-content', 'exp_acme_onboarding', '../../tags/tag_acme_flaky?x=1#y', '--org', 'acme']),
    )
    expect(expectError(r, 5, 'not_found', 404)).toContain('../../tags/tag_acme_flaky?x=1#y')
    expect(reqs).toEqual([
      `GET ${API}/orgs/acme/experiments/exp_acme_onboarding/variants/..%2F..%2Ftags%2Ftag_acme_flaky%3Fx%3D1%23y/content`,
    ])
  })

  it('"." and ".." are refused before any request (URL parsers fold them even encoded)', async () => {
    const [[dot, dots], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['experiments', 'variant-content', 'exp_acme_onboarding', '.', '--org', 'acme']),
      () => e2e.current.amctl(['experiments', 'variant-content', '..', 'var_acme_onboarding_concise', '--org', 'acme']),
    ])
    expect(expectError(dot, 2, 'invalid_request')).toBe('VARIANT_ID cannot be ".", got "."')
    expect(expectError(dots, 2, 'invalid_request')).toBe('EXPERIMENT_ID cannot be "..", got ".."')
    expect(reqs).toEqual([])
  })
})
