import {Validator} from '@seriousme/openapi-schema-validator'
import {describe, expect, it} from 'vitest'
import document from '../../src/contract/openapi.json' with {type: 'json'}

describe('src/contract/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0')
    expect(await new Validator().validate(structuredClone(document))).toEqual({valid: true})
  })

  it('fails the validator when it is broken (the check can fail)', async () => {
    const broken = structuredClone(document) as any
    broken.paths['/me'].get.responses['200'] = {content: {}}
    expect((await new Validator().validate(broken)).valid).toBe(false)
  })
})
