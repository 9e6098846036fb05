import {describe, expect, it} from 'vitest'
import Chat from '../../../src/commands/optimizations/chat.js'
import {runCommand} from '../../helpers/cli.js'
import {json, useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi({'POST /orgs/acme/optimizations/cl_1/chat': {reply: 'hello'}}, {me: false})

describe('optimizations chat', () => {
  it('sends POST …/optimizations/{id}/chat with {message}; piped, the answer as key/values', async () => {
    const r = await runCommand(Chat, ['cl_1', '--org', 'acme', '--message', 'why?'], {env: api.env()})
    expect(api.requests().map((q) => [q.method, q.path, json(q)])).toEqual([
      ['POST', '/api/v1/orgs/acme/optimizations/cl_1/chat', {message: 'why?'}],
    ])
    expect(r.rendered).toEqual([{method: 'object', value: {reply: 'hello'}}])
    expect(r.stdout).toBe('reply\thello\n')
  })

  it('--message - reads stdin, one trailing newline removed', async () => {
    await runCommand(Chat, ['cl_1', '--org', 'acme', '--message', '-'], {env: api.env(), stdin: 'line one\nline two\n'})
    expect(json(api.requests()[0])).toEqual({message: 'line one\nline two'})
  })

  it('an empty message exits 2 with no request', async () => {
    const r = await runCommand(Chat, ['cl_1', '--org', 'acme', '--message', '-'], {env: api.env(), stdin: '\n'})
    expect(r.exitCode).toBe(2)
    expect(api.requests()).toHaveLength(0)
  })

  it("on a terminal hands the assistant's latest reply to the renderer as a block", async () => {
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
