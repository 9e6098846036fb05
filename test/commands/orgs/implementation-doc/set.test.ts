import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import SetDoc from '../../../../src/commands/orgs/implementation-doc/set.js'
import {runCommand} from '../../../helpers/cli.js'
import {json, useFakeApi} from '../../../helpers/fake-api.js'
import {tempDir} from '../../../helpers/temp.js'

const api = useFakeApi({'PUT /orgs/acme/implementation-doc': {sections: ['a'], updatedAt: '2026-01-01T00:00:00Z'}}, {me: false})

describe('orgs implementation-doc set', () => {
  it('sends PUT /orgs/{org}/implementation-doc with the object from the file', async () => {
    const file = join(tempDir('amctl-doc-'), 'doc.json')
    writeFileSync(file, '{"sections": ["a"]}\n')
    const r = await runCommand(SetDoc, ['--input', file, '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(api.requests()[0]).toMatchObject({method: 'PUT', path: '/api/v1/orgs/acme/implementation-doc'})
    expect(json(api.requests()[0])).toEqual({sections: ['a']})
  })

  it('reads stdin for --input -', async () => {
    await runCommand(SetDoc, ['--input', '-', '--org', 'acme'], {env: api.env(), stdin: '{"x":1}'})
    expect(json(api.requests()[0])).toEqual({x: 1})
  })

  it.each([
    ['{"a":', 'is not valid JSON: unexpected end of input at line 1, column 6'],
    ['"text"', 'must be a JSON object, got string'],
    ['', 'is empty; expected a JSON object'],
  ])('stdin %j exits 2 with no request', async (stdin, message) => {
    const r = await runCommand(SetDoc, ['--input', '-', '--org', 'acme'], {env: api.env(), stdin})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain(message)
    expect(api.requests()).toHaveLength(0)
  })

  it('a missing file and a missing --input exit 2', async () => {
    const missing = await runCommand(SetDoc, ['--input', '/nonexistent/doc.json', '--org', 'acme'], {env: api.env()})
    expect(missing.exitCode).toBe(2)
    expect(missing.stderr).toBe('error: --input: cannot read "/nonexistent/doc.json" (no such file) (invalid_request)\n')
    const none = await runCommand(SetDoc, ['--org', 'acme'], {env: api.env()})
    expect(none.exitCode).toBe(2)
    expect(none.stderr).toBe('error: missing required flag --input (invalid_request)\n')
    expect(api.requests()).toHaveLength(0)
  })
})

describe('orgs implementation-doc set: typed result and renderer', () => {
  it('returns the saved document and hands it to the renderer as an object', async () => {
    const saved = {sections: ['a'], updatedAt: '2026-01-01T00:00:00Z'}
    const r = await runCommand(SetDoc, ['--input', '-', '--org', 'acme'], {env: api.env(), stdin: '{"sections":["a"]}'})
    expect(r.result).toEqual(saved)
    expect(r.rendered).toEqual([{method: 'object', value: saved}])
  })
})
