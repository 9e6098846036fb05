import {readFileSync} from 'node:fs'
import openapiTS, {COMMENT_HEADER, astToString} from 'openapi-typescript'
import {describe, expect, it} from 'vitest'

// src/contract/openapi-types.ts is what `npm run generate` (openapi-typescript) writes from the
// document: the same generator, run here in memory, must give the same text.
const DOCUMENT = new URL('../../src/contract/openapi.json', import.meta.url)
const TYPES = new URL('../../src/contract/openapi-types.ts', import.meta.url)

describe('src/contract/openapi-types.ts', () => {
  it('is what openapi-typescript generates from src/contract/openapi.json', async () => {
    const generated = COMMENT_HEADER + astToString(await openapiTS(DOCUMENT))
    const checkedIn = readFileSync(TYPES, 'utf8')
    if (generated !== checkedIn) {
      expect.fail('src/contract/openapi-types.ts is out of date with src/contract/openapi.json: run `npm run generate`')
    }
  })
})
