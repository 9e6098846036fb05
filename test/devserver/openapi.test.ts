import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {OPERATION_IDS, ROUTES} from '../../src/contract/routes.js'
import {openapiDocument} from '../../src/devserver/openapi.js'
import {checkAgainstDocument, doc, findOperation, operations, startTestServer, type TestServer} from './helpers.js'

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

describe('the OpenAPI document', () => {
  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(openapiDocument))).toEqual(openapiDocument)
  })

  it('describes every operation where ROUTES places it, with a 200 answer', () => {
    for (const id of OPERATION_IDS) {
      const {method, path} = ROUTES[id]
      const found = findOperation(method, `/api/v1${path}`)
      expect(found?.operation.operationId, `${id}: ${method} ${path}`).toBe(id)
      expect(found!.operation.responses['200'], id).toBeDefined()
    }
  })

  it('applies HTTP bearer globally, and POST /cli/token and the document itself opt out', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({type: 'http', scheme: 'bearer'})
    expect(doc.security).toEqual([{bearerAuth: []}])
    expect(findOperation('POST', '/api/v1/cli/token')!.operation.security).toEqual([])
    expect(findOperation('GET', '/api/v1/openapi.json')!.operation.security).toEqual([])
    expect(findOperation('GET', '/api/v1/me')!.operation.security).toBeUndefined()
  })

  it('answers every error with the envelope schema', () => {
    const resolve = (node: any): any => (node.$ref ? doc.components.responses[node.$ref.split('/').pop()] : node)
    let errors = 0
    for (const {operation} of operations) {
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (status === '200') continue
        errors += 1
        expect(resolve(response).content['application/json'].schema).toEqual({$ref: '#/components/schemas/Error'})
      }
      expect(operation.responses.default).toBeDefined()
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
    expect(s.FreeForm.additionalProperties).toBe(true)
  })

  it('documents the retired routes, any method, with or without the org, and below: 403 and the upgrade message', () => {
    for (const segment of ['presets', 'cycles', 'scenarios', 'schedules']) {
      for (const path of [`/api/v1/orgs/acme/${segment}`, `/api/v1/orgs/acme/${segment}/x`, `/api/v1/${segment}`, `/api/v1/${segment}/x`]) {
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
          const found = findOperation(method, path)
          expect(found, `${method} ${path}`).toBeDefined()
          expect(found!.operation.deprecated).toBe(true)
          expect(found!.operation.tags).toEqual(['Retired'])
          expect(found!.item.description).toMatch(/retired in API 0\.14/)
          expect(found!.operation.responses['403']).toEqual({$ref: '#/components/responses/Retired'})
        }
      }
    }
    expect(findOperation('GET', '/api/v1/scenarios')!.item.description).toContain(
      'create them under a preference prompt: POST /api/v1/orgs/{org}/visibility-prompts/{id}/scenarios',
    )
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

describe('the test helpers check every answer against the document', () => {
  const answer = (status: number, body: unknown) => ({status, headers: new Headers(), text: JSON.stringify(body), body})

  it('accepts a documented answer', () => {
    checkAgainstDocument('GET', '/api/v1/me', answer(200, {id: 'u', email: 'e', name: 'n', orgs: []}))
    checkAgainstDocument('GET', '/api/v1/me', answer(503, {error: {code: 'service_unavailable', message: 'x'}}))
  })

  it('refuses a body that breaks the schema, an answer without JSON, and a path the document does not have', () => {
    expect(() => checkAgainstDocument('GET', '/api/v1/me', answer(200, {id: 'u'}))).toThrow(/does not match the document/)
    expect(() => checkAgainstDocument('GET', '/api/v1/me', {...answer(200, undefined), text: 'hi'})).toThrow(/without a JSON body/)
    expect(() => checkAgainstDocument('GET', '/api/v1/widgets', answer(200, {}))).toThrow(/no such operation/)
    const forbidden = answer(403, {error: {code: 'forbidden', message: 'x'}})
    expect(() => checkAgainstDocument('GET', '/api/v1/widgets', forbidden)).toThrow(/no such operation/)
    checkAgainstDocument('GET', '/api/v1/widgets', answer(404, {error: {code: 'not_found', message: 'x'}}))
  })
})
