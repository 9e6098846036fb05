import {Ajv2020, type ErrorObject, type ValidateFunction} from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type {JsonObject} from '../contract/types.js'
import {invalid} from './errors.js'
import {
  devDocument,
  devOperations,
  documentOperations,
  openapiDocument,
  resolveRef,
  type OpenApiDocument,
  type OpenApiOperation,
} from './openapi.js'
import {describeValue, parseJsonBody} from './validate.js'

/**
 * JSON Schema checks with Ajv (draft 2020-12, the dialect of OpenAPI 3.1): request bodies against
 * the OpenAPI document, and the `--data` file against the state's schema. Every failure becomes
 * one readable line.
 */

type Schema = {[key: string]: unknown}

// ajv-formats is CommonJS whose `default` TypeScript sees one level too deep under NodeNext
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

/**
 * An Ajv whose schemas can use `#/components/…` references of the OpenAPI document: each schema
 * is compiled inside a root that also holds the components (an annotation for Ajv).
 */
export class SchemaSet {
  private readonly ajv = new Ajv2020({allowUnionTypes: true, verbose: true})
  private readonly compiled = new WeakMap<Schema, ValidateFunction>()

  constructor() {
    // OpenAPI's own annotation besides JSON Schema's `examples`
    this.ajv.addVocabulary(['components', 'example'])
    addFormats(this.ajv)
  }

  /** The schema's check, compiled on first use (the same schema object gives the same function). */
  compile(schema: Schema): ValidateFunction {
    let validate = this.compiled.get(schema)
    if (validate === undefined) {
      validate = this.ajv.compile({...schema, components: openapiDocument.components})
      this.compiled.set(schema, validate)
    }
    return validate
  }
}

/** The one line a failed check answers: the first error Ajv reports, with the member it is about. */
export function schemaErrorText(errors: ErrorObject[] | null | undefined, root: string): string {
  const error = errors?.[0]
  if (error === undefined) return `${root} is not valid`
  const at = memberName(error.instancePath)
  const member = at === '' ? root : at
  const schema = (error.parentSchema ?? {}) as {[key: string]: unknown}
  const got = `, got ${describeValue(error.data)}`
  const params = error.params as {[key: string]: unknown}
  switch (error.keyword) {
    case 'required':
      return `${at === '' ? '' : `${at}.`}${String(params.missingProperty)} is required`
    case 'type':
      return `${member} must be ${typeNames(params.type)}${got}`
    case 'enum':
      return `${member} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}${got}`
    case 'const':
      return `${member} must be ${JSON.stringify(params.allowedValue)}${got}`
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${member} must be ${bounds(schema)}${got}`
    case 'minLength':
      if (params.limit === 1) return `${member} must be a non-empty string${got}`
      return `${member} must be at least ${String(params.limit)} characters long${got}`
    case 'pattern':
      // the schema's description says what the pattern means better than the pattern does
      if (typeof schema.description === 'string') return `${member} must be ${schema.description.replace(/\.$/, '')}${got}`
      return `${member} must be a string matching ${String(params.pattern)}${got}`
    case 'false schema':
      // the document marks read-only members of a request body with the schema `false`
      return `${member} is read-only`
    default:
      return `${member} ${error.message ?? 'is not valid'}`
  }
}

/** `/connectionIds/0` → `connectionIds[0]`; `/notes/owner` → `notes.owner`. */
function memberName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name === '' ? part : `${name}.${part}`), '')
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  object: 'a JSON object',
  array: 'an array',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
}

function typeNames(type: unknown): string {
  return String(type)
    .split(',')
    .map((name) => TYPE_NAMES[name] ?? name)
    .join(' or ')
}

function bounds(schema: {[key: string]: unknown}): string {
  const kind = schema.type === 'integer' ? 'an integer' : 'a number'
  const low = schema.minimum ?? schema.exclusiveMinimum
  const high = schema.maximum ?? schema.exclusiveMaximum
  if (schema.minimum !== undefined && schema.maximum !== undefined) return `${kind} from ${String(low)} to ${String(high)}`
  const parts = [
    schema.minimum === undefined ? undefined : `at least ${String(schema.minimum)}`,
    schema.exclusiveMinimum === undefined ? undefined : `greater than ${String(schema.exclusiveMinimum)}`,
    schema.maximum === undefined ? undefined : `at most ${String(schema.maximum)}`,
    schema.exclusiveMaximum === undefined ? undefined : `less than ${String(schema.exclusiveMaximum)}`,
  ].filter((part) => part !== undefined)
  return `${kind} ${parts.join(' and ')}`
}

interface BodyRule {
  required: boolean
  validate: ValidateFunction
}

/**
 * Request bodies checked against the documents, compiled once when the server starts: one rule
 * per operation that has an `application/json` request body, the API's and the test hooks'.
 */
export class RequestBodies {
  private readonly rules = new Map<string, BodyRule>()

  constructor(schemas: SchemaSet) {
    for (const [operations, doc] of [
      [documentOperations, openapiDocument],
      [devOperations, devDocument],
    ] as const) {
      for (const {operation} of operations) {
        const rule = bodyRule(schemas, operation, doc)
        if (operation.operationId !== undefined && rule !== undefined) this.rules.set(operation.operationId, rule)
      }
    }
  }

  /** Whether the operation takes a JSON body. */
  has(operationId: string): boolean {
    return this.rules.has(operationId)
  }

  /** The operation's body: parsed and valid, or a 400 `invalid_request` naming what is wrong. */
  read(operationId: string, raw: string): JsonObject {
    const rule = this.rules.get(operationId)
    if (rule === undefined) return {}
    // no body is zero bytes: whitespace is a body, and not JSON (parseJsonBody refuses it)
    if (raw === '') {
      if (rule.required) throw invalid('request body is required: send a JSON object')
      return {}
    }
    const value = parseJsonBody(raw)
    if (!rule.validate(value)) throw invalid(schemaErrorText(rule.validate.errors, 'request body'))
    return value as JsonObject
  }
}

function bodyRule(schemas: SchemaSet, operation: OpenApiOperation, doc: OpenApiDocument): BodyRule | undefined {
  if (operation.requestBody === undefined) return undefined
  const body = resolveRef(operation.requestBody, doc)
  const schema = body.content?.['application/json']?.schema
  return schema === undefined ? undefined : {required: body.required === true, validate: schemas.compile(schema)}
}
