import {
  API_ERROR_CODES,
  API_PREFIX,
  CADENCES,
  DEVICE_CODE_PARAM,
  PAGE_LIMIT_MAX,
  PAGE_LIMIT_MIN,
  SAMPLES_MAX,
  SAMPLES_MIN,
  TOKEN_EXPIRY_MAX_DAYS,
  TOKEN_PREFIX,
  type ChatBody,
  type CliTokenDeviceStart,
  type CliTokenGranted,
  type CliTokenPoll,
  type Connection,
  type CreateTokenBody,
  type CreatedToken,
  type EvalSet,
  type EvalSetPatch,
  type LaunchResult,
  type Me,
  type OrgRef,
  type Page,
  type Run,
  type ScenarioBody,
} from './types.js'

/**
 * The OpenAPI 3.1 description of the control-plane API: the single description in the
 * repository, served by `amctl dev server` at `GET /api/v1/openapi.json`. Member names come from
 * types.ts; the mapped types below make the compiler reject a misspelled or missing member.
 */

export const API_VERSION = '0.14.0'

/** Page size of `GET /orgs/{org}/runs` when `limit` is not given. */
export const RUNS_DEFAULT_LIMIT = 50

/** Retired routes (spec endpoint rule 4): every method answers 403 `forbidden` with `message`. */
export const RETIRED_ROUTES = [
  {
    segment: 'presets',
    idName: 'presetId',
    message:
      'Shared presets were retired in API 0.14: run settings now live on each eval set (PATCH /api/v1/orgs/{org}/eval-sets/{evalSetId}) and on each preference prompt',
  },
  {
    segment: 'cycles',
    idName: 'cycleId',
    message: `Cycles were retired in API 0.14: set an eval's cadence (${CADENCES.join(', ')}) with PATCH /api/v1/orgs/{org}/eval-sets/{evalSetId}`,
  },
  {
    segment: 'scenarios',
    idName: 'scenarioId',
    message:
      'Organization-level scenarios were retired in API 0.14: create them under a preference prompt: POST /api/v1/orgs/{org}/visibility-prompts/{id}/scenarios',
  },
  {
    segment: 'schedules',
    idName: 'scheduleId',
    message: `Schedules were retired in API 0.14: set an eval's cadence (${CADENCES.join(', ')}) with PATCH /api/v1/orgs/{org}/eval-sets/{evalSetId}`,
  },
] as const

type Json = {[key: string]: unknown}

/** The named members of T (its index signature, if any, left out). */
type KnownKeys<T> = keyof {[K in keyof T as string extends K ? never : number extends K ? never : K]: T[K]}

const ref = (kind: 'schemas' | 'responses' | 'parameters', name: string): Json => ({$ref: `#/components/${kind}/${name}`})
const schema = (name: string): Json => ref('schemas', name)

const freeForm = (description: string): Json => ({type: 'object', additionalProperties: true, description})
const stringArray = (description: string): Json => ({type: 'array', items: {type: 'string'}, description})
const nullable = (type: string, description: string): Json => ({type: [type, 'null'], description})

/** An object schema listing every named member of T; extra members are allowed (spec rule 1). */
function shape<T>(description: string, properties: {[K in KnownKeys<T>]: Json}, required: readonly KnownKeys<T>[]): Json {
  return {type: 'object', description, properties, required, additionalProperties: true}
}

const schemas: Record<string, Json> = {
  Error: {
    type: 'object',
    description: 'The envelope of every non-success response.',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: {type: 'string', description: `Stable machine-readable code: ${API_ERROR_CODES.join(', ')}.`, examples: [...API_ERROR_CODES]},
          message: {type: 'string', description: 'Human-readable text.'},
        },
        additionalProperties: true,
      },
    },
  },
  FreeForm: freeForm('Free-form JSON object: any members are accepted and returned.'),
  OrgRef: shape<OrgRef>(
    'An organization the caller belongs to.',
    {
      slug: {type: 'string', description: 'Accepted wherever {org} appears.'},
      publicId: {type: 'string', description: 'Accepted wherever {org} appears.'},
      name: {type: 'string'},
    },
    ['slug', 'publicId', 'name'],
  ),
  Me: shape<Me>(
    'The calling user and the organizations it is a member of.',
    {
      id: {type: 'string'},
      email: {type: 'string'},
      name: {type: 'string'},
      orgs: {type: 'array', items: schema('OrgRef')},
    },
    ['id', 'email', 'name', 'orgs'],
  ),
  Run: shape<Run>(
    'A run of an eval.',
    {
      id: {type: 'string'},
      status: {type: 'string', examples: ['queued', 'running', 'succeeded', 'failed', 'cancelled']},
      evalSetId: nullable('string', 'The eval set the run measures.'),
      batchId: nullable('string', 'The launch batch the run belongs to.'),
      createdAt: {type: 'string', format: 'date-time'},
      forkedFrom: nullable('string', 'The run this one was forked from.'),
    },
    ['id', 'status', 'evalSetId', 'batchId', 'createdAt'],
  ),
  RunPage: shape<Page<Run>>(
    'One page of runs, newest first.',
    {
      items: {type: 'array', items: schema('Run')},
      nextCursor: nullable('string', 'Pass back as `cursor` for the next page; absent or null on the last page.'),
    },
    ['items'],
  ),
  Connection: shape<Connection>(
    'A connection (service credential): identity and allowed hosts only. Secret values are never returned.',
    {
      id: {type: 'string'},
      name: {type: 'string'},
      allowedHosts: stringArray('Hosts the credential may be sent to.'),
    },
    ['id', 'name', 'allowedHosts'],
  ),
  ConnectionList: shape<Page<Connection>>(
    'The organization\'s connections.',
    {
      items: {type: 'array', items: schema('Connection')},
      nextCursor: nullable('string', 'Not used by this collection.'),
    },
    ['items'],
  ),
  EvalSet: shape<EvalSet>(
    'An eval (eval set) and its measurement configuration.',
    {
      id: {type: 'string'},
      name: {type: 'string'},
      cadence: {type: 'string', enum: [...CADENCES]},
      samplesPerTarget: {type: 'integer', minimum: SAMPLES_MIN, maximum: SAMPLES_MAX},
      connectionIds: stringArray('Connections selected directly for the eval.'),
    },
    ['id', 'name', 'cadence', 'samplesPerTarget', 'connectionIds'],
  ),
  EvalSetPatch: shape<EvalSetPatch>(
    'A partial eval configuration. Omitted members keep their stored values; any array supplied replaces the stored selection; other members are stored as given.',
    {
      cadence: {type: 'string', enum: [...CADENCES]},
      samplesPerTarget: {type: 'integer', minimum: SAMPLES_MIN, maximum: SAMPLES_MAX},
      connectionIds: stringArray('IDs from the connections collection of the same organization; [] clears the selection.'),
    },
    [],
  ),
  LaunchResult: shape<LaunchResult>(
    'What launching an eval created.',
    {batchIds: stringArray('Batches created.'), runIds: stringArray('Runs created; they head the run list.')},
    ['batchIds', 'runIds'],
  ),
  CreateTokenBody: shape<CreateTokenBody>(
    'A new API token.',
    {
      name: {type: 'string', minLength: 1},
      expiresIn: {type: 'string', pattern: '^[0-9]+d$', description: `<N>d, N from 1 to ${TOKEN_EXPIRY_MAX_DAYS} (days).`, examples: ['30d']},
    },
    ['name', 'expiresIn'],
  ),
  CreatedToken: shape<CreatedToken>(
    'A created API token. `token` is shown once and cannot be retrieved afterwards.',
    {
      id: {type: 'string'},
      name: {type: 'string'},
      token: {type: 'string', pattern: `^${TOKEN_PREFIX}`},
      expiresAt: {type: 'string', format: 'date-time'},
      createdAt: {type: 'string', format: 'date-time'},
    },
    ['id', 'name', 'token', 'expiresAt', 'createdAt'],
  ),
  CliTokenDeviceStart: shape<CliTokenDeviceStart>(
    'A device-authorization request: show `userCode` and `verificationUri`, then poll with `deviceCode`.',
    {
      deviceCode: {type: 'string'},
      userCode: {type: 'string'},
      verificationUri: {type: 'string', format: 'uri'},
      interval: {type: 'number', minimum: 0, description: 'Seconds between polls.'},
      expiresIn: {type: 'number', exclusiveMinimum: 0, description: 'Seconds until the device code expires.'},
    },
    ['deviceCode', 'userCode', 'verificationUri'],
  ),
  CliTokenGranted: shape<CliTokenGranted>(
    'The device code was approved: the token (given once; the device code is then used up).',
    {token: {type: 'string', pattern: `^${TOKEN_PREFIX}`}},
    ['token'],
  ),
  CliTokenPoll: shape<CliTokenPoll>(
    'The device code is not (or no longer) approved.',
    {status: {type: 'string', enum: ['pending', 'denied', 'expired']}},
    ['status'],
  ),
  ScenarioBody: shape<ScenarioBody>(
    'A repository/persona scenario.',
    {
      repository: {type: 'string', minLength: 1, description: 'A repository (owner/name) accessible to the organization.'},
      persona: {type: 'string', minLength: 1, description: 'A persona of the organization, by ID or name.'},
    },
    ['repository', 'persona'],
  ),
  Scenario: {
    type: 'object',
    description: "A scenario of a preference prompt. It inherits the prompt's agents/models, skills, MCP servers, credentials, cadence and samples.",
    required: ['id', 'repository', 'persona'],
    additionalProperties: true,
    properties: {
      id: {type: 'string'},
      repository: {type: 'string'},
      persona: {type: 'string'},
      agents: stringArray('Inherited from the prompt.'),
      models: stringArray('Inherited from the prompt.'),
      skillIds: stringArray('Inherited from the prompt.'),
      mcpServerIds: stringArray('Inherited from the prompt.'),
      connectionIds: stringArray('Inherited from the prompt.'),
      cadence: {type: 'string', enum: [...CADENCES]},
      samplesPerTarget: {type: 'integer', minimum: SAMPLES_MIN, maximum: SAMPLES_MAX},
    },
  },
  ChatBody: shape<ChatBody>('An optimization chat message.', {message: {type: 'string', minLength: 1}}, ['message']),
  ImplementationDoc: {
    type: 'object',
    description: 'The stored implementation doc: the object that was sent, plus `updatedAt`.',
    required: ['updatedAt'],
    additionalProperties: true,
    properties: {updatedAt: {type: 'string', format: 'date-time'}},
  },
}

const errorResponse = (description: string, example?: {code: string; message: string}): Json => ({
  description,
  content: {'application/json': {schema: schema('Error'), ...(example === undefined ? {} : {example: {error: example}})}},
})

const ERROR_RESPONSES = {
  400: ['BadRequest', errorResponse('Invalid request (`invalid_request`): malformed JSON, a body that is not an object, or a member that breaks its rule.')],
  401: ['Unauthorized', errorResponse('Missing, malformed, unknown or expired token (`unauthorized`).')],
  402: ['InsufficientCredits', errorResponse('The organization has no credits left (`insufficient_credits`).')],
  403: ['Forbidden', errorResponse('The caller is not a member of the organization, or the resource belongs to another organization (`forbidden`).')],
  404: ['NotFound', errorResponse('The organization or resource does not exist (`not_found`).')],
  409: ['Conflict', errorResponse('Conflict with the current state (`conflict`), or the organization needs a model provider key (`needs_provider_key`).')],
  429: [
    'RateLimited',
    {
      ...errorResponse('Rate limit exceeded (`rate_limited`).'),
      headers: {'Retry-After': {description: 'Seconds to wait before retrying.', schema: {type: 'integer', minimum: 0}}},
    },
  ],
} as const satisfies Record<number, readonly [string, Json]>

type ErrorStatus = keyof typeof ERROR_RESPONSES

const responses: Record<string, Json> = {
  ...Object.fromEntries(Object.values(ERROR_RESPONSES)),
  Error: errorResponse('Unexpected error, in the error envelope.'),
}

const PATH_PARAMS = {
  org: 'Organization slug or organization public ID.',
  runId: 'Run ID.',
  evalSetId: 'Eval set ID.',
  visibilityPromptId: 'Preference (visibility) prompt ID.',
  experimentId: 'Experiment ID.',
  variantId: 'Experiment variant ID.',
  climbId: 'Optimization ID.',
  ref: 'MCP server ID or name.',
  tagId: 'Tag ID.',
} as const

const pathParam = (name: string, description: string): Json => ({name, in: 'path', required: true, description, schema: {type: 'string'}})

const parameters: Record<string, Json> = {
  ...Object.fromEntries(Object.entries(PATH_PARAMS).map(([name, description]) => [name, pathParam(name, description)])),
  limit: {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Page size, ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX} (default ${RUNS_DEFAULT_LIMIT}); any other value is a 400.`,
    schema: {type: 'integer', minimum: PAGE_LIMIT_MIN, maximum: PAGE_LIMIT_MAX, default: RUNS_DEFAULT_LIMIT},
  },
  cursor: {
    name: 'cursor',
    in: 'query',
    required: false,
    description: 'The `nextCursor` of the previous page (opaque). An invalid cursor is a 400.',
    schema: {type: 'string'},
  },
  deviceCode: {
    name: DEVICE_CODE_PARAM,
    in: 'query',
    required: false,
    description: 'Poll the device-authorization request with this code instead of starting one.',
    schema: {type: 'string'},
  },
}

interface Operation {
  id: string
  tag: string
  summary: string
  description?: string
  params?: readonly (keyof typeof parameters)[]
  body?: {schema: Json; required: boolean; description?: string}
  ok: Json
  okDescription: string
  errors: readonly ErrorStatus[]
  /** `[]` for operations that take no token */
  security?: readonly []
}

function operation(o: Operation): Json {
  const open = o.security !== undefined
  const errors = [...new Set<ErrorStatus>([...o.errors, ...(open ? [] : ([401, 429] as const))])].sort((a, b) => a - b)
  return {
    operationId: o.id,
    tags: [o.tag],
    summary: o.summary,
    ...(o.description === undefined ? {} : {description: o.description}),
    ...(o.params === undefined ? {} : {parameters: o.params.map((name) => ref('parameters', name))}),
    ...(open ? {security: []} : {}),
    ...(o.body === undefined
      ? {}
      : {requestBody: {required: o.body.required, ...(o.body.description === undefined ? {} : {description: o.body.description}), content: {'application/json': {schema: o.body.schema}}}}),
    responses: {
      200: {description: o.okDescription, content: {'application/json': {schema: o.ok}}},
      ...Object.fromEntries(errors.map((status) => [status, ref('responses', ERROR_RESPONSES[status][0])])),
      default: ref('responses', 'Error'),
    },
  }
}

const optionalFreeBody = {schema: schema('FreeForm'), required: false, description: 'Optional free-form JSON object.'}
const ORG_ERRORS = [403, 404] as const

const paths: Record<string, Json> = {
  '/openapi.json': {
    get: operation({
      id: 'getOpenApi',
      tag: 'Meta',
      summary: 'This OpenAPI 3.1 document',
      ok: schema('FreeForm'),
      okDescription: 'The OpenAPI document.',
      errors: [],
      security: [],
    }),
  },
  '/tokens': {
    post: operation({
      id: 'createToken',
      tag: 'Authentication',
      summary: 'Create an API token',
      description: 'The plaintext token is returned once and cannot be retrieved afterwards. It authenticates as the calling user.',
      body: {schema: schema('CreateTokenBody'), required: true},
      ok: schema('CreatedToken'),
      okDescription: 'The created token.',
      errors: [400],
    }),
  },
  '/cli/token': {
    post: operation({
      id: 'createCliToken',
      tag: 'Authentication',
      summary: 'Create a command-line-tool credential (device flow)',
      description:
        'Sent without an Authorization header. Without `deviceCode`, starts a device-authorization request. With `deviceCode`, polls it: `{"status":"pending"}` until approved, then `{"token":…}` once; `denied` or `expired` end it. An unknown or used-up device code is a 400.',
      params: ['deviceCode'],
      body: {schema: schema('FreeForm'), required: false, description: 'An empty JSON object.'},
      ok: {oneOf: [schema('CliTokenDeviceStart'), schema('CliTokenGranted'), schema('CliTokenPoll')]},
      okDescription: 'A new device-authorization request, a poll status, or the granted token.',
      errors: [400],
      security: [],
    }),
  },
  '/me': {
    get: operation({id: 'getMe', tag: 'Authentication', summary: 'Identify the calling user', ok: schema('Me'), okDescription: 'The calling user.', errors: []}),
  },
  '/orgs/{org}/runs': {
    get: operation({
      id: 'listRuns',
      tag: 'Runs',
      summary: "List the organization's runs, newest first",
      description: 'Cursor pagination: a run created during a walk never causes a duplicate or a gap.',
      params: ['org', 'limit', 'cursor'],
      ok: schema('RunPage'),
      okDescription: 'One page of runs.',
      errors: [400, ...ORG_ERRORS],
    }),
  },
  '/orgs/{org}/summary': {
    get: operation({
      id: 'getOrgSummary',
      tag: 'Organizations',
      summary: 'Summary of the organization',
      params: ['org'],
      ok: freeForm('Organization identity, capabilities, credits and resource counts.'),
      okDescription: 'The summary.',
      errors: ORG_ERRORS,
    }),
  },
  '/orgs/{org}/implementation-doc': {
    put: operation({
      id: 'setImplementationDoc',
      tag: 'Organizations',
      summary: "Set the organization's implementation doc",
      params: ['org'],
      body: {schema: schema('FreeForm'), required: true},
      ok: schema('ImplementationDoc'),
      okDescription: 'The stored doc.',
      errors: [400, ...ORG_ERRORS],
    }),
  },
  '/orgs/{org}/connections': {
    get: operation({
      id: 'listConnections',
      tag: 'Credentials',
      summary: "List the organization's connections (never their secrets)",
      params: ['org'],
      ok: schema('ConnectionList'),
      okDescription: 'The connections.',
      errors: ORG_ERRORS,
    }),
  },
  '/orgs/{org}/eval-sets/{evalSetId}': {
    patch: operation({
      id: 'updateEvalSet',
      tag: 'Agent Experience',
      summary: "Update an eval's configuration",
      params: ['org', 'evalSetId'],
      body: {schema: schema('EvalSetPatch'), required: true},
      ok: schema('EvalSet'),
      okDescription: 'The whole eval set after the update.',
      errors: [400, ...ORG_ERRORS],
    }),
  },
  '/orgs/{org}/eval-sets/{evalSetId}/run': {
    post: operation({
      id: 'runEvalSet',
      tag: 'Agent Experience',
      summary: "Launch the eval's saved settings",
      description: 'After a timeout, inspect the run list before resubmitting: the launch may have been accepted.',
      params: ['org', 'evalSetId'],
      body: {schema: schema('FreeForm'), required: false, description: 'An empty JSON object.'},
      ok: schema('LaunchResult'),
      okDescription: 'The batches and runs created.',
      errors: [400, 402, ...ORG_ERRORS],
    }),
  },
  '/orgs/{org}/visibility-prompts/{visibilityPromptId}/scenarios': {
    post: operation({
      id: 'createScenario',
      tag: 'Agent Preference',
      summary: 'Add a repository/persona scenario to a preference prompt',
      params: ['org', 'visibilityPromptId'],
      body: {schema: schema('ScenarioBody'), required: true},
      ok: schema('Scenario'),
      okDescription: 'The scenario, with what it inherits from the prompt.',
      errors: [400, ...ORG_ERRORS, 409],
    }),
  },
  '/orgs/{org}/experiments/{experimentId}/launch': {
    post: operation({
      id: 'launchExperiment',
      tag: 'Experiments',
      summary: 'Launch an experiment (once)',
      params: ['org', 'experimentId'],
      body: optionalFreeBody,
      ok: freeForm('The launched experiment.'),
      okDescription: 'The experiment.',
      errors: [400, 402, ...ORG_ERRORS, 409],
    }),
  },
  '/orgs/{org}/experiments/{experimentId}/variants/{variantId}/content': {
    get: operation({
      id: 'getVariantContent',
      tag: 'Experiments',
      summary: 'Content of an experiment variant',
      params: ['org', 'experimentId', 'variantId'],
      ok: freeForm('The variant content.'),
      okDescription: 'The content.',
      errors: ORG_ERRORS,
    }),
  },
  '/orgs/{org}/optimizations/{climbId}/rounds/current/preview': {
    post: operation({
      id: 'previewOptimizationRound',
      tag: 'Optimizations',
      summary: 'Preview the current optimization round',
      description: 'Needs a model provider key: without one the answer is 409 `needs_provider_key`.',
      params: ['org', 'climbId'],
      body: optionalFreeBody,
      ok: freeForm('The preview.'),
      okDescription: 'The preview of the current round.',
      errors: [400, ...ORG_ERRORS, 409],
    }),
  },
  '/orgs/{org}/optimizations/{climbId}/propose': {
    post: operation({
      id: 'proposeOptimizationTrials',
      tag: 'Optimizations',
      summary: 'Propose optimization trials',
      description: 'Requires the Optimizations capability: without it the answer is 403 `forbidden`, "Optimizations must be enabled for this organization to propose trials".',
      params: ['org', 'climbId'],
      body: optionalFreeBody,
      ok: freeForm('The proposed trials.'),
      okDescription: 'The trials added to the current round.',
      errors: [400, ...ORG_ERRORS],
    }),
  },
  '/orgs/{org}/optimizations/{climbId}/chat': {
    post: operation({
      id: 'chatOptimization',
      tag: 'Optimizations',
      summary: 'Send an optimization chat message',
      params: ['org', 'climbId'],
      body: {schema: schema('ChatBody'), required: true},
      ok: freeForm('The conversation so far (`messages`).'),
      okDescription: 'The message history.',
      errors: [400, ...ORG_ERRORS],
    }),
  },
  '/runs/{runId}/fork': {
    post: operation({
      id: 'forkRun',
      tag: 'Runs',
      summary: 'Fork a run',
      description: "Not scoped by organization in the path: the caller must be a member of the run's organization. The fork's `forkedFrom` names the source run.",
      params: ['runId'],
      body: optionalFreeBody,
      ok: schema('Run'),
      okDescription: 'The new run.',
      errors: [400, 402, ...ORG_ERRORS],
    }),
  },
  '/orgs/{org}/mcp-servers/{ref}': {
    delete: operation({
      id: 'deleteMcpServer',
      tag: 'MCP servers',
      summary: 'Delete an MCP server',
      params: ['org', 'ref'],
      ok: freeForm('What was deleted.'),
      okDescription: 'Deleted.',
      errors: ORG_ERRORS,
    }),
  },
  '/orgs/{org}/tags/{tagId}': {
    delete: operation({
      id: 'deleteTag',
      tag: 'Tags',
      summary: 'Delete a tag',
      params: ['org', 'tagId'],
      ok: freeForm('What was deleted.'),
      okDescription: 'Deleted.',
      errors: ORG_ERRORS,
    }),
  },
  ...retiredPaths(),
}

/** Every retired route, with and without the organization prefix, for every usual method. */
function retiredPaths(): Record<string, Json> {
  const methods = ['get', 'post', 'put', 'patch', 'delete'] as const
  const entries: [string, Json][] = []
  for (const {segment, idName, message} of RETIRED_ROUTES) {
    const variants = [
      {path: `/orgs/{org}/${segment}`, params: ['org'], scope: 'Org'},
      {path: `/orgs/{org}/${segment}/{${idName}}`, params: ['org', idName], scope: 'OrgItem'},
      {path: `/${segment}`, params: [], scope: ''},
      {path: `/${segment}/{${idName}}`, params: [idName], scope: 'Item'},
    ]
    for (const {path, params, scope} of variants) {
      const item: Json = {parameters: params.map((name) => (name === 'org' ? ref('parameters', 'org') : pathParam(name, 'ID of the retired resource.')))}
      for (const method of methods) {
        item[method] = {
          operationId: `retired${capitalize(segment)}${scope}${capitalize(method)}`,
          tags: ['Retired'],
          summary: `Retired: ${segment}`,
          description: message,
          deprecated: true,
          responses: {
            401: ref('responses', 'Unauthorized'),
            403: errorResponse('Retired route: the upgrade message names what replaced it.', {code: 'forbidden', message}),
            default: ref('responses', 'Error'),
          },
        }
      }
      entries.push([path, item])
    }
  }
  return Object.fromEntries(entries)
}

function capitalize(word: string): string {
  return word[0].toUpperCase() + word.slice(1)
}

export const openapiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Agent Measurement Control-Plane API',
    version: API_VERSION,
    description:
      'Control-plane operations of the Agent Measurement service. Every path is relative to {base_url}' +
      `${API_PREFIX}. Errors use the envelope {"error":{"code","message"}}; 402 carries insufficient_credits and 409 conflict or needs_provider_key.`,
  },
  servers: [{url: API_PREFIX, description: 'Relative to the server root ({base_url}).'}],
  security: [{bearerAuth: []}],
  tags: [
    {name: 'Meta', description: 'This description.'},
    {name: 'Authentication', description: 'Tokens, the command-line device flow, the calling user.'},
    {name: 'Organizations', description: 'Summary and implementation doc.'},
    {name: 'Runs', description: 'Run list and forking.'},
    {name: 'Agent Experience', description: 'Evals (eval sets): configuration and launch.'},
    {name: 'Credentials', description: 'Connections: metadata only, never secrets.'},
    {name: 'Agent Preference', description: 'Preference prompts and their repository/persona scenarios.'},
    {name: 'Experiments', description: 'Experiment launch and variant content.'},
    {name: 'Optimizations', description: 'Rounds, trial proposals, chat.'},
    {name: 'MCP servers', description: 'MCP servers.'},
    {name: 'Tags', description: 'Tags.'},
    {name: 'Retired', description: 'Compatibility routes that answer 403 with an upgrade message.'},
  ],
  paths,
  components: {
    securitySchemes: {
      bearerAuth: {type: 'http', scheme: 'bearer', bearerFormat: `${TOKEN_PREFIX}<token>`, description: 'A personal access token.'},
    },
    schemas,
    responses,
    parameters,
  },
} as const
