import {Validator} from '@seriousme/openapi-schema-validator'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {openapiDocument} from '../../src/devserver/openapi.js'
import {retiredRoutes} from '../../src/devserver/routes/retired.js'

const RETIRED_ROUTES = retiredRoutes()
import {doc, findOperation, startTestServer, type TestServer} from './helpers.js'

/** The endpoint table of api-spec.md, method and path as written there. */
const SPEC_ENDPOINTS = [
  ['POST', '/api/v1/tokens'],
  ['POST', '/api/v1/cli/token'],
  ['GET', '/api/v1/me'],
  ['GET', '/api/v1/orgs/{org}/runs'],
  ['GET', '/api/v1/orgs/{org}/summary'],
  ['PUT', '/api/v1/orgs/{org}/implementation-doc'],
  ['GET', '/api/v1/orgs/{org}/connections'],
  ['PATCH', '/api/v1/orgs/{org}/eval-sets/{evalSetId}'],
  ['POST', '/api/v1/orgs/{org}/eval-sets/{evalSetId}/run'],
  ['POST', '/api/v1/orgs/{org}/visibility-prompts/{visibilityPromptId}/scenarios'],
  ['POST', '/api/v1/orgs/{org}/experiments/{experimentId}/launch'],
  ['GET', '/api/v1/orgs/{org}/experiments/{experimentId}/variants/{variantId}/content'],
  ['POST', '/api/v1/orgs/{org}/optimizations/{climbId}/rounds/current/preview'],
  ['POST', '/api/v1/orgs/{org}/optimizations/{climbId}/propose'],
  ['POST', '/api/v1/orgs/{org}/optimizations/{climbId}/chat'],
  ['POST', '/api/v1/runs/{runId}/fork'],
  ['DELETE', '/api/v1/orgs/{org}/mcp-servers/{ref}'],
  ['DELETE', '/api/v1/orgs/{org}/tags/{tagId}'],
] as const

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, version 0.14.0', async () => {
    const result = await new Validator().validate(doc)
    expect(result).toEqual({valid: true})
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('0.14.0')
  })

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(openapiDocument))).toEqual(openapiDocument)
  })

  it('describes every endpoint of the spec, with a 200 answer', () => {
    for (const [method, path] of SPEC_ENDPOINTS) {
      const operation = doc.paths[path.slice('/api/v1'.length)]?.[method.toLowerCase()]
      expect(operation, `${method} ${path}`).toBeDefined()
      expect(operation.responses['200'], `${method} ${path}`).toBeDefined()
    }
  })

  it('applies HTTP bearer globally, and POST /cli/token and the document itself opt out', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({type: 'http', scheme: 'bearer'})
    expect(doc.security).toEqual([{bearerAuth: []}])
    expect(doc.paths['/cli/token'].post.security).toEqual([])
    expect(doc.paths['/openapi.json'].get.security).toEqual([])
    expect(doc.paths['/me'].get.security).toBeUndefined()
  })

  it('answers every error with the envelope schema', () => {
    const resolve = (node: any): any => (node.$ref ? doc.components.responses[node.$ref.split('/').pop()] : node)
    let errors = 0
    for (const item of Object.values<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        if (method === 'parameters') continue
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (status === '200') continue
          errors += 1
          expect(resolve(response).content['application/json'].schema).toEqual({$ref: '#/components/schemas/Error'})
        }
        expect(operation.responses.default).toBeDefined()
      }
    }
    expect(errors).toBeGreaterThan(100)
  })

  it('spells out the fixed shapes with the shared member names', () => {
    const s = doc.components.schemas
    expect(s.Me.required).toEqual(['id', 'email', 'name', 'orgs'])
    expect(Object.keys(s.RunPage.properties)).toEqual(['items', 'nextCursor'])
    expect(s.Run.required).toEqual(['id', 'status', 'evalSetId', 'batchId', 'createdAt', 'forkedFrom', 'agent', 'model', 'score'])
    expect(s.LaunchResult.required).toEqual(['batchIds', 'runIds'])
    expect(s.CreatedToken.required).toEqual(['id', 'name', 'token', 'expiresAt', 'createdAt'])
    expect(s.CliTokenDeviceStart.required).toEqual(['deviceCode', 'userCode', 'verificationUri'])
    expect(s.EvalSetPatch.properties.cadence.enum).toEqual(['NONE', 'DAILY', 'WEEKLY', 'MONTHLY'])
    expect(s.EvalSetPatch.properties.samplesPerTarget).toMatchObject({minimum: 1, maximum: 50})
    expect(doc.components.parameters.limit.schema).toMatchObject({minimum: 1, maximum: 200})
    expect(doc.components.parameters.deviceCode.name).toBe('deviceCode')
    expect(s.FreeForm.additionalProperties).toBe(true)
  })

  it('documents the retired routes as answering 403, with their upgrade messages', () => {
    for (const {segment, message} of RETIRED_ROUTES) {
      for (const path of [`/api/v1/orgs/acme/${segment}`, `/api/v1/orgs/acme/${segment}/x`, `/api/v1/${segment}`, `/api/v1/${segment}/x`]) {
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
          const found = findOperation(method, path)
          expect(found, `${method} ${path}`).toBeDefined()
          expect(found!.operation.deprecated).toBe(true)
          expect(found!.operation.responses['403'].content['application/json'].example.error).toEqual({code: 'forbidden', message})
        }
      }
    }
    const scenarios = RETIRED_ROUTES.find((route) => route.segment === 'scenarios')!
    expect(scenarios.message).toContain('create them under a preference prompt: POST /api/v1/orgs/{org}/visibility-prompts/{id}/scenarios')
  })

  it('never mentions the /_dev test hooks', () => {
    expect(JSON.stringify(doc)).not.toContain('_dev')
  })

  it('is served without a token at GET /api/v1/openapi.json, identical to the module', async () => {
    const answer = await server.api('GET', '/openapi.json')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(answer.body).toEqual(doc)
  })
})
