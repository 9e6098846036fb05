import type {Connection, EvalSet, Run} from '../contract/types.js'
import {
  STATE_FORMAT,
  STATE_VERSION,
  type Experiment,
  type McpServer,
  type Optimization,
  type OrgRecord,
  type Owned,
  type State,
  type Tag,
  type UserRecord,
  type Variant,
  type VisibilityPrompt,
} from './state.js'

/**
 * The seeded world. Every ID is fixed, and so is every timestamp but the runs': tests and docs
 * can name them. The seeded runs are the recent history of the organizations, ten minutes apart,
 * the newest ten minutes before the state was seeded (`seededRunCreatedAt`): a launch compares
 * with them (`--baseline previous` looks 30 days back), as it would in a real organization. They
 * are launches of the eval sets, in turn, one run per target; each eval set × agent × model has
 * its own true mean, noise and failure share (TRIPLE_PROFILES), which its runs are drawn from.
 * Seed `default` fills both organizations; seed `empty` has the users and organizations only.
 */

import type {SeedKind} from './options.js'
import {derivedProfile, drawOutcome, type Outcome, type Triple, type TripleProfile, tripleKey} from './history.js'

export {SEED_KINDS, type SeedKind} from './options.js'

/** Seeded timestamps count from here (all but the runs'). */
export const SEED_EPOCH = '2025-01-01T00:00:00.000Z'

/** Minutes between two seeded runs of an organization; globex's runs sit 5 minutes after acme's. */
const RUN_SPACING_MINUTES = 10
const RUN_OFFSET_MINUTES = {acme: 0, globex: 5} as const

export const ORGS = {
  /** has the Optimizations capability, credits and a provider key */
  acme: {slug: 'acme', publicId: 'org_01J9ACME0000000000000000', name: 'Acme Corp'},
  /** no Optimizations capability, no provider key */
  globex: {slug: 'globex', publicId: 'org_01J9GLOBEX00000000000000', name: 'Globex Corporation'},
} as const

export const USERS = {
  /** member of acme and globex (must pass --org); the user `--approve auto` logs in */
  ada: {id: 'usr_ada', email: 'ada@example.com', name: 'Ada Lovelace'},
  /** member of globex only */
  grace: {id: 'usr_grace', email: 'grace@example.com', name: 'Grace Hopper'},
} as const

export const ORG_SETTINGS = {
  acme: {optimizations: true, credits: 1000, providerKey: true},
  globex: {optimizations: false, credits: 25, providerKey: false},
} as const

export const RUN_COUNTS = {acme: 260, globex: 40} as const

export const EVAL_SETS = {
  acmeCheckout: 'es_acme_checkout',
  acmeSearch: 'es_acme_search',
  globexOnboarding: 'es_globex_onboarding',
} as const

export const SKILLS = {
  acmeCheckout: 'sk_acme_checkout_flow',
  acmeRefunds: 'sk_acme_refunds',
  globexOnboarding: 'sk_globex_onboarding',
} as const

export const CONNECTIONS = {
  acmeGithub: 'conn_acme_github',
  acmeStripe: 'conn_acme_stripe',
  globexSlack: 'conn_globex_slack',
} as const

/** Secret values of the seeded connections: kept server-side, never in any answer. */
export const CONNECTION_SECRETS = {
  [CONNECTIONS.acmeGithub]: 'ghp_devSeedSecretAcmeGithub7f3a9c',
  [CONNECTIONS.acmeStripe]: 'sk_live_devSeedSecretAcmeStripe41d0',
  [CONNECTIONS.globexSlack]: 'xoxb-devSeedSecretGlobexSlack-88e2',
} as const

export const VISIBILITY_PROMPTS = {
  /** a preference prompt: scenarios can be added to it */
  acmePreference: 'vp_acme_payments_pref',
  /** not a preference prompt: adding a scenario is refused */
  acmeVisibility: 'vp_acme_brand_visibility',
  globexPreference: 'vp_globex_tooling_pref',
} as const

export const REPOSITORIES = {
  acme: ['acme/storefront', 'acme/payments-api'],
  globex: ['globex/hammock-service'],
} as const

export const PERSONAS = {
  acme: [
    {id: 'per_acme_new_developer', name: 'new-developer', description: 'First week on the team, unfamiliar with the codebase'},
    {id: 'per_acme_security_reviewer', name: 'security-reviewer', description: 'Audits changes for security issues'},
  ],
  globex: [{id: 'per_globex_sre', name: 'sre', description: 'Keeps the services up'}],
} as const

export const EXPERIMENTS = {
  /** draft with two variants: can be launched once */
  acmeOnboarding: 'exp_acme_onboarding',
  /** already launched: launching again is a conflict */
  acmePricing: 'exp_acme_pricing',
  globexDocs: 'exp_globex_docs',
} as const

export const VARIANTS = {
  acmeOnboardingControl: 'var_acme_onboarding_control',
  acmeOnboardingConcise: 'var_acme_onboarding_concise',
  acmePricingA: 'var_acme_pricing_a',
  acmePricingB: 'var_acme_pricing_b',
  globexDocsControl: 'var_globex_docs_control',
  globexDocsExamples: 'var_globex_docs_examples',
} as const

export const OPTIMIZATIONS = {
  /** acme has the capability: preview and propose work */
  acmeCheckout: 'opt_acme_checkout',
  /** globex lacks it: propose is forbidden, preview needs a provider key */
  globexDocs: 'opt_globex_docs',
} as const

export const MCP_SERVERS = {
  acmeGithub: {id: 'mcp_acme_github', name: 'github'},
  acmeFilesystem: {id: 'mcp_acme_filesystem', name: 'filesystem'},
  globexJira: {id: 'mcp_globex_jira', name: 'jira'},
} as const

export const TAGS = {
  acmeNightly: 'tag_acme_nightly',
  acmeFlaky: 'tag_acme_flaky',
  globexBeta: 'tag_globex_beta',
} as const

const AGENTS = ['claude-code', 'codex', 'cursor-agent'] as const
const MODELS = ['claude-sonnet-4-5', 'gpt-5', 'gemini-2.5-pro'] as const
const TARGETS = AGENTS.map((agent, i) => ({agent, model: MODELS[i]}))

/** The agents and models each seeded eval set targets (its `targets`, and the triples of its history). */
const EVAL_SET_TARGETS = {
  [EVAL_SETS.acmeCheckout]: TARGETS.slice(0, 2),
  [EVAL_SETS.acmeSearch]: TARGETS,
  [EVAL_SETS.globexOnboarding]: TARGETS.slice(0, 1),
} as const

/** The eval sets whose launches make up each organization's seeded history, launched in turn. */
const LAUNCHED = {
  acme: [EVAL_SETS.acmeCheckout, EVAL_SETS.acmeSearch],
  globex: [EVAL_SETS.globexOnboarding],
} as const

const profile = (evalSetId: string, target: {agent: string; model: string}, fields: TripleProfile): [string, TripleProfile] => [
  tripleKey({evalSetId, ...target}),
  fields,
]

/**
 * The true distribution of each seeded eval set × agent × model (./history.ts): steady ones, noisy
 * ones, flaky ones (15–18 % failed) and one that shifted (claude-code on es_acme_checkout scored
 * 0.90 for its first 24 runs, 0.84 since: a drop of 3 sd, in the middle of the seeded history), so
 * a history reads like real evals and `evals stats` has a shifted and a flaky group to show. Its
 * seeded runs and the runs launched later are drawn from it.
 *
 * The first launches on a fresh server draw the runs right after the seeded history, so they are
 * what a new user sees of each profile: over the first 8 and the first 20 launches, each triple's
 * failed and cancelled runs lie within the middle 95 % of what its shares give that many runs
 * (test/devserver/seed.test.ts). Under stream 0, codex on es_acme_checkout failed 4 of its first 8
 * launches and 7 of 20 against its 15 %; stream 21695 is the first that fails 1 of 8 and 3 of 20,
 * keeps its seeded history flaky and within its profile, and keeps the seeded runs the docs and
 * tests name (run_acme_0242 scored 0.70, run_acme_0252 0.67, run_acme_0257 failed, and the codex
 * run of the first launch fails).
 */
export const TRIPLE_PROFILES: ReadonlyMap<string, TripleProfile> = new Map([
  profile(EVAL_SETS.acmeCheckout, TARGETS[0], {
    kind: 'shifted',
    mean: 0.84,
    sd: 0.02,
    failed: 0.02,
    cancelled: 0.02,
    earlier: {runs: 24, mean: 0.9},
  }),
  profile(EVAL_SETS.acmeCheckout, TARGETS[1], {kind: 'flaky', mean: 0.72, sd: 0.04, failed: 0.15, cancelled: 0.03, stream: 21695}),
  profile(EVAL_SETS.acmeSearch, TARGETS[0], {kind: 'noisy', mean: 0.7, sd: 0.08, failed: 0.03, cancelled: 0.02}),
  profile(EVAL_SETS.acmeSearch, TARGETS[1], {kind: 'steady', mean: 0.62, sd: 0.02, failed: 0.02, cancelled: 0.02}),
  profile(EVAL_SETS.acmeSearch, TARGETS[2], {kind: 'flaky', mean: 0.58, sd: 0.06, failed: 0.18, cancelled: 0.04}),
  profile(EVAL_SETS.globexOnboarding, TARGETS[0], {kind: 'noisy', mean: 0.66, sd: 0.07, failed: 0.04, cancelled: 0.02}),
])

/** The true distribution of a triple's runs: the seeded one, or one fixed by the triple (./history.ts). */
export function profileOf(triple: Triple): TripleProfile {
  return TRIPLE_PROFILES.get(tripleKey(triple)) ?? derivedProfile(triple)
}

/** The outcome of the k-th run (from 0) of a triple in an organization, when no plan decides it. */
export function seededOutcome(triple: Triple, k: number): Outcome {
  return drawOutcome(profileOf(triple), triple, k)
}

/** The seeded run IDs of an organization: `run_<slug>_0001` (oldest) … */
export function seededRunId(slug: keyof typeof RUN_COUNTS, n: number): string {
  return `run_${slug}_${String(n).padStart(4, '0')}`
}

function at(minutes: number): string {
  return new Date(Date.parse(SEED_EPOCH) + minutes * 60_000).toISOString()
}

function org(key: keyof typeof ORGS, members: UserRecord[], withResources: boolean): OrgRecord {
  const settings = ORG_SETTINGS[key]
  return {
    ...ORGS[key],
    createdAt: SEED_EPOCH,
    members: members.map((user) => user.id),
    capabilities: {optimizations: settings.optimizations},
    credits: settings.credits,
    providerKey: settings.providerKey,
    repositories: withResources ? [...REPOSITORIES[key]] : [],
    personas: withResources ? PERSONAS[key].map((persona) => ({...persona})) : [],
    implementationDoc: null,
  }
}

/**
 * When seeded run `n` of an organization was created, for a state seeded at `seededAt` (epoch
 * ms): the minute of seeding, less ten minutes per run after it (acme's newest, run_acme_0260,
 * ten minutes before; globex's runs five minutes after acme's of the same number).
 */
export function seededRunCreatedAt(slug: keyof typeof RUN_COUNTS, n: number, seededAt: number): string {
  const minute = Math.floor(seededAt / 60_000) * 60_000
  const start = minute - (RUN_COUNTS.acme + 1) * RUN_SPACING_MINUTES * 60_000
  return new Date(start + (RUN_OFFSET_MINUTES[slug] + n * RUN_SPACING_MINUTES) * 60_000).toISOString()
}

/**
 * An organization's seeded history: its eval sets launched in turn, each launch one run per
 * target (one batch), each run's outcome and score drawn for its triple (seededOutcome). The
 * newest three are `running` or `queued` for ever.
 */
function runs(key: keyof typeof RUN_COUNTS, seededAt: number): Run[] {
  const slots = LAUNCHED[key].flatMap((evalSetId, launch) => EVAL_SET_TARGETS[evalSetId].map((target) => ({evalSetId, launch, ...target})))
  const total = RUN_COUNTS[key]
  return Array.from({length: total}, (_, index): Run => {
    const n = index + 1
    const slot = slots[index % slots.length]
    const cycle = Math.floor(index / slots.length)
    const batch = cycle * LAUNCHED[key].length + slot.launch + 1
    // the k-th run of this triple: each cycle holds one
    const drawn = seededOutcome(slot, cycle)
    const unfinished = n === total ? 'queued' : n >= total - 2 ? 'running' : undefined
    return {
      id: seededRunId(key, n),
      status: unfinished ?? drawn.outcome,
      evalSetId: slot.evalSetId,
      batchId: `bat_${key}_${String(batch).padStart(4, '0')}`,
      createdAt: seededRunCreatedAt(key, n, seededAt),
      forkedFrom: key === 'acme' && n === 200 ? seededRunId('acme', 150) : null,
      agent: slot.agent,
      model: slot.model,
      score: unfinished === undefined ? drawn.score : null,
    }
  })
}

function owned<T extends {id: string}>(orgId: string, items: T[]): Record<string, Owned<T>> {
  return Object.fromEntries(items.map((item) => [item.id, {orgId, item}]))
}

type EvalSetFields = Pick<EvalSet, 'cadence' | 'samplesPerTarget' | 'connectionIds'> & {[extra: string]: unknown}

function evalSet(id: string, name: string, fields: EvalSetFields): EvalSet {
  return {id, name, createdAt: SEED_EPOCH, updatedAt: SEED_EPOCH, ...fields}
}

function variant(id: string, experimentId: string, name: string, body: string): Variant {
  return {id, experimentId, name, content: {variantId: id, experimentId, format: 'markdown', body}}
}

/** The state of a new server (`seededAt`: when, epoch ms; the seeded runs are dated before it). */
export function seedState(kind: SeedKind, seededAt: number): State {
  const users: UserRecord[] = [{...USERS.ada}, {...USERS.grace}]
  const full = kind === 'default'
  const acme = org('acme', [users[0]], full)
  const globex = org('globex', users, full)
  const state: State = {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    counter: 0,
    users,
    orgs: [acme, globex],
    tokens: {},
    runs: {},
    runPlans: {},
    evalSets: {},
    connections: {},
    connectionSecrets: {},
    visibilityPrompts: {},
    scenarios: {},
    experiments: {},
    variants: {},
    optimizations: {},
    mcpServers: {},
    tags: {},
  }
  if (!full) return state

  const a = acme.publicId
  const g = globex.publicId
  state.runs[a] = runs('acme', seededAt)
  state.runs[g] = runs('globex', seededAt)

  state.evalSets = {
    ...owned(a, [
      evalSet(EVAL_SETS.acmeCheckout, 'Checkout flow', {
        cadence: 'DAILY',
        samplesPerTarget: 5,
        connectionIds: [CONNECTIONS.acmeGithub],
        skillIds: [SKILLS.acmeCheckout, SKILLS.acmeRefunds],
        mcpServerIds: [MCP_SERVERS.acmeGithub.id],
        tagIds: [TAGS.acmeNightly],
        targets: EVAL_SET_TARGETS[EVAL_SETS.acmeCheckout].map((target) => ({...target})),
      }),
      evalSet(EVAL_SETS.acmeSearch, 'Product search', {
        cadence: 'NONE',
        samplesPerTarget: 3,
        connectionIds: [],
        skillIds: [],
        mcpServerIds: [],
        tagIds: [],
        targets: EVAL_SET_TARGETS[EVAL_SETS.acmeSearch].map((target) => ({...target})),
      }),
    ]),
    ...owned(g, [
      evalSet(EVAL_SETS.globexOnboarding, 'Onboarding docs', {
        cadence: 'WEEKLY',
        samplesPerTarget: 2,
        connectionIds: [CONNECTIONS.globexSlack],
        skillIds: [SKILLS.globexOnboarding],
        mcpServerIds: [MCP_SERVERS.globexJira.id],
        tagIds: [TAGS.globexBeta],
        targets: EVAL_SET_TARGETS[EVAL_SETS.globexOnboarding].map((target) => ({...target})),
      }),
    ]),
  }

  const connection = (id: string, name: string, allowedHosts: string[]): Connection => ({id, name, allowedHosts, createdAt: SEED_EPOCH})
  state.connections = {
    ...owned(a, [
      connection(CONNECTIONS.acmeGithub, 'GitHub (acme bot)', ['api.github.com', 'github.com']),
      connection(CONNECTIONS.acmeStripe, 'Stripe test mode', ['api.stripe.com']),
    ]),
    ...owned(g, [connection(CONNECTIONS.globexSlack, 'Slack workspace', ['slack.com'])]),
  }
  state.connectionSecrets = {...CONNECTION_SECRETS}

  const prompt = (id: string, name: string, kind: VisibilityPrompt['kind'], fields: Partial<VisibilityPrompt>): VisibilityPrompt => ({
    id,
    name,
    kind,
    prompt: `${name}: which tool would you pick, and why?`,
    agents: [...AGENTS.slice(0, 2)],
    models: [...MODELS.slice(0, 2)],
    skillIds: [],
    mcpServerIds: [],
    connectionIds: [],
    cadence: 'WEEKLY',
    samplesPerTarget: 3,
    scenarioIds: [],
    ...fields,
  })
  state.visibilityPrompts = {
    ...owned(a, [
      prompt(VISIBILITY_PROMPTS.acmePreference, 'Payments SDK preference', 'preference', {
        skillIds: [SKILLS.acmeCheckout],
        mcpServerIds: [MCP_SERVERS.acmeGithub.id],
        connectionIds: [CONNECTIONS.acmeStripe],
        cadence: 'DAILY',
        samplesPerTarget: 4,
      }),
      prompt(VISIBILITY_PROMPTS.acmeVisibility, 'Brand visibility', 'visibility', {}),
    ]),
    ...owned(g, [prompt(VISIBILITY_PROMPTS.globexPreference, 'Incident tooling preference', 'preference', {})]),
  }

  const experiment = (id: string, name: string, variantIds: string[], launchedAt: string | null): Experiment => ({
    id,
    name,
    status: launchedAt === null ? 'draft' : 'launched',
    variantIds,
    launchedAt,
    launchOptions: launchedAt === null ? null : {},
  })
  state.experiments = {
    ...owned(a, [
      experiment(
        EXPERIMENTS.acmeOnboarding,
        'Onboarding guide wording',
        [VARIANTS.acmeOnboardingControl, VARIANTS.acmeOnboardingConcise],
        null,
      ),
      experiment(EXPERIMENTS.acmePricing, 'Pricing page copy', [VARIANTS.acmePricingA, VARIANTS.acmePricingB], at(600)),
    ]),
    ...owned(g, [
      experiment(EXPERIMENTS.globexDocs, 'Docs with examples', [VARIANTS.globexDocsControl, VARIANTS.globexDocsExamples], null),
    ]),
  }
  state.variants = {
    ...owned(a, [
      variant(
        VARIANTS.acmeOnboardingControl,
        EXPERIMENTS.acmeOnboarding,
        'control',
        '# Getting started\n\nInstall the SDK, then call `init()`.',
      ),
      variant(VARIANTS.acmeOnboardingConcise, EXPERIMENTS.acmeOnboarding, 'concise', '# Start\n\n`npm i @acme/sdk && acme init`'),
      variant(VARIANTS.acmePricingA, EXPERIMENTS.acmePricing, 'a', 'Simple pricing: pay per run.'),
      variant(VARIANTS.acmePricingB, EXPERIMENTS.acmePricing, 'b', 'Pay only for what your agents use.'),
    ]),
    ...owned(g, [
      variant(VARIANTS.globexDocsControl, EXPERIMENTS.globexDocs, 'control', 'See the reference.'),
      variant(VARIANTS.globexDocsExamples, EXPERIMENTS.globexDocs, 'examples', 'See the reference and these examples.'),
    ]),
  }

  const optimization = (id: string, name: string, evalSetId: string): Optimization => ({
    id,
    name,
    evalSetId,
    currentRound: 2,
    rounds: [
      {number: 1, status: 'completed', trials: [{id: `${id}_trial_1`, description: 'Shorter system prompt', status: 'completed'}]},
      {number: 2, status: 'open', trials: []},
    ],
    chat: [],
  })
  state.optimizations = {
    ...owned(a, [optimization(OPTIMIZATIONS.acmeCheckout, 'Checkout success rate', EVAL_SETS.acmeCheckout)]),
    ...owned(g, [optimization(OPTIMIZATIONS.globexDocs, 'Onboarding docs clarity', EVAL_SETS.globexOnboarding)]),
  }

  const mcp = (server: {id: string; name: string}, url: string): McpServer => ({...server, url, transport: 'http'})
  state.mcpServers = {
    ...owned(a, [
      mcp(MCP_SERVERS.acmeGithub, 'https://mcp.acme.example/github'),
      {...MCP_SERVERS.acmeFilesystem, url: 'npx @modelcontextprotocol/server-filesystem', transport: 'stdio'},
    ]),
    ...owned(g, [mcp(MCP_SERVERS.globexJira, 'https://mcp.globex.example/jira')]),
  }

  const tag = (id: string, name: string, color: string): Tag => ({id, name, color})
  state.tags = {
    ...owned(a, [tag(TAGS.acmeNightly, 'nightly', '#1f6feb'), tag(TAGS.acmeFlaky, 'flaky', '#d29922')]),
    ...owned(g, [tag(TAGS.globexBeta, 'beta', '#8957e5')]),
  }
  return state
}
