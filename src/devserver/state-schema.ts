import {CADENCES} from '../contract/vocabulary.js'
import {STATE_FORMAT, STATE_VERSION} from './state.js'

/**
 * The shape of a `--data` file (src/devserver/state.ts) as a JSON Schema, checked when the server
 * starts: a file that does not fit is refused with the first member that is wrong, before the
 * server listens. API resources use the OpenAPI document's schemas.
 */

const string = {type: 'string'} as const
const strings = {type: 'array', items: string} as const
const nullableString = {type: ['string', 'null']} as const
const jsonObject = {type: 'object'} as const

function object(properties: Record<string, unknown>, extra = false): Record<string, unknown> {
  return {type: 'object', required: Object.keys(properties), properties, additionalProperties: extra}
}

/** `{"<id>": {"orgId": …, "item": …}}` */
function owned(item: unknown): Record<string, unknown> {
  return {type: 'object', additionalProperties: object({orgId: string, item})}
}

function ref(name: string): Record<string, unknown> {
  return {$ref: `#/components/schemas/${name}`}
}

const runSettings = {
  agents: strings,
  models: strings,
  skillIds: strings,
  mcpServerIds: strings,
  connectionIds: strings,
  cadence: {enum: CADENCES},
  samplesPerTarget: {type: 'integer'},
}

export const STATE_SCHEMA: Record<string, unknown> = object({
  format: {const: STATE_FORMAT},
  version: {const: STATE_VERSION},
  counter: {type: 'integer', minimum: 0},
  users: {type: 'array', items: object({id: string, email: string, name: string})},
  orgs: {
    type: 'array',
    items: object({
      slug: string,
      publicId: string,
      name: string,
      createdAt: string,
      members: strings,
      capabilities: object({optimizations: {type: 'boolean'}}),
      credits: {type: 'number'},
      providerKey: {type: 'boolean'},
      repositories: strings,
      personas: {type: 'array', items: object({id: string, name: string, description: string})},
      implementationDoc: {type: ['object', 'null']},
    }),
  },
  tokens: {
    type: 'object',
    additionalProperties: object({id: string, name: string, userId: string, hash: string, createdAt: string, expiresAt: nullableString}),
  },
  runs: {type: 'object', additionalProperties: {type: 'array', items: ref('Run')}},
  runPlans: {
    type: 'object',
    additionalProperties: object({
      runningAt: string,
      finishedAt: string,
      outcome: {enum: ['succeeded', 'failed', 'cancelled']},
      score: {type: ['number', 'null']},
    }),
  },
  evalSets: owned(ref('EvalSet')),
  connections: owned(ref('Connection')),
  connectionSecrets: {type: 'object', additionalProperties: string},
  visibilityPrompts: owned(
    object({id: string, name: string, kind: {enum: ['preference', 'visibility']}, prompt: string, scenarioIds: strings, ...runSettings}),
  ),
  scenarios: owned(
    object({
      id: string,
      visibilityPromptId: string,
      repository: string,
      persona: string,
      personaId: string,
      createdAt: string,
      ...runSettings,
    }),
  ),
  experiments: owned(
    object({
      id: string,
      name: string,
      status: {enum: ['draft', 'launched']},
      variantIds: strings,
      launchedAt: nullableString,
      launchOptions: {type: ['object', 'null']},
    }),
  ),
  variants: owned(object({id: string, experimentId: string, name: string, content: jsonObject})),
  optimizations: owned(
    object({
      id: string,
      name: string,
      evalSetId: string,
      currentRound: {type: 'integer'},
      rounds: {
        type: 'array',
        items: object({
          number: {type: 'integer'},
          status: {enum: ['completed', 'open']},
          trials: {type: 'array', items: object({id: string, description: string, status: {enum: ['proposed', 'running', 'completed']}})},
        }),
      },
      chat: {type: 'array', items: object({role: {enum: ['user', 'assistant']}, content: string, at: string})},
    }),
  ),
  mcpServers: owned(object({id: string, name: string, url: string, transport: {enum: ['http', 'stdio']}})),
  tags: owned(object({id: string, name: string, color: string})),
})
