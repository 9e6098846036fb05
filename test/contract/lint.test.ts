import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {createConfig, lintFromString} from '@redocly/openapi-core'
import {describe, expect, it} from 'vitest'
import {ROOT} from '../helpers/cli.js'

// The document linted as third-party tools read it: Redocly's `recommended` rules (the same
// @redocly/openapi-core openapi-typescript generates the types with, pinned in package.json), every
// problem, warnings included, listed by rule and place. A client generated from the document, a
// mock or a validating proxy in front of amctl reads what these rules ask for: unique operation
// IDs and summaries, a 4XX answer for every operation, a license.

const DOCUMENT = 'src/contract/openapi.json'

async function problems(source: string): Promise<string[]> {
  const config = await createConfig({extends: ['recommended']})
  const found = await lintFromString({source, absoluteRef: join(ROOT, DOCUMENT), config})
  return found.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} (${problem.location[0]?.pointer ?? ''})`)
}

describe(`${DOCUMENT} under Redocly's recommended rules`, () => {
  it('is clean: no error and no warning', async () => {
    expect(await problems(readFileSync(join(ROOT, DOCUMENT), 'utf8'))).toEqual([])
  }, 30_000)

  it('the lint can fail: an operation without operationId, summary and 4XX answer, and no license, are reported', async () => {
    const broken = JSON.parse(readFileSync(join(ROOT, DOCUMENT), 'utf8'))
    delete broken.info.license
    const me = broken.paths['/me'].get
    delete me.operationId
    delete me.summary
    for (const status of Object.keys(me.responses)) if (status.startsWith('4')) delete me.responses[status]
    const rules = new Set((await problems(JSON.stringify(broken))).map((line) => line.split(':')[0]))
    expect(rules).toEqual(
      new Set(['warn info-license', 'warn operation-operationId', 'error operation-summary', 'warn operation-4xx-response']),
    )
  }, 30_000)
})
