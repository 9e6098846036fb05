import {invalid} from './errors.js'

/**
 * Path patterns are `/`-separated segments: literals, `:name` parameters, and a final `*`
 * that matches any number (zero included) of remaining segments. Method `*` matches any method;
 * HEAD matches GET routes (Node leaves the body out).
 */
export interface RouteMatch<H> {
  handler: H
  params: Record<string, string>
}

interface Route<H> {
  method: string
  segments: string[]
  handler: H
}

export class Router<H> {
  private readonly routes: Route<H>[] = []

  add(method: string, pattern: string, handler: H): this {
    this.routes.push({method: method.toUpperCase(), segments: split(pattern), handler})
    return this
  }

  /** Every route, in the order added: method, pattern and handler. */
  list(): {method: string; pattern: string; handler: H}[] {
    return this.routes.map((route) => ({method: route.method, pattern: `/${route.segments.join('/')}`, handler: route.handler}))
  }

  /** The first route (in the order added) matching method and path, else undefined. */
  match(method: string, path: string): RouteMatch<H> | undefined {
    const segments = split(path)
    for (const route of this.routes) {
      if (route.method !== '*' && route.method !== method && !(method === 'HEAD' && route.method === 'GET')) continue
      const params = matchSegments(route.segments, segments)
      if (params) return {handler: route.handler, params}
    }
    return undefined
  }
}

function split(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '')
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {}
  for (const [i, part] of pattern.entries()) {
    if (part === '*') return params
    const segment = actual[i]
    if (segment === undefined) return undefined
    if (part.startsWith(':')) params[part.slice(1)] = decode(segment)
    else if (part !== segment) return undefined
  }
  return pattern.length === actual.length ? params : undefined
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw invalid(`malformed percent-encoding in path segment "${segment}"`)
  }
}
