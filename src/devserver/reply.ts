import {type ApiError, envelope} from './errors.js'

export const JSON_TYPE = 'application/json; charset=utf-8'
export const HTML_TYPE = 'text/html; charset=utf-8'

/** What a handler answers; the server decides how (and whether) it reaches the socket. */
export interface Reply {
  status: number
  contentType: string
  headers: Record<string, string>
  body: string
}

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return {status, contentType: JSON_TYPE, headers, body: JSON.stringify(data)}
}

export function html(page: string, status = 200): Reply {
  return {status, contentType: HTML_TYPE, headers: {}, body: page}
}

export function errorReply(error: ApiError): Reply {
  return json(envelope(error.code, error.message), error.status, {...error.headers})
}
