import {describe, expect, it} from 'vitest'
import {useE2E} from '../helpers.js'
import {API, expectError, expectJsonError, expectOk, jsonDoc, lines, requestsOf, requestsOfAll} from './util.js'

// scenarios create: a repository/persona scenario under a preference prompt, inheriting its settings.

const e2e = useE2E()
const PROMPT = 'vp_acme_payments_pref'

describe('amctl scenarios create', () => {
  it('POST under the prompt; piped key<TAB>value with what it inherits; a duplicate is a conflict (exit 6)', async () => {
    const argv = [
      'scenarios',
      'create',
      '--org',
      'acme',
      '--prompt',
      PROMPT,
      '--repository',
      'acme/storefront',
      '--persona',
      'new-developer',
    ]
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(argv))
    expectOk(r)
    expect(reqs).toEqual([`POST ${API}/orgs/acme/visibility-prompts/${PROMPT}/scenarios`])
    const out = lines(r.stdout)
    expect(out[0]).toMatch(/^id\tscn_\w+$/)
    expect(out.slice(1, 12)).toEqual([
      `visibilityPromptId\t${PROMPT}`,
      'repository\tacme/storefront',
      'persona\tnew-developer',
      'personaId\tper_acme_new_developer',
      'agents\t["claude-code","codex"]',
      'models\t["claude-sonnet-4-5","gpt-5"]',
      'skillIds\t["sk_acme_checkout_flow"]',
      'mcpServerIds\t["mcp_acme_github"]',
      'connectionIds\t["conn_acme_stripe"]',
      'cadence\tDAILY',
      'samplesPerTarget\t4',
    ])

    const again = await e2e.current.amctl([...argv, '--json'])
    expect(expectJsonError(again, 6, 'conflict', 409).message).toBe(
      `scenario "${out[0].split('\t')[1]}" already pairs acme/storefront with new-developer`,
    )
  })

  it('--json: the scenario as the API returned it (persona by ID accepted)', async () => {
    const r = await e2e.current.amctl([
      'scenarios',
      'create',
      '--org',
      'acme',
      '--prompt',
      PROMPT,
      '--repository',
      'acme/payments-api',
      '--persona',
      'per_acme_security_reviewer',
      '--json',
    ])
    expectOk(r)
    expect(jsonDoc(r)).toMatchObject({
      repository: 'acme/payments-api',
      persona: 'security-reviewer',
      visibilityPromptId: PROMPT,
      cadence: 'DAILY',
      samplesPerTarget: 4,
    })
  })

  it("the server's refusals: a repository the org cannot reach, a non-preference prompt (exit 2); an unknown prompt (exit 5)", async () => {
    const [[repo, kind, missing]] = await requestsOfAll(e2e.current, [
      () =>
        e2e.current.amctl([
          'scenarios',
          'create',
          '--org',
          'acme',
          '--prompt',
          PROMPT,
          '--repository',
          'globex/hammock-service',
          '--persona',
          'new-developer',
        ]),
      () =>
        e2e.current.amctl([
          'scenarios',
          'create',
          '--org',
          'acme',
          '--prompt',
          'vp_acme_brand_visibility',
          '--repository',
          'acme/storefront',
          '--persona',
          'new-developer',
        ]),
      () =>
        e2e.current.amctl([
          'scenarios',
          'create',
          '--org',
          'acme',
          '--prompt',
          'vp_nope',
          '--repository',
          'acme/storefront',
          '--persona',
          'new-developer',
        ]),
    ])
    expect(expectError(repo, 2, 'invalid_request', 400)).toBe('repository "globex/hammock-service" is not accessible to organization acme')
    expect(expectError(kind, 2, 'invalid_request', 400)).toContain('is not a preference prompt')
    expect(expectError(missing, 5, 'not_found', 404)).toContain('"vp_nope" not found')
  })

  it('a missing required flag or an empty persona: exit 2, nothing sent', async () => {
    const [[r, empty], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['scenarios', 'create', '--org', 'acme', '--prompt', PROMPT, '--repository', 'acme/storefront']),
      () =>
        e2e.current.amctl([
          'scenarios',
          'create',
          '--org',
          'acme',
          '--prompt',
          PROMPT,
          '--repository',
          'acme/storefront',
          '--persona',
          ' ',
        ]),
    ])
    expect(expectError(r, 2, 'invalid_request')).toBe('missing required flag --persona')
    expect(expectError(empty, 2, 'invalid_request')).toBe('--persona must not be empty')
    expect(reqs).toEqual([])
  })
})
