import {CADENCES} from '../contract/vocabulary.js'

/**
 * The shape of a `--data` file, said once: this JSON Schema is checked when the server starts (a
 * file that does not fit is refused with the first member that is wrong, before the server
 * listens), and the state's types (./state-types.ts, re-exported by ./state.ts) are generated
 * from it by `npm run generate` (bin/generate/dev.ts, json-schema-to-typescript): each `title`
 * is a type's name, each `description` its comment. What the state holds of the API (runs, eval
 * sets, connections) is the OpenAPI document's schemas by `$ref`, typed as the document's types.
 */

export const STATE_FORMAT = 'amctl-devserver-state'
export const STATE_VERSION = 1

const string = {type: 'string'} as const
const strings = {type: 'array', items: string} as const
const nullableString = {type: ['string', 'null']} as const
/** any JSON object (typed JsonObject) */
const jsonObject = {type: 'object'} as const
const nullableJsonObject = {type: ['object', 'null']} as const
const integer = {type: 'integer'} as const

type Schema = Record<string, unknown>

/** A closed object whose members are all required; `title` names its type. */
function object(properties: Record<string, Schema>, title?: string, description?: string): Schema {
  return {
    ...(title === undefined ? {} : {title}),
    ...(description === undefined ? {} : {description}),
    type: 'object',
    required: Object.keys(properties),
    properties,
    additionalProperties: false,
  }
}

/** By key: `{"<key>": …}`. */
function byKey(value: Schema, description: string): Schema {
  return {type: 'object', description, additionalProperties: value}
}

/** `{"<id>": {"orgId": …, "item": …}}`: resources by ID, each with the organization that owns it (./state.ts's `Owned`). */
function owned(item: Schema): Schema {
  return byKey(object({orgId: string, item}), 'by ID, each with the organization that owns it')
}

/** One of the OpenAPI document's schemas (src/devserver/schema.ts compiles them beside this one). */
function ref(name: 'Run' | 'EvalSet' | 'Connection'): Schema {
  return {$ref: `#/components/schemas/${name}`}
}

const described = (schema: Schema, description: string): Schema => ({...schema, description})

/** The run settings a preference prompt owns and its scenarios inherit. */
const runSettings: Record<string, Schema> = {
  agents: strings,
  models: strings,
  skillIds: strings,
  mcpServerIds: strings,
  connectionIds: strings,
  cadence: {enum: CADENCES},
  samplesPerTarget: integer,
}

export const STATE_SCHEMA: Schema = object(
  {
    format: {const: STATE_FORMAT},
    version: {const: STATE_VERSION},
    counter: {type: 'integer', minimum: 0, description: 'feeds generated IDs, so they never repeat across restarts'},
    users: {type: 'array', items: object({id: string, email: string, name: string}, 'UserRecord')},
    orgs: {
      type: 'array',
      items: object(
        {
          slug: string,
          publicId: string,
          name: string,
          createdAt: string,
          members: described(strings, 'user IDs'),
          capabilities: object({optimizations: {type: 'boolean'}}),
          credits: {type: 'number'},
          providerKey: {type: 'boolean', description: 'whether a model-provider key is configured (optimization previews need one)'},
          repositories: described(strings, 'repositories (`owner/name`) the organization can reach'),
          personas: {type: 'array', items: object({id: string, name: string, description: string}, 'Persona')},
          implementationDoc: nullableJsonObject,
        },
        'OrgRecord',
      ),
    },
    tokens: byKey(
      object(
        {
          id: string,
          name: string,
          userId: string,
          hash: described(string, 'SHA-256 (hex) of the token; the token itself is never stored'),
          createdAt: string,
          expiresAt: nullableString,
        },
        'TokenRecord',
      ),
      'by token hash',
    ),
    runs: byKey({type: 'array', items: ref('Run')}, 'by organization public ID, oldest first (the list answers them newest first)'),
    runPlans: byKey(
      object(
        {
          runningAt: described(string, 'when it leaves `queued` for `running`'),
          finishedAt: described(string, 'when it reaches its outcome'),
          outcome: {enum: ['succeeded', 'failed', 'cancelled']},
          score: {type: ['number', 'null']},
        },
        'RunPlan',
        'How a launched or forked run moves on its own (src/devserver/runs.ts), fixed when it is created.',
      ),
      'by run ID: the runs still moving on their own (absent from files written before runs moved)',
    ),
    evalSets: owned(ref('EvalSet')),
    connections: owned(ref('Connection')),
    connectionSecrets: byKey(string, 'by connection ID; server-side only, never part of any answer'),
    visibilityPrompts: owned(
      object(
        {
          id: string,
          name: string,
          kind: {enum: ['preference', 'visibility'], description: 'only `preference` prompts own repository/persona scenarios'},
          prompt: string,
          scenarioIds: strings,
          ...runSettings,
        },
        'VisibilityPrompt',
      ),
    ),
    scenarios: owned(
      object(
        {
          id: string,
          visibilityPromptId: string,
          repository: string,
          persona: described(string, 'persona name'),
          personaId: string,
          createdAt: string,
          ...runSettings,
        },
        'ScenarioRecord',
      ),
    ),
    experiments: owned(
      object(
        {
          id: string,
          name: string,
          status: {enum: ['draft', 'launched']},
          variantIds: strings,
          launchedAt: nullableString,
          launchOptions: described(nullableJsonObject, 'the body of the launch'),
        },
        'Experiment',
      ),
    ),
    variants: owned(object({id: string, experimentId: string, name: string, content: jsonObject}, 'Variant')),
    optimizations: owned(
      object(
        {
          id: string,
          name: string,
          evalSetId: string,
          currentRound: integer,
          rounds: {
            type: 'array',
            items: object(
              {
                number: integer,
                status: {enum: ['completed', 'open']},
                trials: {
                  type: 'array',
                  items: object({id: string, description: string, status: {enum: ['proposed', 'running', 'completed']}}, 'Trial'),
                },
              },
              'Round',
            ),
          },
          chat: {type: 'array', items: object({role: {enum: ['user', 'assistant']}, content: string, at: string}, 'ChatMessage')},
        },
        'Optimization',
      ),
    ),
    mcpServers: owned(object({id: string, name: string, url: string, transport: {enum: ['http', 'stdio']}}, 'McpServer')),
    tags: owned(object({id: string, name: string, color: string}, 'Tag')),
  },
  'State',
  'Everything the dev server knows, as one JSON-serializable value (what `--data` holds).',
)
