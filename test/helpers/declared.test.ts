import {describe, expect, it} from 'vitest'
import Api from '../../src/commands/api.js'
import OrgsSummary from '../../src/commands/orgs/summary.js'
import type {OperationId} from '../../src/contract/routes.js'
import {runCommand} from './cli.js'
import {undeclaredOperations} from './declared.js'
import {type Recorded, useFakeApi} from './fake-api.js'

// A command's `static operations` (help's REQUEST section) are held to what it sends: with a fake
// API on, runCommand fails a command that sends an operation it does not declare.

const api = useFakeApi({'GET /orgs/acme/summary': {runs: 1}}, {me: false})

const sent = (operation: string, method = 'GET', path = '/api/v1/x'): Recorded => ({
  origin: '',
  method,
  path,
  headers: {},
  body: '',
  operation,
})

describe('declared operations', () => {
  it('a command that sends an operation it does not declare fails the test that runs it', async () => {
    class Undeclared extends OrgsSummary {
      static override operations: OperationId[] = []
    }
    await expect(runCommand(Undeclared, ['--org', 'acme'], {env: api.env()})).rejects.toThrow(
      'Undeclared sent getOrgSummary (GET /api/v1/orgs/acme/summary), which its static operations do not declare',
    )
    // the command as it is declares what it sends
    expect((await runCommand(OrgsSummary, ['--org', 'acme'], {env: api.env()})).exitCode).toBe(0)
  })

  it('GET /me is the organization resolution of a command that takes --org; amctl api declares nothing and may send anything', () => {
    expect(undeclaredOperations(OrgsSummary, [sent('getMe'), sent('getOrgSummary')])).toEqual([])
    expect(undeclaredOperations({name: 'NoOrg', operations: ['forkRun']}, [sent('getMe')])).toEqual([
      'NoOrg sent getMe (GET /api/v1/x), which its static operations do not declare',
    ])
    expect(undeclaredOperations(Api, [sent('deleteTag', 'DELETE')])).toEqual([])
    // a path the document does not have is no operation (amctl api, a hostile redirect…)
    expect(undeclaredOperations({name: 'C'}, [{...sent('x'), operation: undefined}])).toEqual([])
  })
})
