import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {runBin} from '../../helpers/bin.js'
import {useE2E} from '../helpers.js'
import {API, expectError, expectOk, jsonDoc, lines, requestsOf} from './util.js'

// --jq in the built CLI: jq's engine shipped in dist/ (dist/jq.cjs + dist/jq.wasm, no jq
// install), loaded only when --jq is given, against the dev server.

const e2e = useE2E()

/** NODE_DEBUG=module makes Node log every module it loads on stderr. */
const loadsEngine = (stderr: string) => /load "[^"]*dist[/\\]jq\.cjs"/.test(stderr)

describe('amctl … --jq', () => {
  it('runs list --all: jq sees every run of every page in one {"items":[…]}', async () => {
    const all = jsonDoc(await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--json', '--limit', '100']))
    const ids = all.items.map((run: {id: string}) => run.id)
    expect(ids.length).toBeGreaterThan(200)
    const [r, reqs] = await requestsOf(e2e.current, () =>
      e2e.current.amctl(['runs', 'list', '--org', 'acme', '--all', '--limit', '100', '--jq', '(.items | length), (.items[] | .id)']),
    )
    expectOk(r)
    expect(lines(r.stdout)).toEqual([String(ids.length), ...ids])
    expect(reqs).toHaveLength(Math.ceil(ids.length / 100))
    const csv = await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '2', '--jq', '.items[] | [.id, .status] | @csv'])
    expectOk(csv)
    expect(lines(csv.stdout)).toEqual(all.items.slice(0, 2).map((run: {id: string; status: string}) => `"${run.id}","${run.status}"`))
  })

  it('api --paginate: the whole {"items":[…]}; the same output with and without --json', async () => {
    const queued = '[.items[] | select(.status == "queued")] | length'
    const args = ['api', '/orgs/{org}/runs?limit=100', '--org', 'acme', '--paginate', '--jq', queued]
    const [alone, withJson] = await Promise.all([e2e.current.amctl(args), e2e.current.amctl([...args, '--json'])])
    expectOk(alone)
    expect(alone.stdout).toMatch(/^\d+\n$/)
    expect(withJson.stdout).toBe(alone.stdout)
  })

  it('an expression that does not compile exits 2 and sends nothing', async () => {
    const argv = ['orgs', 'summary', '--org', 'acme', '--json', '--jq', '.counts | map(']
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(argv))
    expect(expectError(r, 2, 'invalid_request')).toBe('--jq: syntax error, unexpected end of file at <top-level>, line 1, column 14')
    expect(reqs).toEqual([])
  })

  it('a failing command: the one-line error on stderr, nothing on stdout (even with --json)', async () => {
    const [r, reqs] = await requestsOf(e2e.current, () => e2e.current.amctl(['orgs', 'summary', '--org', 'nope', '--json', '--jq', '.']))
    expectError(r, 5, 'not_found', 404)
    expect(reqs).toEqual([`GET ${API}/orgs/nope/summary`])
    const unknown = await e2e.current.amctl(['runs', 'lst', '--json', '--jq', '.'])
    expectError(unknown, 2, 'invalid_request')
  })

  it('a jq error on the data exits 1 (jq_error) after the results before it', async () => {
    const r = await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '1', '--jq', '.items[0].id, (.items[0].id | .x)'])
    expect(r.exitCode).toBe(1)
    expect(lines(r.stdout)).toHaveLength(1)
    expect(r.stderr).toBe('error: --jq: Cannot index string with string ("x") (jq_error)\n')
  })

  it('the engine is loaded by commands given --jq and by no other', async () => {
    const env = {NODE_DEBUG: 'module'}
    const [plain, filtered] = await Promise.all([
      e2e.current.amctl(['config', 'list', '--json'], {env}),
      e2e.current.amctl(['config', 'list', '--jq', 'keys'], {env}),
    ])
    expect(plain.exitCode).toBe(0)
    expect(loadsEngine(plain.stderr)).toBe(false)
    expect(filtered).toMatchObject({exitCode: 0, stdout: '["base-url","org","profile","sources"]\n'})
    expect(loadsEngine(filtered.stderr)).toBe(true)
  })

  it('results stream: an endless program piped to `head -3` ends at once with exit 0, nothing on stderr', async () => {
    const r = await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '1', '--jq', 'repeat(1)'], {
      closeStdout: 'line',
      timeoutMs: 20_000,
    })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.signal).toBeNull()
    expect(r.stderr).toBe('')
    expect(r.stdout).toMatch(/^1\n/)
  })

  it('results stream in flat memory: 256 MiB of output read slowly, the peak RSS grows by less than half of it', async () => {
    // the reader takes what comes, pausing after every chunk; before, nothing came until jq ended
    const WANTED = 256 * 1024 * 1024
    const peaks: number[] = []
    const r = await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '1', '--jq', 'repeat("x" * 1000)'], {
      timeoutMs: 120_000,
      onSpawn: (child) => {
        let read = 0
        // VmHWM: the process's peak resident memory so far, in KiB
        const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1])
        child.stdout?.on('data', (chunk: Buffer) => {
          read += chunk.length
          child.stdout?.pause()
          setImmediate(() => child.stdout?.resume())
          if (peaks.length === 0 && read >= 1024 * 1024) peaks.push(peak())
          if (peaks.length === 1 && read >= WANTED) {
            peaks.push(peak())
            child.stdout?.destroy()
          }
        })
      },
    })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(peaks).toHaveLength(2)
    // (what grows is the garbage of the strings passed along before V8 collects it, not the output:
    // 70 MiB was seen on a loaded machine; output collected before printing would be all 256 MiB
    // and more, as JavaScript strings)
    expect((peaks[1] - peaks[0]) * 1024).toBeLessThan(WANTED / 2)
  }, 150_000)

  it('out of memory in jq: one error line saying so, exit 1, jq_error; never a raw "Aborted()"', async () => {
    const r = await e2e.current.amctl(['runs', 'list', '--org', 'acme', '--limit', '1', '--jq', 'reduce range(40) as $i ("x"; . + .)'], {
      timeoutMs: 120_000,
    })
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      'error: --jq ran out of memory: jq stopped at its limit of 256 MiB (a recursion too deep ends there too) (jq_error)\n',
    )
  }, 150_000)

  it('dev server --jq: the filtered description, then the server runs until Ctrl-C; a jq error stops it', async () => {
    const started = await runBin(['dev', 'server', '--port', '0', '--jq', '.baseUrl, (.orgs | map(.slug) | join(","))'], {
      // Ctrl-C once both results are out: jq writes them as it makes them, maybe in two chunks,
      // and a Ctrl-C between them ends jq (as it should), which is not what this test is about
      onSpawn: (child) => {
        let printed = ''
        child.stdout?.on('data', (chunk: Buffer) => {
          printed += chunk.toString()
          if (printed.split('\n').length > 2) child.kill('SIGINT')
        })
      },
    })
    expect(started.exitCode).toBe(0)
    expect(lines(started.stdout)).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), 'acme,globex'])
    const failed = await runBin(['dev', 'server', '--port', '0', '--jq', '.baseUrl.x'], {timeoutMs: 15_000})
    expectError(failed, 1, 'jq_error')
  })
})
