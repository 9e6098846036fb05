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
