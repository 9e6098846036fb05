import {Validator} from '@seriousme/openapi-schema-validator'
import {describe, expect, it} from 'vitest'
import {DEV_ROUTES} from '../../src/devserver/dev-routes.js'
import {devDocument, devOperations} from '../../src/devserver/openapi.js'
import {RequestBodies, SchemaSet} from '../../src/devserver/schema.js'
import {expectError, useSeededServer} from './helpers.js'

// The test hooks under /_dev/ have their own OpenAPI document (src/devserver/dev-openapi.json):
// the server registers them from it (dev-routes.ts, generated), checks their bodies through the
// same Ajv path as the API's, and `amctl dev server --help` lists them from it.

const fixture = useSeededServer()

describe('src/devserver/dev-openapi.json', () => {
  it('is a valid OpenAPI 3.1 document whose operations are all tagged Dev, below /_dev, without a token', async () => {
    expect(await new Validator().validate(structuredClone(devDocument) as object as Parameters<Validator['validate']>[0])).toEqual({
      valid: true,
    })
    expect((devDocument as unknown as {servers: {url: string}[]}).servers).toEqual([{url: '/_dev'}])
    expect(devOperations.map(({operation}) => operation.tags)).toEqual(devOperations.map(() => ['Dev']))
    expect(devOperations.map(({operation}) => operation.operationId).sort()).toEqual(Object.keys(DEV_ROUTES).sort())
  })

  it("gives every hook that takes a body a body rule, checked with the API's", () => {
    const bodies = new RequestBodies(new SchemaSet())
    const withBody = devOperations.filter(({operation}) => operation.requestBody !== undefined).map(({operation}) => operation.operationId!)
    expect(withBody.length).toBeGreaterThan(5)
    for (const id of withBody) expect(bodies.has(id), id).toBe(true)
  })

  it('a hook refuses a body its document does not allow before its handler runs (400 invalid_request)', async () => {
    const answer = await fixture.server.call('POST', '/_dev/tokens', {body: ['ada@example.com']})
    expect(expectError(answer, 400, 'invalid_request')).toBe('request body must be a JSON object, got an array')
  })
})
