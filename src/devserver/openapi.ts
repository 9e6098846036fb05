import document from '../contract/openapi.json' with {type: 'json'}
import devDocumentJson from './dev-openapi.json' with {type: 'json'}
import {API_PREFIX} from '../contract/vocabulary.js'

/** The OpenAPI document (src/contract/openapi.json), the single description of the API. */
export const openapiDocument = document as unknown as OpenApiDocument

/** The test hooks' own OpenAPI document (./dev-openapi.json): the paths below /_dev, tagged `Dev`. */
export const devDocument = devDocumentJson as unknown as OpenApiDocument

type Json = {[key: string]: unknown}

export interface OpenApiOperation {
  operationId?: string
  tags?: string[]
  /** `[]`: no authentication */
  security?: unknown[]
  requestBody?: {required?: boolean; content?: {[type: string]: {schema?: Json}}} | {$ref: string}
  responses: Json
}

export interface OpenApiPathItem {
  $ref?: string
  summary?: string
  description?: string
  [method: string]: unknown
}

export interface OpenApiDocument {
  openapi: string
  info: {version: string}
  paths: {[path: string]: OpenApiPathItem}
  components: Json
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** One operation of the document, its path item's `$ref` resolved. */
export interface DocumentOperation {
  /** upper case */
  method: string
  /** the path template, relative to /api/v1 */
  path: string
  operation: OpenApiOperation
  /** the path item as `paths` holds it: a shared item's `summary`/`description` sit beside its `$ref` */
  entry: OpenApiPathItem
}

/** A local reference (`#/components/…`) of the document (of `doc`, the API's unless given). */
export function resolveRef<T>(node: T | {$ref: string}, doc: OpenApiDocument = openapiDocument): T {
  let current: unknown = node
  for (let hops = 0; typeof current === 'object' && current !== null && '$ref' in current; hops += 1) {
    const ref = (current as {$ref: string}).$ref
    if (!ref.startsWith('#/') || hops > 16) throw new Error(`unsupported reference ${ref} in the OpenAPI document`)
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((into, part) => (into as Json | undefined)?.[part], doc)
    if (current === undefined) throw new Error(`unresolved reference ${ref} in the OpenAPI document`)
  }
  return current as T
}

function operationsOf(doc: OpenApiDocument): DocumentOperation[] {
  return Object.entries(doc.paths).flatMap(([path, entry]) => {
    const item = entry.$ref === undefined ? entry : {...resolveRef<OpenApiPathItem>({$ref: entry.$ref}, doc), ...withoutRef(entry)}
    return METHODS.filter((method) => item[method] !== undefined).map((method) => ({
      method: method.toUpperCase(),
      path,
      operation: item[method] as OpenApiOperation,
      entry,
    }))
  })
}

export const documentOperations: readonly DocumentOperation[] = operationsOf(openapiDocument)

/** The test hooks' operations (paths relative to /_dev). */
export const devOperations: readonly DocumentOperation[] = operationsOf(devDocument)

function withoutRef(entry: OpenApiPathItem): OpenApiPathItem {
  const {$ref: _ref, ...rest} = entry
  return rest
}

/** A path template of the document as a router pattern: `/orgs/{org}/runs` → `/api/v1/orgs/:org/runs`. */
export function routePattern(template: string): string {
  return API_PREFIX + template.replace(/\{([^}]+)\}/g, ':$1')
}

export const RETIRED_TAG = 'Retired'
