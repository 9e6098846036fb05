import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {documentOperations, generatedLine} from './contract.js'

/**
 * src/devserver/dev-routes.ts, from src/devserver/dev-openapi.json (the dev server's test hooks
 * under /_dev/, a document of their own): each hook's method and path by operationId, which the
 * dev server registers its handlers on, and the hooks as `amctl dev server --help` lists them
 * (a module of its own, so that the command's help does not load the document).
 */
export function devRoutesFile(root: string): [string, string] {
  const documentPath = 'src/devserver/dev-openapi.json'
  const doc = JSON.parse(readFileSync(join(root, documentPath), 'utf8'))
  const ops = documentOperations(doc)
  const route = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1')
  const rows = ops.map(({id, method, path}) => `  ${id}: {method: '${method}', path: '${route(path)}'},`)
  const hooks = ops.map(({method, path, operation}) => {
    const hook: Record<string, string> = {method, path: route(path), summary: operation.summary}
    if (operation.description) hook.details = operation.description
    const query = (operation.parameters ?? []).filter((p: {in?: string}) => p.in === 'query')
    if (query.length > 0) hook.query = `?${query.map((p: {name: string; example: string}) => `${p.name}=${p.example}`).join('&')}`
    const example = operation.requestBody?.content?.['application/json']?.example
    if (example !== undefined) hook.example = JSON.stringify(example)
    return `  ${JSON.stringify(hook)},`
  })
  const text = `// ${generatedLine(documentPath)}

/** Each test hook's method and path (below /_dev, \`:name\` a path parameter), by the dev document's operationId. */
export const DEV_ROUTES = {
${rows.join('\n')}
} as const

export type DevOperationId = keyof typeof DEV_ROUTES

export interface HookDoc {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** below /_dev; \`:name\` is a path parameter */
  path: string
  /** what it does, in a few words */
  summary: string
  /** its body's members and effects, when there is more to say */
  details?: string
  /** a query string for the example (\`?…\`) */
  query?: string
  /** a working example of the body (JSON text), if it takes one */
  example?: string
}

/** Every hook under /_dev/, as \`amctl dev server --help\` documents it (with a working example each). */
export const HOOKS: readonly HookDoc[] = [
${hooks.join('\n')}
]
`
  return ['src/devserver/dev-routes.ts', text]
}

/**
 * src/devserver/state-types.ts, the types of a `--data` file, from its JSON Schema
 * (src/devserver/state-schema.ts) by json-schema-to-typescript: each `title` a type, each
 * `description` its comment. The schema's `$ref`s to the API document become the document's types
 * (src/contract/types.ts), and a bare JSON object `JsonObject`: the generator would otherwise
 * restate those schemas, or type free objects as an index signature of `unknown`.
 */
export async function stateTypesFile(): Promise<[string, string]> {
  const [{compile}, {STATE_SCHEMA}] = await Promise.all([
    import('json-schema-to-typescript'),
    import('../../src/devserver/state-schema.js'),
  ])
  const used = new Set<string>()
  const forTypes = (schema: unknown): unknown => {
    if (Array.isArray(schema)) return schema.map(forTypes)
    if (typeof schema !== 'object' || schema === null) return schema
    const {$ref, ...rest} = schema as Record<string, unknown>
    if (typeof $ref === 'string') {
      const name = $ref.replace('#/components/schemas/', '')
      used.add(name)
      return {...rest, tsType: name}
    }
    const freeObject = rest.properties === undefined && rest.additionalProperties === undefined
    if (freeObject && rest.type === 'object') {
      used.add('JsonObject')
      return {...rest, type: undefined, tsType: 'JsonObject'}
    }
    if (freeObject && Array.isArray(rest.type) && rest.type.join() === 'object,null') {
      used.add('JsonObject')
      return {...rest, type: undefined, tsType: 'JsonObject | null'}
    }
    return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, forTypes(value)]))
  }
  const schema = forTypes(STATE_SCHEMA) as Parameters<typeof compile>[0]
  const types = await compile(schema, 'State', {
    bannerComment: '',
    additionalProperties: false,
    format: true,
    style: {semi: false, singleQuote: true, printWidth: 140, bracketSpacing: false},
  })
  const source = 'src/devserver/state-schema.ts'
  const text = `// ${generatedLine(`${source} (json-schema-to-typescript)`)}

import type {${[...used].sort().join(', ')}} from '../contract/types.js'

${types.trim()}
`
  return ['src/devserver/state-types.ts', text]
}
