import {describe, expect, it} from 'vitest'
import {
  CONNECTIONS,
  EVAL_SETS,
  EXPERIMENTS,
  MCP_SERVERS,
  OPTIMIZATIONS,
  ORG_SETTINGS,
  ORGS,
  PERSONAS,
  REPOSITORIES,
  RUN_COUNTS,
  TAGS,
  VARIANTS,
  VISIBILITY_PROMPTS,
} from '../../src/devserver/seed.js'
import {SECRETS, expectError, useSeededServer} from './helpers.js'

const f = useSeededServer()

describe('connections', () => {
  it('lists identity and allowed hosts, never a secret', async () => {
    const answer = await f.server.api('GET', '/orgs/acme/connections', {token: f.ada})
    expect(answer.status).toBe(200)
    expect(answer.body.items.map((c: any) => c.id)).toEqual([CONNECTIONS.acmeGithub, CONNECTIONS.acmeStripe])
    expect(answer.body.items[0]).toMatchObject({name: 'GitHub (acme bot)', allowedHosts: ['api.github.com', 'github.com']})
    for (const secret of SECRETS) expect(answer.text).not.toContain(secret)
    expect(JSON.stringify(answer.body)).not.toMatch(/secret/i)
    expect((await f.server.api('GET', '/orgs/globex/connections', {token: f.grace})).body.items).toHaveLength(1)
  })
})

describe('organization summary and implementation doc', () => {
  it('summarizes identity, capabilities, credits and counts', async () => {
    const answer = await f.server.api('GET', `/orgs/${ORGS.globex.publicId}/summary`, {token: f.grace})
    expect(answer.body).toMatchObject({
      org: ORGS.globex,
      credits: ORG_SETTINGS.globex.credits,
      capabilities: {optimizations: false},
      providerKey: false,
      counts: {runs: RUN_COUNTS.globex, evalSets: 1, connections: 1, tags: 1},
    })
  })

  it('stores the implementation doc and answers it with updatedAt; the summary tells when', async () => {
    const doc = {title: 'How we use agents', sections: [{heading: 'Setup', body: 'npm i'}]}
    const answer = await f.server.api('PUT', '/orgs/acme/implementation-doc', {token: f.ada, body: doc})
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject(doc)
    expect(Date.parse(answer.body.updatedAt)).toBeGreaterThan(0)
    const summary = await f.server.api('GET', '/orgs/acme/summary', {token: f.ada})
    expect(summary.body.implementationDocUpdatedAt).toBe(answer.body.updatedAt)
    expectError(await f.server.api('PUT', '/orgs/acme/implementation-doc', {token: f.ada, raw: '["x"]'}), 400, 'invalid_request')
    expectError(await f.server.api('PUT', '/orgs/acme/implementation-doc', {token: f.grace, body: doc}), 403, 'forbidden')
  })
})

describe('scenarios under a preference prompt', () => {
  const path = `/orgs/acme/visibility-prompts/${VISIBILITY_PROMPTS.acmePreference}/scenarios`

  it('creates a scenario that inherits the prompt settings', async () => {
    const answer = await f.server.api('POST', path, {
      token: f.ada,
      body: {repository: REPOSITORIES.acme[0], persona: PERSONAS.acme[0].name},
    })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      visibilityPromptId: VISIBILITY_PROMPTS.acmePreference,
      repository: REPOSITORIES.acme[0],
      persona: PERSONAS.acme[0].name,
      personaId: PERSONAS.acme[0].id,
      agents: ['claude-code', 'codex'],
      connectionIds: [CONNECTIONS.acmeStripe],
      cadence: 'DAILY',
      samplesPerTarget: 4,
    })
    const byId = await f.server.api('POST', path, {token: f.ada, body: {repository: REPOSITORIES.acme[1], persona: PERSONAS.acme[1].id}})
    expect(byId.body.persona).toBe(PERSONAS.acme[1].name)
  })

  it('refuses a duplicate pair with 409', async () => {
    expectError(
      await f.server.api('POST', path, {token: f.ada, body: {repository: REPOSITORIES.acme[0], persona: PERSONAS.acme[0].id}}),
      409,
      'conflict',
    )
  })

  it.each([
    [{persona: 'new-developer'}, 'repository'],
    [{repository: 'acme/storefront'}, 'persona'],
    [{repository: 42, persona: 'new-developer'}, 'repository'],
    [{repository: REPOSITORIES.globex[0], persona: 'new-developer'}, 'not accessible'],
    [{repository: 'acme/storefront', persona: 'astronaut'}, 'persona "astronaut"'],
  ])('refuses %j with 400 (%s)', async (body, words) => {
    expect(expectError(await f.server.api('POST', path, {token: f.ada, body}), 400, 'invalid_request')).toContain(words)
  })

  it('refuses a prompt that is not a preference prompt (400), a missing one (404), a foreign one (403)', async () => {
    const body = {repository: 'acme/storefront', persona: 'new-developer'}
    const plain = `/orgs/acme/visibility-prompts/${VISIBILITY_PROMPTS.acmeVisibility}/scenarios`
    expect(expectError(await f.server.api('POST', plain, {token: f.ada, body}), 400, 'invalid_request')).toContain(
      'not a preference prompt',
    )
    expectError(await f.server.api('POST', '/orgs/acme/visibility-prompts/vp_nope/scenarios', {token: f.ada, body}), 404, 'not_found')
    expectError(
      await f.server.api('POST', `/orgs/acme/visibility-prompts/${VISIBILITY_PROMPTS.globexPreference}/scenarios`, {token: f.ada, body}),
      403,
      'forbidden',
    )
  })
})

describe('experiments', () => {
  it('launches once, storing the optional body; the second launch is a 409', async () => {
    const path = `/orgs/acme/experiments/${EXPERIMENTS.acmeOnboarding}/launch`
    const answer = await f.server.api('POST', path, {token: f.ada, body: {trafficSplit: 50}})
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({id: EXPERIMENTS.acmeOnboarding, status: 'launched', launchOptions: {trafficSplit: 50}})
    expectError(await f.server.api('POST', path, {token: f.ada}), 409, 'conflict')
    expectError(await f.server.api('POST', `/orgs/acme/experiments/${EXPERIMENTS.acmePricing}/launch`, {token: f.ada}), 409, 'conflict')
  })

  it('answers 402 at zero credits', async () => {
    await f.server.call('PATCH', '/_dev/orgs/globex', {body: {credits: 0}})
    try {
      expectError(
        await f.server.api('POST', `/orgs/globex/experiments/${EXPERIMENTS.globexDocs}/launch`, {token: f.grace}),
        402,
        'insufficient_credits',
      )
    } finally {
      await f.server.call('PATCH', '/_dev/orgs/globex', {body: {credits: ORG_SETTINGS.globex.credits}})
    }
    expect((await f.server.api('POST', `/orgs/globex/experiments/${EXPERIMENTS.globexDocs}/launch`, {token: f.grace})).status).toBe(200)
  })

  it('answers variant content, and 404 for a variant of another experiment', async () => {
    const base = `/orgs/acme/experiments/${EXPERIMENTS.acmeOnboarding}/variants`
    const answer = await f.server.api('GET', `${base}/${VARIANTS.acmeOnboardingConcise}/content`, {token: f.ada})
    expect(answer.body).toMatchObject({variantId: VARIANTS.acmeOnboardingConcise, format: 'markdown'})
    expectError(await f.server.api('GET', `${base}/${VARIANTS.acmePricingA}/content`, {token: f.ada}), 404, 'not_found')
    expectError(await f.server.api('GET', `${base}/var_nope/content`, {token: f.ada}), 404, 'not_found')
    expectError(await f.server.api('GET', `${base}/${VARIANTS.globexDocsControl}/content`, {token: f.ada}), 403, 'forbidden')
  })
})

describe('optimizations', () => {
  const acme = `/orgs/acme/optimizations/${OPTIMIZATIONS.acmeCheckout}`
  const globex = `/orgs/globex/optimizations/${OPTIMIZATIONS.globexDocs}`

  it('previews the current round; without a provider key the answer is 409 needs_provider_key', async () => {
    const answer = await f.server.api('POST', `${acme}/rounds/current/preview`, {token: f.ada})
    expect(answer.body).toMatchObject({optimizationId: OPTIMIZATIONS.acmeCheckout, round: {number: 2, status: 'open'}})
    expectError(await f.server.api('POST', `${globex}/rounds/current/preview`, {token: f.grace, body: {}}), 409, 'needs_provider_key')
  })

  it('proposes trials when the capability is on, 403 with the contract message when it is off', async () => {
    const answer = await f.server.api('POST', `${acme}/propose`, {token: f.ada, body: {}})
    expect(answer.body.trials).toHaveLength(2)
    expect(answer.body.round).toBe(2)
    const message = expectError(await f.server.api('POST', `${globex}/propose`, {token: f.grace, body: {}}), 403, 'forbidden')
    expect(message).toBe('Optimizations must be enabled for this organization to propose trials')

    await f.server.call('PATCH', '/_dev/orgs/globex', {body: {capabilities: {optimizations: true}}})
    try {
      expect((await f.server.api('POST', `${globex}/propose`, {token: f.grace, body: {}})).status).toBe(200)
    } finally {
      await f.server.call('PATCH', '/_dev/orgs/globex', {body: {capabilities: {optimizations: false}}})
    }
  })

  it('keeps and answers the chat history; the message must be a non-empty string', async () => {
    const first = await f.server.api('POST', `${acme}/chat`, {token: f.ada, body: {message: 'Try shorter prompts'}})
    expect(first.body.messages).toHaveLength(2)
    const second = await f.server.api('POST', `${acme}/chat`, {token: f.ada, body: {message: 'And pin the tools'}})
    expect(second.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(second.body.messages[2].content).toBe('And pin the tools')
    for (const body of [{}, {message: ''}, {message: 3}, {text: 'hi'}]) {
      expect(expectError(await f.server.api('POST', `${acme}/chat`, {token: f.ada, body}), 400, 'invalid_request')).toContain('message')
    }
  })

  it('answers 404/403 for missing/foreign optimizations', async () => {
    expectError(await f.server.api('POST', '/orgs/acme/optimizations/opt_nope/propose', {token: f.ada}), 404, 'not_found')
    expectError(
      await f.server.api('POST', `/orgs/acme/optimizations/${OPTIMIZATIONS.globexDocs}/chat`, {token: f.ada, body: {message: 'x'}}),
      403,
      'forbidden',
    )
  })
})

describe('deleting MCP servers and tags', () => {
  it('deletes an MCP server by ID and one by name, then answers 404', async () => {
    const byId = await f.server.api('DELETE', `/orgs/acme/mcp-servers/${MCP_SERVERS.acmeGithub.id}`, {token: f.ada})
    expect(byId.body).toEqual({deleted: true, ...MCP_SERVERS.acmeGithub})
    expectError(await f.server.api('DELETE', `/orgs/acme/mcp-servers/${MCP_SERVERS.acmeGithub.id}`, {token: f.ada}), 404, 'not_found')
    const byName = await f.server.api('DELETE', `/orgs/acme/mcp-servers/${MCP_SERVERS.acmeFilesystem.name}`, {token: f.ada})
    expect(byName.body.id).toBe(MCP_SERVERS.acmeFilesystem.id)
    expectError(await f.server.api('DELETE', `/orgs/acme/mcp-servers/${MCP_SERVERS.acmeFilesystem.name}`, {token: f.ada}), 404, 'not_found')
    expectError(await f.server.api('DELETE', `/orgs/acme/mcp-servers/${MCP_SERVERS.globexJira.id}`, {token: f.ada}), 403, 'forbidden')
    // the eval set that selected it no longer does: its selection can be sent back as it reads
    const checkout = await f.server.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}`, {token: f.ada, body: {}})
    expect(checkout.body.mcpServerIds).toEqual([])
    const again = {mcpServerIds: checkout.body.mcpServerIds, tagIds: checkout.body.tagIds}
    expect((await f.server.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}`, {token: f.ada, body: again})).status).toBe(200)
  })

  it('takes a deleted tag out of the eval sets that select it, and only that tag (before the next test deletes the other)', async () => {
    const checkout = `/orgs/acme/eval-sets/${EVAL_SETS.acmeCheckout}`
    await f.server.api('PATCH', checkout, {token: f.ada, body: {tagIds: [TAGS.acmeNightly, TAGS.acmeFlaky]}})
    await f.server.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}`, {token: f.ada, body: {tagIds: [TAGS.acmeNightly]}})
    await f.server.api('DELETE', `/orgs/acme/tags/${TAGS.acmeNightly}`, {token: f.ada})
    expect((await f.server.api('PATCH', checkout, {token: f.ada, body: {}})).body.tagIds).toEqual([TAGS.acmeFlaky])
    expect((await f.server.api('PATCH', `/orgs/acme/eval-sets/${EVAL_SETS.acmeSearch}`, {token: f.ada, body: {}})).body.tagIds).toEqual([])
    const globex = await f.server.api('PATCH', `/orgs/globex/eval-sets/${EVAL_SETS.globexOnboarding}`, {token: f.ada, body: {}})
    expect(globex.body.tagIds).toEqual([TAGS.globexBeta])
  })

  it('deletes a tag, then answers 404', async () => {
    expect((await f.server.api('DELETE', `/orgs/acme/tags/${TAGS.acmeFlaky}`, {token: f.ada})).body).toMatchObject({
      deleted: true,
      id: TAGS.acmeFlaky,
    })
    expectError(await f.server.api('DELETE', `/orgs/acme/tags/${TAGS.acmeFlaky}`, {token: f.ada}), 404, 'not_found')
    expectError(await f.server.api('DELETE', `/orgs/acme/tags/${TAGS.globexBeta}`, {token: f.ada}), 403, 'forbidden')
  })
})

describe('secrets', () => {
  it('never appear in any answer (every call of this suite is checked; here a sweep of the readable state)', async () => {
    const paths = [
      '/api/v1/me',
      '/api/v1/orgs/acme/connections',
      '/api/v1/orgs/globex/connections',
      '/api/v1/orgs/acme/summary',
      '/api/v1/orgs/globex/summary',
      '/api/v1/orgs/acme/runs?limit=200',
      '/api/v1/openapi.json',
      '/_dev/orgs/acme',
      '/_dev/orgs/globex',
      '/_dev/requests',
      '/_dev/faults',
    ]
    for (const path of paths) {
      const answer = await f.server.call('GET', path, {token: f.ada})
      expect(answer.status, path).toBe(200)
      for (const secret of SECRETS) expect(answer.text).not.toContain(secret)
    }
  })
})
