import {describe, expect, it} from 'vitest'
import Chat from '../../../src/commands/optimizations/chat.js'
import Preview from '../../../src/commands/optimizations/preview.js'
import Propose from '../../../src/commands/optimizations/propose.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, json, useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi(
  {
    'POST /orgs/acme/optimizations/cl_1/rounds/current/preview': {round: 2},
    'POST /orgs/acme/optimizations/cl_1/propose': {proposalId: 'p_1'},
    'POST /orgs/acme/optimizations/cl_1/chat': {reply: 'hello'},
  },
  {me: false},
)
const forbidden = (message: string) => () => envelope(403, 'forbidden', message)

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

describe('optimizations: typed results and renderer', () => {
  it('preview returns the round; piped, the renderer gets it as one object', async () => {
    const r = await runCommand(Preview, ['cl_1', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual({round: 2})
    expect(r.rendered).toEqual([{method: 'object', value: {round: 2}}])
  })

  it('on a terminal a round is its key/values, then its trials as a list', async () => {
    const trials = [{id: 't1', status: 'done', description: 'faster checkout'}]
    api.stub('POST /orgs/acme/optimizations/cl_1/propose', {round: 3, trials})
    const r = await runCommand(Propose, ['cl_1', '--org', 'acme'], {env: api.env(), tty: true})
    expect(r.result).toEqual({round: 3, trials})
    expect(r.rendered).toEqual([
      {method: 'object', value: {round: 3}},
      {method: 'text', value: ''},
      {method: 'list', rows: trials, columns: ['TRIAL', 'STATUS', 'DESCRIPTION']},
    ])
    expect(r.stdout).toMatch(/^TRIAL\s+STATUS\s+DESCRIPTION\nt1\s+done\s+faster checkout\n$/m)
  })

  it("chat on a terminal hands the assistant's latest reply to the renderer as a block", async () => {
    const answer = {
      messages: [
        {role: 'user', content: 'why?'},
        {role: 'assistant', content: 'because\nof caching'},
      ],
    }
    api.stub('POST /orgs/acme/optimizations/cl_1/chat', answer)
    const r = await runCommand(Chat, ['cl_1', '--org', 'acme', '--message', 'why?'], {env: api.env(), tty: true})
    expect(r.result).toEqual(answer)
    expect(r.rendered).toEqual([{method: 'block', value: 'because\nof caching'}])
    expect(r.stdout).toBe('because\nof caching\n')
  })
})
