import type {ApiRouter} from '../context.js'
import {forbidden} from '../errors.js'
import {documentOperations, RETIRED_TAG, routePattern} from '../openapi.js'

/**
 * Retired routes (spec endpoint rule 4), as the OpenAPI document describes them: the paths whose
 * operations are tagged `Retired`, the upgrade message as the path's description. Any method on
 * such a path, or below it, answers 403 with that message.
 */
export interface RetiredRoute {
  /** path template relative to /api/v1, e.g. `/orgs/{org}/presets` */
  path: string
  message: string
}

export function retiredRoutes(): RetiredRoute[] {
  const found = new Map<string, string>()
  for (const {path, operation, entry} of documentOperations) {
    if (!operation.tags?.includes(RETIRED_TAG)) continue
    if (entry.description === undefined) throw new Error(`retired path ${path} has no upgrade message (description)`)
    found.set(path, entry.description)
  }
  const paths = [...found.keys()]
  // `/presets/{retiredId}` is already below `/presets`
  return paths
    .filter((path) => !paths.some((other) => path.startsWith(`${other}/`)))
    .map((path) => ({path, message: found.get(path) ?? ''}))
}

export function registerRetired(router: ApiRouter): void {
  for (const {path, message} of retiredRoutes()) {
    const retired = (): never => {
      throw forbidden(message)
    }
    router.authed('*', `${routePattern(path)}/*`, retired, {persist: false})
  }
}
