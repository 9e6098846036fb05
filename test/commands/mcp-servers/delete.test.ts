import {describe, expect, it} from 'vitest'
import McpServersDelete from '../../../src/commands/mcp-servers/delete.js'
import {runCommand} from '../../helpers/cli.js'
import {deleteCases} from '../../helpers/delete-cases.js'
import {useFakeApi} from '../../helpers/fake-api.js'

const api = useFakeApi({'DELETE /orgs/acme/mcp-servers/docs': {deleted: true, ref: 'docs'}}, {me: false})

describe('mcp-servers delete', () => {
  deleteCases(api, McpServersDelete, 'docs', 'MCP server', '/api/v1/orgs/acme/mcp-servers/docs')

  it('returns what the server answered; the renderer gets the notice, then the object', async () => {
    const r = await runCommand(McpServersDelete, ['docs', '--yes', '--org', 'acme'], {env: api.env()})
    expect(r.result).toEqual({deleted: true, ref: 'docs'})
    expect(r.rendered).toEqual([
      {method: 'notice', text: 'Deleted MCP server docs'},
      {method: 'object', value: {deleted: true, ref: 'docs'}},
    ])
  })
})
