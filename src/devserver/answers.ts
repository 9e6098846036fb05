import {documentOperations, type DocumentOperation, RETIRED_TAG, resolveRef, routePattern} from './openapi.js'
import {Router} from './router.js'
import {SchemaSet, schemaErrorText} from './schema.js'

/**
 * Answers checked against the OpenAPI document: the operation a request reaches (method and path,
 * as the dev server's router matches them), and whether an answer (status and JSON body) is one
 * the document gives that operation, through the same Ajv schemas as request bodies. The tests
 * hold every answer to it: the dev server's (test/devserver, the end-to-end suite) and the fake
 * API's stubs (test/helpers/fake-api.ts).
 */

type Json = {[key: string]: unknown}

export class DocumentAnswers {
  private readonly router = new Router<DocumentOperation>()

  constructor(private readonly schemas = new SchemaSet()) {
    // the most literal template first (`/orgs/{org}/runs` before a retired `/orgs/{org}/{x}`),
    // then what lies below a retired path, which answers the same on every path under it
    const literals = (path: string): number => path.split('/').filter((part) => part !== '' && !part.startsWith('{')).length
    const byLiterals = [...documentOperations].sort((a, b) => literals(b.path) - literals(a.path))
    for (const op of byLiterals) this.router.add(op.method, routePattern(op.path), op)
    for (const op of byLiterals) if (op.operation.tags?.includes(RETIRED_TAG)) this.router.add(op.method, `${routePattern(op.path)}/*`, op)
  }

  /** Compiles every answer's schema now (a test does it before it times anything). */
  compileAll(): void {
    for (const {operation} of documentOperations) {
      for (const response of Object.values(operation.responses as {[status: string]: Json})) {
        const schema = resolveRef<{content?: {[type: string]: {schema?: Json}}}>(response).content?.['application/json']?.schema
        if (schema !== undefined) this.schemas.compile(schema)
      }
    }
  }

  /** The document's operation for a method and a request path (with /api/v1, maybe a query). */
  operation(method: string, path: string): DocumentOperation | undefined {
    // (the router decodes the parameters it fills: escaped, a malformed one still matches as the server's would)
    return this.router.match(method.toUpperCase(), path.split('?')[0].replaceAll('%', '%25'))?.handler
  }

  /**
   * What is wrong with an answer, or undefined when the document gives it: a documented status
   * (or `default`) whose JSON schema the body meets. `body` is undefined when the answer is not
   * JSON. A path the document does not have may only answer 404 with the error envelope.
   */
  problem(method: string, path: string, status: number, body: unknown): string | undefined {
    const op = this.operation(method, path)
    const at = `${method.toUpperCase()} ${path.split('?')[0]}`
    let schema: Json | undefined
    if (op === undefined) {
      if (status !== 404) return `${at} answered ${status}, but the document has no such operation`
      schema = {$ref: '#/components/schemas/Error'}
    } else {
      const responses = op.operation.responses as {[status: string]: Json | undefined}
      const response = responses[String(status)] ?? responses.default
      if (response === undefined) return `${at} (${op.operation.operationId ?? op.path}): status ${status} is not documented`
      schema = resolveRef<{content?: {[type: string]: {schema?: Json}}}>(response).content?.['application/json']?.schema
      if (schema === undefined) return `${at}: status ${status} has no JSON schema in the document`
    }
    if (body === undefined) return `${at} answered ${status} without a JSON body`
    const validate = this.schemas.compile(schema)
    return validate(body) ? undefined : `${at} → ${status} does not match the document: ${schemaErrorText(validate.errors, 'the answer')}`
  }
}
