/**
 * The one place where the members the API spec leaves "not shown" are fixed (cli-contract.md,
 * preamble). The CLI, the local control plane (src/devserver) and the OpenAPI document
 * (src/api/openapi.ts) all use these names; nothing else spells them.
 */

/** Path prefix every endpoint lives under. */
export const API_PREFIX = '/api/v1'

/** Token prefix: tokens are `svc_<opaque>`. */
export const TOKEN_PREFIX = 'svc_'

/** Error codes of the API's envelope, plus the ones the CLI produces locally. */
export const API_ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'rate_limited',
  'insufficient_credits',
  'needs_provider_key',
] as const
export type ApiErrorCode = (typeof API_ERROR_CODES)[number]

/** `{"error":{"code","message"}}` — every non-success response. */
export interface ErrorEnvelope {
  error: {code: string; message: string}
}

/** Collections: `{"items":[…],"nextCursor":…}`; the cursor goes back as `?cursor=`. */
export interface Page<T> {
  items: T[]
  nextCursor?: string | null
}
export const PAGE_LIMIT_MIN = 1
export const PAGE_LIMIT_MAX = 200

/** `GET /me` (contract 1.1). Other members pass through. */
export interface OrgRef {
  slug: string
  publicId: string
  name: string
}
export interface Me {
  id: string
  email: string
  name: string
  orgs: OrgRef[]
  [extra: string]: unknown
}

/** `POST /cli/token` (contract 2). */
export interface CliTokenGranted {
  token: string
  [extra: string]: unknown
}
export interface CliTokenDeviceStart {
  deviceCode: string
  userCode: string
  verificationUri: string
  /** seconds between polls */
  interval?: number
  /** seconds until the device code expires */
  expiresIn?: number
}
export type DevicePollStatus = 'pending' | 'denied' | 'expired'
export interface CliTokenPoll {
  status: DevicePollStatus
}
/** Query parameter that carries the device code while polling. */
export const DEVICE_CODE_PARAM = 'deviceCode'

/** `POST /tokens` request and response. */
export interface CreateTokenBody {
  name: string
  /** `<N>d`, N 1–3650 */
  expiresIn: string
}
export interface CreatedToken {
  id: string
  name: string
  token: string
  expiresAt: string
  createdAt: string
  [extra: string]: unknown
}
export const TOKEN_EXPIRY_MAX_DAYS = 3650

/** A run as listed by `GET /orgs/{org}/runs` and returned by fork. */
export interface Run {
  id: string
  status: string
  evalSetId: string | null
  batchId: string | null
  createdAt: string
  /** the run this one was forked from, when it is a fork */
  forkedFrom?: string | null
  [extra: string]: unknown
}

/** A connection (service credential): metadata only, never a secret. */
export interface Connection {
  id: string
  name: string
  allowedHosts: string[]
  [extra: string]: unknown
}

/** Eval set configuration and its PATCH body members. */
export const CADENCES = ['NONE', 'DAILY', 'WEEKLY', 'MONTHLY'] as const
export type Cadence = (typeof CADENCES)[number]
export const SAMPLES_MIN = 1
export const SAMPLES_MAX = 50
export interface EvalSetPatch {
  cadence?: Cadence
  samplesPerTarget?: number
  connectionIds?: string[]
  [other: string]: unknown
}
export interface EvalSet {
  id: string
  name: string
  cadence: Cadence
  samplesPerTarget: number
  connectionIds: string[]
  [extra: string]: unknown
}

/** `POST /orgs/{org}/eval-sets/{id}/run` response. */
export interface LaunchResult {
  batchIds: string[]
  runIds: string[]
  [extra: string]: unknown
}

/** `POST /orgs/{org}/visibility-prompts/{id}/scenarios` body. */
export interface ScenarioBody {
  repository: string
  persona: string
}

/** `POST /orgs/{org}/optimizations/{id}/chat` body. */
export interface ChatBody {
  message: string
}

/** Generic free-form JSON object (spec endpoint rule 1). */
export type JsonObject = {[key: string]: unknown}
