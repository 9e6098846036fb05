/**
 * The contract's vocabulary: names, limits, codes and rules that the CLI and the local control
 * plane share (cli-contract.md; api-spec.md). This is the bottom room of the house: it imports
 * nothing, and everything else may import it. Each value here exists once; test/contract
 * checks the ones the OpenAPI document also states (src/contract/openapi.json) against it.
 */

/** Path prefix every endpoint lives under. */
export const API_PREFIX = '/api/v1'

/** `info.version` of the OpenAPI document. */
export const API_VERSION = '0.14.0'

/** Tokens are `svc_<opaque>`. */
export const TOKEN_PREFIX = 'svc_'

/** A control character as the contract counts them: C0, DEL and C1 (U+009B is a terminal's CSI). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this matches
export const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/

/** A token: `svc_` and more, with no whitespace or control characters (contract 1.3). */
export function isTokenForm(token: string): boolean {
  return token.startsWith(TOKEN_PREFIX) && token.length > TOKEN_PREFIX.length && !/\s/.test(token) && !CONTROL_CHARACTER.test(token)
}

/** Query parameter that carries the device code while polling `POST /cli/token`. */
export const DEVICE_CODE_PARAM = 'deviceCode'

/** Device-flow polling interval (contract 2): 5 s when absent, clamped to 1–60 s. */
export const DEVICE_INTERVAL = {default: 5, min: 1, max: 60} as const

/** Error codes of the API's envelope (spec "Errors"). */
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

/** The HTTP status each API error code is answered with (spec "Errors"; contract 1.5). */
export const STATUS_BY_CODE: Readonly<Record<ApiErrorCode, number>> = {
  invalid_request: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  needs_provider_key: 409,
  rate_limited: 429,
}

/** The code an error answer with `status` carries (the first listed for it: 409 is `conflict`), if the API has one. */
export function apiCodeForStatus(status: number): ApiErrorCode | undefined {
  return API_ERROR_CODES.find((code) => STATUS_BY_CODE[code] === status)
}

/**
 * The exit codes of contract 1.5, and 143 (SIGTERM: 128 + 15, the shell's convention), amctl's
 * choice where the contract is silent (docs/scripting.md "Errors and exit codes").
 */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  forbidden: 4,
  notFound: 5,
  conflict: 6,
  rateLimited: 7,
  account: 8,
  outcomeUnknown: 9,
  notPassed: 10,
  waitTimeout: 11,
  interrupted: 130,
  /** SIGTERM (a cancelled or timed-out CI job, `timeout(1)`, Kubernetes): as Ctrl-C, with 128 + 15 */
  terminated: 143,
} as const

/** Exit code by envelope code (contract 1.5). */
export const EXIT_BY_CODE: Readonly<Record<ApiErrorCode, number>> = {
  invalid_request: ExitCode.usage,
  unauthorized: ExitCode.auth,
  forbidden: ExitCode.forbidden,
  not_found: ExitCode.notFound,
  conflict: ExitCode.conflict,
  rate_limited: ExitCode.rateLimited,
  insufficient_credits: ExitCode.account,
  needs_provider_key: ExitCode.account,
}

/** Exit code by HTTP status when the body is not the envelope (contract 1.5); any other → 1. */
export const EXIT_BY_STATUS: Readonly<Record<number, number>> = {
  400: ExitCode.usage,
  401: ExitCode.auth,
  402: ExitCode.account,
  403: ExitCode.forbidden,
  404: ExitCode.notFound,
  409: ExitCode.conflict,
  429: ExitCode.rateLimited,
}

/** Collections: `{"items":[…],"nextCursor":…}`; the cursor goes back as `?cursor=`. */
export interface Page<T> {
  items: T[]
  nextCursor?: string | null
}

/** `limit` of `GET /orgs/{org}/runs`: bounds and the size of a page without it. */
export const PAGE_LIMIT = {min: 1, max: 200, default: 50} as const

/** Eval set cadence (spec "Eval configuration"). */
export const CADENCES = ['NONE', 'DAILY', 'WEEKLY', 'MONTHLY'] as const
export type Cadence = (typeof CADENCES)[number]

/** Samples per target of an eval set. */
export const SAMPLES = {min: 1, max: 50} as const

/** Token lifetime `<N>d` (contract 2): N from 1 to 3650. */
export const TOKEN_EXPIRY_DAYS = {min: 1, max: 3650} as const

/** The days of an expiry written `<N>d` within bounds (N without leading zeros, as the document's pattern has it), else undefined. */
export function expiryDays(text: string): number | undefined {
  const m = /^([1-9]\d{0,5})d$/.exec(text)
  if (!m) return undefined
  const days = Number(m[1])
  return days >= TOKEN_EXPIRY_DAYS.min && days <= TOKEN_EXPIRY_DAYS.max ? days : undefined
}

/** Run statuses (contract 5); the last three are terminal. Any other value counts as not finished. */
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const
export const TERMINAL_RUN_STATUSES: readonly string[] = ['succeeded', 'failed', 'cancelled']

/**
 * Why `value` cannot be sent as an ID, or undefined when it can (contract 3): every ID is one
 * percent-encoded path segment whatever it holds; only the empty one, `.` and `..` (URL parsers
 * fold them even encoded) and IDs holding control characters are refused.
 */
export function idProblem(value: string): string | undefined {
  if (value === '') return 'must not be empty'
  if (value === '.' || value === '..') return `cannot be "${value}"`
  if (CONTROL_CHARACTER.test(value)) return 'must not contain control characters'
  return undefined
}

/**
 * 127.0.0.0/8, ::1 (bracketed or not) and localhost: only this machine, the names contract 1.2
 * lists. Not `*.localhost`: RFC 6761 asks resolvers to keep it on this machine, but Node asks
 * the system's resolver, which may send it to DNS like any other name.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (host === 'localhost' || host === '::1') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}
