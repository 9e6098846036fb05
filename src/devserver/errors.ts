import {type ApiErrorCode, STATUS_BY_CODE} from '../contract/vocabulary.js'
import type {ErrorEnvelope} from '../contract/types.js'

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  402: 'insufficient_credits',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'invalid_request',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
}

/** The code an error answer with `status` carries when nothing more specific is known. */
export function codeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request')
}

/** The one error envelope: `{"error":{"code","message"}}`. */
export function envelope(code: string, message: string): ErrorEnvelope {
  return {error: {code, message}}
}

/** Thrown by handlers; the server turns it into the envelope with its status. */
export class ApiError extends Error {
  readonly status: number
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    status?: number,
  ) {
    super(message)
    this.status = status ?? STATUS_BY_CODE[code]
  }
}

export const invalid = (message: string): ApiError => new ApiError('invalid_request', message)
export const notFound = (message: string): ApiError => new ApiError('not_found', message)
export const forbidden = (message: string): ApiError => new ApiError('forbidden', message)
export const unauthorized = (message: string): ApiError => new ApiError('unauthorized', message)
export const conflict = (message: string): ApiError => new ApiError('conflict', message)
