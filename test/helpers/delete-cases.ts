import {expect, it} from 'vitest'
import {runCommand} from './cli.js'
import {envelope, type FakeApi} from './fake-api.js'

/**
 * What every delete command does (contract 1.5: --yes, the y/N prompt on a terminal, 404 on a
 * second delete), for the test file of each: `deleteCases(api, Cmd, id, kind, path)`.
 */
export function deleteCases(api: FakeApi, Cmd: Parameters<typeof runCommand>[0], id: string, kind: string, path: string): void {
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
}
