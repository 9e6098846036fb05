import {idProblem} from '../../contract/vocabulary.js'
import {type OperationId, type ParamsOf, ROUTES} from '../../contract/routes.js'
import {UsageError} from '../errors.js'

/**
 * Percent-encodes one path segment taken from user input (contract 3): whatever it holds
 * (`/ ? # %`, spaces, non-ASCII) it stays one segment. The empty ID, `.`, `..` and control
 * characters cannot be sent safely and are refused (exit 2, nothing sent).
 */
export function segment(value: string, label = 'an ID'): string {
  const problem = idProblem(value)
  if (problem !== undefined) throw new UsageError(`${label} ${problem}, got ${JSON.stringify(value)}`)
  return encodeURIComponent(value)
}

/** The path of an operation (relative to /api/v1) with every `{param}` filled as one encoded segment. */
export function routePath<Id extends OperationId>(id: Id, params: ParamsOf<Id>): string {
  const values = params as Record<string, string>
  return ROUTES[id].path.replace(/\{([^}]+)\}/g, (_, name: string) => segment(values[name], name))
}

/** Appends a query string built from the defined values, in the given order. */
export function withQuery(path: string, query: Record<string, string | number | boolean | undefined | null>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value))
  }
  const qs = params.toString()
  if (!qs) return path
  return path + (path.includes('?') ? '&' : '?') + qs
}
