import {describe, expect, it} from 'vitest'
import {useE2E} from '../helpers.js'
import {API, direct, expectError, expectJsonError, expectOk, jsonDoc, lines, requestsOfAll, sorted} from './util.js'

// tags delete and mcp-servers delete: --yes without a terminal, the DELETE, then a 404.

const e2e = useE2E()
const tagCount = async (org: string) => (await direct(e2e.current, 'GET', `${API}/orgs/${org}/summary`)).body.counts.tags as number

describe('amctl tags delete', () => {
  it("refused before sending (no --yes, no terminal: exit 2); another org's tag (exit 4); an ID is one percent-encoded segment", async () => {
    const odd = 'tag&x=1+ü:@'
    const [[noYes, other, encoded], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['tags', 'delete', 'tag_acme_flaky', '--org', 'acme']),
      () => e2e.current.amctl(['tags', 'delete', 'tag_acme_nightly', '--org', 'globex', '--yes']),
      () => e2e.current.amctl(['tags', 'delete', odd, '--org', 'acme', '--yes']),
    ])
    expect(expectError(noYes, 2, 'invalid_request')).toBe(
      'refusing to delete tag tag_acme_flaky without --yes: there is no terminal to confirm on',
    )
    expect(expectError(other, 4, 'forbidden', 403)).toBe('tag "tag_acme_nightly" belongs to another organization')
    expect(expectError(encoded, 5, 'not_found', 404)).toBe(`tag "${odd}" not found`)
    // nothing from the refused one
    expect(reqs).toEqual(
      sorted([`DELETE ${API}/orgs/globex/tags/tag_acme_nightly`, `DELETE ${API}/orgs/acme/tags/tag%26x%3D1%2B%C3%BC%3A%40`]),
    )
    expect(await tagCount('acme')).toBe(2)
  })

  it('--yes: DELETE, key<TAB>value (or --json: the API answer) on stdout, the notice on stderr; a second time exits 5', async () => {
    const [[human, json], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['tags', 'delete', 'tag_acme_flaky', '--org', 'acme', '--yes']),
      () => e2e.current.amctl(['tags', 'delete', 'tag_globex_beta', '--yes', '--json'], {as: 'grace'}),
    ])
    expectOk(human, 'Deleted tag tag_acme_flaky\n')
    expect(lines(human.stdout)).toEqual(['deleted\ttrue', 'id\ttag_acme_flaky', 'name\tflaky'])
    expectOk(json, 'Deleted tag tag_globex_beta\n')
    expect(jsonDoc(json)).toEqual({deleted: true, id: 'tag_globex_beta', name: 'beta'})
    expect(reqs).toEqual(
      sorted([`DELETE ${API}/orgs/acme/tags/tag_acme_flaky`, `GET ${API}/me`, `DELETE ${API}/orgs/globex/tags/tag_globex_beta`]),
    )
    expect(await tagCount('acme')).toBe(1)

    const [[again, againJson], againReqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['tags', 'delete', 'tag_acme_flaky', '--org', 'acme', '-y']),
      () => e2e.current.amctl(['tags', 'delete', 'tag_globex_beta', '--yes', '--json'], {as: 'grace'}),
    ])
    expect(expectError(again, 5, 'not_found', 404)).toBe('tag "tag_acme_flaky" not found')
    expect(expectJsonError(againJson, 5, 'not_found', 404).message).toBe('tag "tag_globex_beta" not found')
    expect(againReqs).toEqual(
      sorted([`DELETE ${API}/orgs/acme/tags/tag_acme_flaky`, `GET ${API}/me`, `DELETE ${API}/orgs/globex/tags/tag_globex_beta`]),
    )
  })
})

describe('amctl mcp-servers delete', () => {
  it('by name and by ID (--json); without --yes nothing is sent; a second time exits 5', async () => {
    const [[byName, byId, refused], reqs] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['mcp-servers', 'delete', 'filesystem', '--org', 'acme', '--yes']),
      () => e2e.current.amctl(['mcp-servers', 'delete', 'mcp_acme_github', '--org', 'acme', '--yes', '--json']),
      () => e2e.current.amctl(['mcp-servers', 'delete', 'mcp_globex_jira', '--org', 'globex', '--json']),
    ])
    expectOk(byName, 'Deleted MCP server filesystem\n')
    expect(lines(byName.stdout)).toEqual(['deleted\ttrue', 'id\tmcp_acme_filesystem', 'name\tfilesystem'])
    expectOk(byId, 'Deleted MCP server mcp_acme_github\n')
    expect(jsonDoc(byId)).toEqual({deleted: true, id: 'mcp_acme_github', name: 'github'})
    expect(expectJsonError(refused, 2, 'invalid_request').message).toBe(
      'refusing to delete MCP server mcp_globex_jira without --yes: there is no terminal to confirm on',
    )
    expect(reqs).toEqual(sorted([`DELETE ${API}/orgs/acme/mcp-servers/filesystem`, `DELETE ${API}/orgs/acme/mcp-servers/mcp_acme_github`]))
    expect((await direct(e2e.current, 'GET', `${API}/orgs/acme/summary`)).body.counts.mcpServers).toBe(0)

    const [[again, againJson]] = await requestsOfAll(e2e.current, [
      () => e2e.current.amctl(['mcp-servers', 'delete', 'filesystem', '--org', 'acme', '--yes']),
      () => e2e.current.amctl(['mcp-servers', 'delete', 'mcp_acme_github', '--org', 'acme', '--yes', '--json']),
    ])
    expect(expectError(again, 5, 'not_found', 404)).toBe('MCP server "filesystem" not found')
    expect(expectJsonError(againJson, 5, 'not_found', 404).message).toBe('MCP server "mcp_acme_github" not found')
  })
})
