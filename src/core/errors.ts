import {EXIT_BY_CODE, EXIT_BY_STATUS, ExitCode} from '../contract/vocabulary.js'

/**
 * The error model of amctl (cli-contract.md 1.5). Every failure a command can meet ends up as
 * an AmctlError: it knows its machine code, its exit code, the HTTP status when there was one,
 * and at most one hint. The error presenter (src/output/present.ts) turns it into the one-line
 * stderr message or the `--json` error document; nothing else prints errors.
 *
 * Guards use a brand and `name` instead of `instanceof`, so they work across module copies.
 */

export {ExitCode} from '../contract/vocabulary.js'

/** Exit code for an HTTP status alone (any status not in the table → 1). */
export function exitCodeForStatus(status: number): number {
  return EXIT_BY_STATUS[status] ?? ExitCode.failure
}

/** Exit code for an envelope code, falling back to the status when the code is not ours. */
export function exitCodeFor(code: string, status?: number): number {
  return (EXIT_BY_CODE as Record<string, number>)[code] ?? (status === undefined ? ExitCode.failure : exitCodeForStatus(status))
}

/** Folds a message onto one line: newlines (and the space around them) become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim()
}

/**
 * A failed system call in libuv's own words and its code: `permission denied (EACCES)` from
 * `EACCES: permission denied, open '…'` (so no table of errnos here); any other error, its message.
 */
export function errnoWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const message = String((error as Error | undefined)?.message ?? error)
  if (!code) return message
  const words = new RegExp(`^${code}: ([^,]+)`).exec(message)?.[1]
  return `${words ?? message} (${code})`
}

export interface ErrorDocument {
  error: {code: string; message: string; status?: number; requestId?: string; context?: string}
}

/**
 * amctl's own words about a failure it did not word itself: what the failed request was about
 * (`organization "acme" not found`, `page 2 of the runs of acme (cursor c1) not found`). The
 * message stays the server's, unchanged; the error presenter puts the two together on the human
 * line, saying each thing once (src/output/present.ts), and `--json` carries it as
 * `error.context` beside the server's message.
 */
export interface ErrorContext {
  text: string
  /** words naming the subject of `text` (its kind, its ID): a message holding one already says what `text` would add */
  names: readonly string[]
}

const BRAND = Symbol.for('amctl.error')

/** The HTTP answer an error was made from, as it came (what `amctl api -i` shows of a failed request). */
export interface ErrorAnswer {
  status: number
  statusText: string
  headers: Record<string, string>
  text: string
}

export interface AmctlErrorOptions {
  code: string
  exitCode?: number
  status?: number
  hint?: string
  requestId?: string
  cause?: unknown
  answer?: ErrorAnswer
  context?: ErrorContext
}

export class AmctlError extends Error {
  readonly [BRAND] = true
  override name = 'AmctlError'
  readonly code: string
  readonly exitCode: number
  readonly status?: number
  hint?: string
  requestId?: string
  /** the HTTP answer this error was made from, when there was one */
  readonly answer?: ErrorAnswer
  /** what amctl knows the failed request was about (see ErrorContext); set once, by the innermost layer that knows */
  context?: ErrorContext
  constructor(message: string, opts: AmctlErrorOptions) {
    super(oneLine(message), opts.cause === undefined ? undefined : {cause: opts.cause})
    this.code = opts.code
    this.status = opts.status
    this.exitCode = opts.exitCode ?? exitCodeFor(opts.code, opts.status)
    this.hint = opts.hint
    this.requestId = opts.requestId
    this.answer = opts.answer
    this.context = opts.context
  }

  toDocument(): ErrorDocument {
    const error: ErrorDocument['error'] = {code: this.code, message: this.message}
    if (this.status !== undefined) error.status = this.status
    if (this.requestId) error.requestId = this.requestId
    if (this.context) error.context = this.context.text
    return {error}
  }
}

export function isAmctlError(error: unknown): error is AmctlError {
  return typeof error === 'object' && error !== null && (error as {[BRAND]?: boolean})[BRAND] === true
}

/**
 * Gives a 404 (`not_found` with an HTTP status) the context of the request that met it, unless an
 * inner layer, knowing more, gave it one already (a later page's context wins over the
 * organization's). Any other error is returned as it is.
 */
export function inNotFound(error: unknown, context: ErrorContext): unknown {
  if (isAmctlError(error) && error.code === 'not_found' && error.status !== undefined) error.context ??= context
  return error
}

/** A file of amctl's own (config, credentials) that does not parse: exit 1, naming the file. */
export function corruptFileError(file: string, cause: unknown): AmctlError {
  return new AmctlError(`${file} is not valid JSON (${(cause as Error).message}); fix or delete it`, {
    code: 'invalid_config',
    exitCode: 1,
    cause,
  })
}

/** Invalid usage or input found locally, before any request: exit 2, code invalid_request. */
export class UsageError extends AmctlError {
  override name = 'UsageError'
  constructor(message: string, hint?: string) {
    super(message, {code: 'invalid_request', exitCode: ExitCode.usage, hint})
  }
}

/** The hint of a missing or rejected token when nothing more is known (a command knows more: src/base/api-command.ts). */
export const LOGIN_HINT = 'run `amctl auth login`'

/** No token anywhere (env, keychain, file): exit 3. */
export class NotLoggedInError extends AmctlError {
  override name = 'NotLoggedInError'
  constructor(message = 'not logged in', hint = LOGIN_HINT) {
    super(message, {code: 'unauthorized', exitCode: ExitCode.auth, hint})
  }
}

/** The server answered with the error envelope. */
export class ApiError extends AmctlError {
  override name = 'ApiError'
  constructor(message: string, opts: {code: string; status: number; requestId?: string; hint?: string; answer?: ErrorAnswer}) {
    super(message, opts)
  }
}

/** The server answered, but not with what was expected (HTML, cut-off JSON, wrong type …). */
export class BadResponseError extends AmctlError {
  override name = 'BadResponseError'
  constructor(message: string, opts: {status?: number; requestId?: string; cause?: unknown; answer?: ErrorAnswer} = {}) {
    // a 2xx/3xx/5xx that is not the envelope is "unexpected" (1); a 4xx keeps its meaning
    super(message, {code: 'bad_response', exitCode: opts.status === undefined ? 1 : exitCodeForStatus(opts.status), ...opts})
  }
}

/** The request could not be completed at the network level (refused, DNS, reset, timeout). */
export class NetworkError extends AmctlError {
  override name = 'NetworkError'
  constructor(message: string, cause?: unknown) {
    super(message, {code: 'network_error', exitCode: ExitCode.failure, cause})
  }
}

export const OUTCOME_UNKNOWN_MESSAGE = 'the server may have accepted the request; check before retrying'

/** A create/launch POST was sent and no answer came: never resubmitted, exit 9. */
export class OutcomeUnknownError extends AmctlError {
  override name = 'OutcomeUnknownError'
  constructor(detail: string, cause?: unknown) {
    super(`${detail}: ${OUTCOME_UNKNOWN_MESSAGE}`, {code: 'outcome_unknown', exitCode: ExitCode.outcomeUnknown, cause})
  }
}

export function isOutcomeUnknown(error: unknown): error is OutcomeUnknownError {
  return isAmctlError(error) && error.code === 'outcome_unknown'
}
