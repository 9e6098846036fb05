import {describe, expect, it} from 'vitest'
import McpServersDelete from '../../src/commands/mcp-servers/delete.js'
import TagsDelete from '../../src/commands/tags/delete.js'
import {runCommand} from '../helpers/cli.js'
import {envelope, useFakeApi} from '../helpers/fake-api.js'

const api = useFakeApi(
  {
    'DELETE /orgs/acme/tags/tag_1': {deleted: true, id: 'tag_1'},
    'DELETE /orgs/acme/mcp-servers/docs': {deleted: true, ref: 'docs'},
  },
  {me: false},
)

describe.each([
  ['tags delete', TagsDelete, 'tag_1', 'tag', '/api/v1/orgs/acme/tags/tag_1'],
  ['mcp-servers delete', McpServersDelete, 'docs', 'MCP server', '/api/v1/orgs/acme/mcp-servers/docs'],
])('%s', (_name, Cmd, id, kind, path) => {
  it('with --yes sends DELETE without asking', async () => {
    const r = await runCommand(Cmd, [id, '--yes', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(api.requests()).toHaveLength(1)
    expect(api.requests()[0]).toMatchObject({method: 'DELETE', path})
    expect(r.stderr).toBe(`Deleted ${kind} ${id}\n`)
  })

  it('without a TTY and without --yes exits 2 and sends nothing', async () => {
    const r = await runCommand(Cmd, [id, '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toBe(`error: refusing to delete ${kind} ${id} without --yes: there is no terminal to confirm on (invalid_request)\n`)
    expect(api.requests()).toHaveLength(0)
  })

  it('on a TTY asks "(y/N)": y deletes, anything else cancels', async () => {
    const yes = await runCommand(Cmd, [id, '--org', 'acme'], {env: api.env(), tty: true, stdinTTY: true, stdin: 'y\n'})
    expect(yes.stderr).toContain(`Delete ${kind} ${id}? (y/N) `)
    expect(yes.exitCode).toBe(0)
    const no = await runCommand(Cmd, [id, '--org', 'acme'], {env: api.env(), tty: true, stdinTTY: true, stdin: '\n'})
    expect(no.exitCode).toBe(2)
    expect(no.stderr).toContain('deletion cancelled')
    expect(api.requests().filter((r) => r.method === 'DELETE')).toHaveLength(1)
  })

  it('the second delete answers 404 → exit 5', async () => {
    api.stub(`DELETE ${path.replace('/api/v1', '')}`, () => envelope(404, 'not_found', 'already deleted'))
    const r = await runCommand(Cmd, [id, '--yes', '--org', 'acme'], {env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toBe(`error: ${kind} "${id}" not found: already deleted (not_found, HTTP 404)\n`)
  })
})

describe('deletes: typed result and renderer', () => {
  it('returns what the server answered; the notice, then the object', async () => {
    const r = await runCommand(TagsDelete, ['tag_1', '--yes', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual({deleted: true, id: 'tag_1'})
    expect(r.rendered).toEqual([
      {method: 'notice', text: 'Deleted tag tag_1'},
      {method: 'object', value: {deleted: true, id: 'tag_1'}},
    ])
  })
})
