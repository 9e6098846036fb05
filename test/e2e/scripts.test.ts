import {describe, expect, it} from 'vitest'
import {useE2E} from './helpers.js'
import {API, lines} from './commands/util.js'

/**
 * What scripts rely on (contract 1.1, 1.4): a reader of stdout that goes away ends amctl at
 * once, quietly, with exit 0 (a `set -o pipefail` script must not fail on `| head -1`), and no
 * further request is sent.
 */
const e2e = useE2E()

describe('a closed pipe (`amctl … | head -1`)', () => {
  // 2,000 runs more in globex: pages of 20 are 100+ requests if nothing stops the walk
  const walk = ['runs', 'list', '--org', 'globex', '--all', '--limit', '20']

  it.each([
    ['runs list --all (TSV), | head -1', walk, 'line'],
    ['runs list --all --json, | head -c 100', [...walk, '--json'], 'chunk'],
    ['api --paginate, | head -c 100', ['api', '/orgs/globex/runs?limit=20', '--paginate'], 'chunk'],
  ] as const)('%s: exit 0, nothing on stderr, the walk stops', async (_what, argv, close) => {
    await e2e.current.hook('POST', '/_dev/orgs/globex/runs', {count: 2000})
    await e2e.current.clearRequests()
    const r = await e2e.current.amctl([...argv], {closeStdout: close})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.signal).toBeNull()
    expect(r.stderr).toBe('')
    const pages = (await e2e.current.requests()).filter((q) => q.path.startsWith(`${API}/orgs/globex/runs`))
    // the first page (and what fit in the pipe's buffer before the reader went away), never the rest
    expect(pages.length).toBeLessThanOrEqual(3)
  })

  it('a single large answer: exit 0', async () => {
    const r = await e2e.current.amctl(['api', '/orgs/globex/runs?limit=200'], {closeStdout: 'chunk'})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
  })

  it.each([[['--help']], [['runs', 'list', '--help']], [['runs', 'list', '-h']]])('%j: exit 0', async (argv) => {
    const r = await e2e.current.amctl(argv, {closeStdout: 'line'})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
  })
})

describe('a stdout that cannot be written (`> /dev/full`, issue 32 item 6)', () => {
  const FULL = 'error: cannot write to stdout: no space left on device (ENOSPC) (output_error)\n'
  const full = {stdoutTo: '/dev/full'}

  it.each([
    ['a failing gate', 10, ['runs', 'watch', 'run_acme_0256', 'run_acme_0257', '--org', 'acme']],
    ['a failing gate, --json', 10, ['runs', 'watch', 'run_acme_0256', 'run_acme_0257', '--org', 'acme', '--json']],
    ['a passing gate', 1, ['runs', 'watch', 'run_acme_0256', '--org', 'acme']],
    ['a list', 1, ['runs', 'list', '--org', 'acme']],
    ['a list, every page', 1, ['runs', 'list', '--org', 'acme', '--all', '--json']],
    ['--version (written without the CLI)', 1, ['--version']],
    ['help', 1, ['runs', 'list', '--help']],
  ] as const)('%s: exit %i (a verdict keeps its code), one error line, no stack', async (_what, exit, argv) => {
    const r = await e2e.current.amctl([...argv], full)
    expect(r.exitCode, r.stderr).toBe(exit)
    expect(r.stderr.endsWith(FULL), r.stderr).toBe(true)
    expect(r.stderr.split('\n').filter((line) => line.startsWith('error:'))).toEqual([FULL.trimEnd()])
    expect(r.stderr).not.toMatch(/^\s+at /m)
  })

  it('an error under --json: its line on stderr (the document could not be written), its own exit code', async () => {
    const r = await e2e.current.amctl(['orgs', 'summary', '--org', 'initech', '--json'], full)
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toBe('error: organization "initech" not found (not_found, HTTP 404)\n')
  })
})

describe('-h is --help everywhere', () => {
  it.each([[['-h']], [['runs', '-h']], [['runs', 'list', '-h']], [['api', '-h']], [['evals', 'update', '-h']], [['dev', 'server', '-h']]])(
    '%j prints the help',
    async (argv) => {
      const [h, help] = await Promise.all([e2e.current.amctl(argv), e2e.current.amctl(argv.map((a) => (a === '-h' ? '--help' : a)))])
      expect(h.exitCode).toBe(0)
      expect(h.stdout).toBe(help.stdout)
      expect(lines(h.stdout).length).toBeGreaterThan(3)
    },
  )
})
