import {describe, expect, it} from 'vitest'
import ConnectionsList from '../../src/commands/connections/list.js'
import RunsList from '../../src/commands/runs/list.js'
import {runCommand} from '../helpers/cli.js'
import {unchecked, useFakeApi} from '../helpers/fake-api.js'
import {STACK_FRAME} from './helpers.js'

// The terminal half of malformed.test.ts: a subprocess never has a TTY, so the table renderers
// (a table for one page, aligned rows for --all) are driven in-process with a fake terminal.
// A list whose items are not objects must end as a bad response (exit 1), not a crash.

const api = useFakeApi({}, {me: false})
/** every answer here breaks the document on purpose */
const MALFORMED = 'a malformed list: items that are not objects'
const run = {
  id: 'run_1',
  status: 'succeeded',
  evalSetId: 'es_1',
  batchId: null,
  createdAt: '2026-01-01T00:00:00Z',
  forkedFrom: null,
  agent: null,
  model: null,
  score: null,
}

describe('list items that are not objects, on a terminal', () => {
  it.each([
    ['null among the runs', {items: [run, null]}],
    ['a number among the runs', {items: [5]}],
    ['"items" is a string', {items: 'none'}],
  ])('runs list: %s → one error line, exit 1', async (_name, page) => {
    api.stub('GET /orgs/acme/runs', unchecked(MALFORMED, 200, page))
    const r = await runCommand(RunsList, ['--org', 'acme'], {tty: true, env: api.env()})
    expect(r.stderr).not.toMatch(STACK_FRAME)
    expect(r.stderr).toMatch(/^error: (the server's|expected a page with an "items" array) .*\(bad_response\)\n$/)
    expect(r.exitCode).toBe(1)
  })

  it('runs list --all: a bad item on a later page ends the table with one error line, exit 1', async () => {
    api.stub('GET /orgs/acme/runs', (req) => {
      const later = req.path.includes('cursor=')
      return unchecked(MALFORMED, 200, JSON.stringify(later ? {items: [null]} : {items: [run], nextCursor: 'c1'}), {
        'content-type': 'application/json',
      })
    })
    const r = await runCommand(RunsList, ['--org', 'acme', '--all'], {tty: true, env: api.env()})
    expect(r.stdout).toMatch(/^ID\s+STATUS/)
    expect(r.stdout).toContain('run_1')
    expect(r.stderr).toMatch(/error: the server's list holds an item that is not an object: null \(bad_response\)\n$/)
    expect(r.exitCode).toBe(1)
  })

  it('connections list: null among the items → exit 1, piped and on a terminal', async () => {
    api.stub('GET /orgs/acme/connections', unchecked(MALFORMED, 200, {items: [null]}))
    for (const tty of [false, true]) {
      const r = await runCommand(ConnectionsList, ['--org', 'acme'], {tty, env: api.env()})
      expect(r.stderr).toMatch(/^error: .*\(bad_response\)\n$/)
      expect(r.exitCode).toBe(1)
    }
  })
})
