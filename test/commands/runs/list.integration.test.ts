import {describe, expect, it} from 'vitest'
import RunsList from '../../../src/commands/runs/list.js'
import {runCommand} from '../../helpers/cli.js'
import {useFakeApi} from '../../helpers/fake-api.js'
import {run} from './fixtures.js'

// runs list at the size the API may answer (the integration project keeps the checks of a
// capacity at full size, a second or more of a core each, out of the unit suite's few seconds;
// the rest in ./list.test.ts): a page of 80,000 runs, about 17 MB of JSON, drawn as one table in
// linear time (src/output/table.ts).

const api = useFakeApi({}, {me: false})

describe('runs list', () => {
  it('a single page of 80,000 runs (about 17 MB of JSON) is read and drawn as one table on a TTY', async () => {
    const many = Array.from({length: 80_000}, (_, i) => ({
      ...run(`run_${String(i).padStart(8, '0')}`, 'succeeded', 0.71),
      agent: 'claude-code',
      model: 'claude-sonnet-4-5',
    }))
    api.stub('GET /orgs/acme/runs', {items: many, nextCursor: null})
    const r = await runCommand(RunsList, ['--org', 'acme'], {tty: true, columns: 120, env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(80_001)
    expect(lines[80_000]).toMatch(/^run_00079999\s+succeeded\s/)
  })
})
