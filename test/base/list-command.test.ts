import {describe, expect, it} from 'vitest'
import {runPages} from '../../src/api/runs.js'
import {pageFlags} from '../../src/base/flags.js'
import {ListCommand} from '../../src/base/list-command.js'
import type {StreamedList} from '../../src/base/results.js'
import type {OperationId} from '../../src/contract/routes.js'
import type {Run, RunPage} from '../../src/contract/types.js'
import {runCommand} from '../helpers/cli.js'
import {reply, useFakeApi} from '../helpers/fake-api.js'
import {runAt} from '../helpers/pages.js'

// What every list command gets from ListCommand: the paging flags checked before anything is
// sent, one page and the command that shows the next, or --all streamed. A command of the test's,
// the least a list command is: its flags, its pages, its columns.

class RunIds extends ListCommand {
  static override summary = 'the IDs of the runs'
  static operations: OperationId[] = ['listRuns']
  static override args = {}
  static override flags = pageFlags

  async run(): Promise<RunPage | StreamedList<Run>> {
    const {flags} = await this.parse(RunIds)
    return this.list(this.paging(flags), {
      pages: (client, org, opts) => runPages(client, org, opts),
      columns: [{header: 'ID', get: (run: Run) => run.id}],
      noun: {one: 'run', other: 'runs'},
      args: ['x y'],
    })
  }
}

const api = useFakeApi({}, {me: false})
const run = (i: number) => runAt(`run_${i}`, `2026-01-01T00:00:0${i}Z`)

/** Two pages of two runs: cursor c1, then none. */
function twoPages(): void {
  api.stub('GET /orgs/acme/runs', (req) =>
    req.path.includes('cursor=c1')
      ? reply(200, {items: [run(3), run(4)], nextCursor: null})
      : reply(200, {items: [run(1), run(2)], nextCursor: 'c1'}),
  )
}

describe('a ListCommand', () => {
  it('one page with --limit and --cursor as given; on a terminal the command for the next, with its arguments, quoted', async () => {
    twoPages()
    const r = await runCommand(RunIds, ['--org', 'acme', '-L', '2', '--cursor', 'c0'], {tty: true, env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(api.requests().map((q) => q.path)).toEqual(['/api/v1/orgs/acme/runs?limit=2&cursor=c0'])
    expect(r.rendered).toEqual([
      {method: 'list', rows: [run(1), run(2)], columns: ['ID']},
      {method: 'notice', text: "more: amctl runids 'x y' --cursor c1 --limit 2 --org acme (or --all)"},
    ])
    expect(r.result).toEqual({items: [run(1), run(2)], nextCursor: 'c1'})
    const piped = await runCommand(RunIds, ['--org', 'acme'], {env: api.env()})
    expect(piped.stdout).toBe('run_1\nrun_2\n')
    expect(piped.stderr).toBe('')
  })

  it('--all: every page, one request per page, streamed as one {"items":[…]} under --json', async () => {
    twoPages()
    const r = await runCommand(RunIds, ['--org', 'acme', '--all', '--json'], {env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({items: [1, 2, 3, 4].map(run)})
    expect(api.requests().map((q) => q.path)).toEqual(['/api/v1/orgs/acme/runs', '/api/v1/orgs/acme/runs?cursor=c1'])
  })

  it.each([
    [['--limit', '0'], 'error: --limit must be from 1 to 200, got 0 (invalid_request)'],
    [['--limit', 'ten'], 'error: --limit must be a whole number from 1 to 200, got "ten" (invalid_request)'],
    [['--cursor', ' '], 'error: --cursor must not be empty (invalid_request)'],
  ])('%j exits 2 before anything is sent, the organization not even resolved', async (argv, message) => {
    const r = await runCommand(RunIds, argv, {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr.split('\n')[0]).toBe(message)
    expect(api.requests()).toEqual([])
  })
})
