import {STATUS_CODES} from 'node:http'
import {type ApiErrorCode, STATUS_BY_CODE, apiCodeForStatus} from '../contract/vocabulary.js'
import type {Error as ErrorEnvelope} from '../contract/types.js'

/**
 * The code an error answer with `status` carries when nothing more specific is known: the API's
 * own code for it, else the status's name (`503` → `service_unavailable`).
 */
export function codeForStatus(status: number): string {
  const name = STATUS_CODES[status]
  return apiCodeForStatus(status) ?? (name === undefined ? `http_${status}` : name.toLowerCase().replace(/[^a-z0-9]+/g, '_'))
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
