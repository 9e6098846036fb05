import {describe, expect, it} from 'vitest'
import document from '../../src/contract/openapi.json' with {type: 'json'}
import {resolveRef} from '../helpers/openapi.js'
import {
  API_ERROR_CODES,
  API_PREFIX,
  API_VERSION,
  CADENCES,
  DEVICE_CODE_PARAM,
  PAGE_LIMIT,
  RUN_STATUSES,
  SAMPLES,
  STATUS_BY_CODE,
  TOKEN_EXPIRY_DAYS,
  TOKEN_PREFIX,
  apiCodeForStatus,
  expiryDays,
} from '../../src/contract/vocabulary.js'

// src/contract/vocabulary.ts says again, for the code, what the document states; here each value
// is checked against the document (src/contract/routes.ts is generated from it: test/generated.test.ts).
// This file reads the document on its own (no dev server code), so a mistake there cannot hide one here.

type Json = any
const doc = document as Json
const schemas = doc.components.schemas

const resolve = (node: Json): Json => resolveRef(doc, node)

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const operations = Object.entries<Json>(doc.paths).flatMap(([path, entry]) => {
  const item = {...resolve(entry), ...entry}
  return METHODS.filter((method) => item[method] !== undefined).map((method) => ({
    method: method.toUpperCase(),
    path,
    operation: item[method],
  }))
})
const live = operations.filter(({operation}) => !operation.tags?.includes('Retired'))

describe('the operations of the document', () => {
  it('every live operation has an operationId, every retired one is tagged and answers 403', () => {
    for (const {method, path, operation} of operations) {
      if (operation.tags?.includes('Retired')) expect(resolve(operation.responses['403']), `${method} ${path}`).toBeDefined()
      else expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z]\w+$/)
    }
    expect(operations.length - live.length).toBeGreaterThan(0)
  })

  it("agree on the prefix: the document's server is /api/v1", () => {
    expect(doc.servers[0].url).toBe(API_PREFIX)
  })
})

describe('vocabulary values the document also states', () => {
  it('API_VERSION is info.version', () => {
    expect(doc.info.version).toBe(API_VERSION)
  })

  it('CADENCES is the cadence enum, wherever a cadence appears', () => {
    for (const name of ['EvalSetPatch', 'EvalSet', 'Scenario']) expect(schemas[name].properties.cadence.enum, name).toEqual([...CADENCES])
  })

  it('SAMPLES is the samplesPerTarget range, wherever it appears', () => {
    for (const name of ['EvalSetPatch', 'EvalSet', 'Scenario']) {
      expect(schemas[name].properties.samplesPerTarget, name).toMatchObject({type: 'integer', minimum: SAMPLES.min, maximum: SAMPLES.max})
    }
  })

  it('PAGE_LIMIT is the limit parameter: bounds, default, and what its description says', () => {
    const listRuns = live.find(({operation}) => operation.operationId === 'listRuns')!.operation
    const limit = resolve(listRuns.parameters.find((p: Json) => resolve(p).name === 'limit'))
    expect(limit.schema).toMatchObject({minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default})
    expect(limit.description).toContain(`${PAGE_LIMIT.min} to ${PAGE_LIMIT.max} (default ${PAGE_LIMIT.default})`)
  })

  it('TOKEN_EXPIRY_DAYS and expiryDays agree with the expiresIn pattern and description', () => {
    const expiresIn = schemas.CreateTokenBody.properties.expiresIn
    const pattern = new RegExp(expiresIn.pattern, 'u')
    expect(expiresIn.description).toContain(`from ${TOKEN_EXPIRY_DAYS.min} to ${TOKEN_EXPIRY_DAYS.max}`)
    // the pattern admits exactly what the vocabulary accepts: 1d to 3650d, never 0d (issue 32 item 22)
    const odd = ['0d', '00d', '007d', '03650d', '1000000d', 'd', '30', '2w', '30 d', ' 30d', '30d ', '-1d', '1.5d', '']
    const candidates = [...Array.from({length: 4000}, (_, n) => `${n}d`), ...odd]
    for (const text of candidates) expect(pattern.test(text), text).toBe(expiryDays(text) !== undefined)
    expect(pattern.test('0d')).toBe(false)
    expect(expiryDays(`${TOKEN_EXPIRY_DAYS.min}d`)).toBe(TOKEN_EXPIRY_DAYS.min)
    expect(expiryDays(`${TOKEN_EXPIRY_DAYS.max}d`)).toBe(TOKEN_EXPIRY_DAYS.max)
    expect(expiryDays(`${TOKEN_EXPIRY_DAYS.max + 1}d`)).toBeUndefined()
  })

  it('API_ERROR_CODES are the envelope code examples, which the description lists', () => {
    const code = schemas.Error.properties.error.properties.code
    expect(code.examples).toEqual([...API_ERROR_CODES])
    for (const each of API_ERROR_CODES) expect(code.description).toContain(each)
  })

  it('STATUS_BY_CODE matches the error responses: each documented status names the codes it carries', () => {
    let checked = 0
    for (const {method, path, operation} of live) {
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        const codes = API_ERROR_CODES.filter((code) => STATUS_BY_CODE[code] === Number(status))
        if (codes.length === 0) continue
        checked += 1
        for (const code of codes) expect(resolve(response).description, `${method} ${path} ${status}`).toContain(`\`${code}\``)
      }
    }
    expect(checked).toBeGreaterThan(50)
    expect(apiCodeForStatus(409)).toBe('conflict')
    expect(apiCodeForStatus(402)).toBe('insufficient_credits')
    expect(apiCodeForStatus(418)).toBeUndefined()
  })

  it('DEVICE_CODE_PARAM is the query parameter of POST /cli/token', () => {
    const cliToken = live.find(({operation}) => operation.operationId === 'createCliToken')!.operation
    const query = cliToken.parameters.map((p: Json) => resolve(p)).filter((p: Json) => p.in === 'query')
    expect(query.map((p: Json) => p.name)).toEqual([DEVICE_CODE_PARAM])
  })

  it('TOKEN_PREFIX is the form of every token the document describes', () => {
    expect(schemas.CreatedToken.properties.token.pattern).toBe(`^${TOKEN_PREFIX}`)
    expect(schemas.CliTokenGranted.properties.token.pattern).toBe(`^${TOKEN_PREFIX}`)
    expect(doc.components.securitySchemes.bearerAuth.bearerFormat).toBe(`${TOKEN_PREFIX}<token>`)
  })

  it('RUN_STATUSES are the run status examples', () => {
    expect(schemas.Run.properties.status.examples).toEqual([...RUN_STATUSES])
  })
})
