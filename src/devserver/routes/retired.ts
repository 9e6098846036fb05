import {API_PREFIX} from '../../contract/vocabulary.js'
import type {ApiRouter} from '../context.js'
import {forbidden} from '../errors.js'
import {openapiDocument} from '../openapi.js'

/**
 * Retired routes (spec endpoint rule 4), as the OpenAPI document describes them (operations
 * tagged `Retired`, the upgrade message as their description): any method, with or without the
 * organization prefix and below, answers 403 with that message.
 */
export function retiredRoutes(): {segment: string; message: string}[] {
  const found = new Map<string, string>()
  for (const [path, item] of Object.entries(openapiDocument.paths)) {
    for (const operation of Object.values(item as Record<string, {tags?: string[]; description?: string}>)) {
      if (!operation.tags?.includes('Retired') || operation.description === undefined) continue
      const segment = path.replace(/^\/orgs\/\{org\}/, '').split('/')[1]
      found.set(segment, operation.description)
    }
  }
  return [...found].map(([segment, message]) => ({segment, message}))
}

export function registerRetired(router: ApiRouter): void {
  for (const {segment, message} of retiredRoutes()) {
    const retired = (): never => {
      throw forbidden(message)
    }
    router.authed('*', `${API_PREFIX}/orgs/:org/${segment}/*`, retired, {persist: false})
    router.authed('*', `${API_PREFIX}/${segment}/*`, retired, {persist: false})
  }
}
