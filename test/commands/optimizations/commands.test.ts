import {describe, expect, it} from 'vitest'
import Chat from '../../../src/commands/optimizations/chat.js'
import Preview from '../../../src/commands/optimizations/preview.js'
import Propose from '../../../src/commands/optimizations/propose.js'
import {runCommand} from '../../helpers/cli.js'
import {json, reply, useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi(
  {
    'POST /orgs/acme/optimizations/cl_1/rounds/current/preview': {round: 2},
    'POST /orgs/acme/optimizations/cl_1/propose': {proposalId: 'p_1'},
    'POST /orgs/acme/optimizations/cl_1/chat': {reply: 'hello'},
  },
  {me: false},
)
const forbidden = (message: string) => () => {
  return reply(403, JSON.stringify({error: {code: 'forbidden', message}}), {'content-type': 'application/json'})
}

describe('optimizations preview / propose / chat', () => {
  it('send the contract requests', async () => {
    await runCommand(Preview, ['cl_1', '--org', 'acme'], {env: api.env()})
    await runCommand(Propose, ['cl_1', '--org', 'acme', '-f', 'goal=speed'], {env: api.env()})
    await runCommand(Chat, ['cl_1', '--org', 'acme', '--message', 'why?'], {env: api.env()})
    expect(api.requests().map((r) => [r.method, r.path, json(r)])).toEqual([
      ['POST', '/api/v1/orgs/acme/optimizations/cl_1/rounds/current/preview', {}],
      ['POST', '/api/v1/orgs/acme/optimizations/cl_1/propose', {goal: 'speed'}],
      ['POST', '/api/v1/orgs/acme/optimizations/cl_1/chat', {message: 'why?'}],
    ])
  })

  it('chat --message - reads stdin, one trailing newline removed', async () => {
    await runCommand(Chat, ['cl_1', '--org', 'acme', '--message', '-'], {env: api.env(), stdin: 'line one\nline two\n'})
    expect(json(api.requests()[0])).toEqual({message: 'line one\nline two'})
  })

  it('chat with an empty message exits 2 with no request', async () => {
    const r = await runCommand(Chat, ['cl_1', '--org', 'acme', '--message', '-'], {env: api.env(), stdin: '\n'})
    expect(r.exitCode).toBe(2)
    expect(api.requests()).toHaveLength(0)
  })

  it.each(['capability missing', 'Forbidden', 'you shall not pass'])(
    'a 403 from propose (%j) keeps the message and hints that Optimizations must be enabled (exit 4)',
    async (message) => {
      api.stub('POST /orgs/acme/optimizations/cl_1/propose', forbidden(message))
      const r = await runCommand(Propose, ['cl_1', '--org', 'acme'], {env: api.env()})
      expect(r.exitCode).toBe(4)
      expect(r.stderr).toBe(
        `error: ${message} (forbidden, HTTP 403)\nhint: Optimizations must be enabled for the organization "acme" to propose trials; an administrator can enable it\n`,
      )
    },
  )

  it('a retired route answer (403) shows the upgrade message verbatim', async () => {
    api.stub(
      'POST /orgs/acme/optimizations/cl_1/rounds/current/preview',
      forbidden('Cycles were retired in API 0.14; use optimizations rounds'),
    )
    const r = await runCommand(Preview, ['cl_1', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(4)
    expect(r.stderr).toBe('error: Cycles were retired in API 0.14; use optimizations rounds (forbidden, HTTP 403)\n')
  })
})
