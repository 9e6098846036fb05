import {errorText} from '../../src/output/present.js'
import {describe, expect, it} from 'vitest'
import {proposeTrials} from '../../src/api/optimizations.js'
import {failure} from '../helpers/failure.js'
import {envelope, fakeApiClient, useFakeApi} from '../helpers/fake-api.js'

// Proposing trials needs the Optimizations capability (contract 3): any 403 keeps the server's
// message and says, as its hint, what must be enabled.

const api = useFakeApi({}, {me: false})
const client = () => fakeApiClient(api, 'svc_optim_1234')
const PROPOSE = 'POST /orgs/globex/optimizations/opt_1/propose'

describe('proposeTrials', () => {
  it.each(['Optimizations is not enabled for this organization', 'forbidden', 'you shall not pass'])(
    'a 403 (%j) keeps the message and gets the capability hint',
    async (message) => {
      api.stub(PROPOSE, envelope(403, 'forbidden', message))
      const e = await failure(proposeTrials(client(), 'globex', 'opt_1'))
      expect(e).toMatchObject({message, code: 'forbidden', status: 403, exitCode: 4})
      expect(e.hint).toBe('Optimizations must be enabled for the organization "globex" to propose trials; an administrator can enable it')
    },
  )

  it('other errors are left as they are (a 404 names the optimization)', async () => {
    api.stub(PROPOSE, envelope(404, 'not_found', 'gone'))
    const e = await failure(proposeTrials(client(), 'globex', 'opt_1'))
    expect(errorText(e)).toBe('optimization "opt_1" not found: gone')
    expect(e.hint).toBeUndefined()
  })

  it('sends the body it is given and returns the answer', async () => {
    api.stub(PROPOSE, {round: 2, trials: []})
    expect(await proposeTrials(client(), 'globex', 'opt_1', {note: 'x'})).toEqual({round: 2, trials: []})
    expect(api.requests()[0].body).toBe('{"note":"x"}')
  })
})
