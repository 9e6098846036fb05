import {closeSync, openSync, readdirSync, statSync} from 'node:fs'
import {Writable} from 'node:stream'
import {join} from 'node:path'
import {describe, expect, it, vi} from 'vitest'
import Api from '../../src/commands/api.js'
import ConfigGet from '../../src/commands/config/get.js'
import EvalsRun from '../../src/commands/evals/run.js'
import OrgsSummary from '../../src/commands/orgs/summary.js'
import RunsFork from '../../src/commands/runs/fork.js'
import RunsList from '../../src/commands/runs/list.js'
import RunsWatch from '../../src/commands/runs/watch.js'
import {DirectStdout} from '../../src/output/io.js'
import {ROOT, runCommand} from '../helpers/cli.js'
import {dropConnection, reply, useFakeApi} from '../helpers/fake-api.js'
import {readRecent} from '../../src/core/recent.js'
import {FAKE_WALL_START} from '../helpers/fake-clock.js'
import {tempDir} from '../helpers/temp.js'

// --jq as every command gets it from the base command: the expression compiled before any
// request, the document --json would print filtered through jq, errors as without --json.

// the engine is a worker thread running jq-wasm (src/output/jq-worker.cjs): counted as it starts
const engine = vi.hoisted(() => ({imports: 0}))
vi.mock('node:worker_threads', async (importOriginal) => {
  const threads = await importOriginal<typeof import('node:worker_threads')>()
  class CountedWorker extends threads.Worker {
    constructor(...args: ConstructorParameters<typeof threads.Worker>) {
      if (String(args[0]).endsWith('jq-worker.cjs')) engine.imports++
      super(...args)
    }
  }
  return {...threads, default: {...threads, Worker: CountedWorker}, Worker: CountedWorker}
})

const run = (i: number, status = 'succeeded') => ({
  id: `run_${i}`,
  status,
  evalSetId: 'es_1',
  batchId: null,
  createdAt: `2026-01-01T00:00:0${i}Z`,
  forkedFrom: null,
  agent: null,
  model: null,
  score: null,
})
const api = useFakeApi({}, {me: false})

interface CommandShape {
  enableJsonFlag?: boolean
  flags?: Record<string, unknown>
  baseFlags?: Record<string, unknown>
}

/** src/commands/<topic>/<verb>.ts, without the topics' shared/ helpers */
function commandFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'shared' ? [] : commandFiles(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

/** Three pages of 2 runs: cursors c1, c2, then none. */
function paged(): void {
  api.stub('GET /orgs/acme/runs', (req) => {
    const cursor = new URL(req.path, 'http://x').searchParams.get('cursor')
    if (!cursor) return reply(200, {items: [run(1), run(2, 'failed')], nextCursor: 'c1'})
    if (cursor === 'c1') return reply(200, {items: [run(3), run(4)], nextCursor: 'c2'})
    return reply(200, {items: [run(5, 'failed'), run(6)], nextCursor: null})
  })
}

// first in the file: the engine is loaded once per process, so this must run before any --jq
describe('loading', () => {
  it('the jq engine is loaded only by a command given --jq', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1)], nextCursor: null})
    const plain = await runCommand(RunsList, ['--org', 'acme', '--json'], {env: api.env()})
    expect(plain.exitCode).toBe(0)
    expect(engine.imports).toBe(0)
    const filtered = await runCommand(RunsList, ['--org', 'acme', '--jq', '.items[0].id'], {env: api.env()})
    expect(filtered.stdout).toBe('run_1\n')
    expect(engine.imports).toBe(1)
  })
})

describe('--jq', () => {
  it('prints each result on its own line: strings raw, other values compact JSON', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1), run(2, 'failed')], nextCursor: 'c1'})
    const expression = '.items[] | select(.status == "succeeded") | .id, {id}, .createdAt'
    const r = await runCommand(RunsList, ['--jq', expression, '--org', 'acme'], {env: api.env()})
    expect(r).toMatchObject({exitCode: 0, stderr: ''})
    expect(r.stdout).toBe('run_1\n{"id":"run_1"}\n2026-01-01T00:00:01Z\n')
    const map = await runCommand(RunsList, ['--org', 'acme', '--jq', '[.items[] | .status] | map(ascii_upcase)'], {env: api.env()})
    expect(map.stdout).toBe('["SUCCEEDED","FAILED"]\n')
    const text = await runCommand(RunsList, ['--org', 'acme', '--jq', '.items[] | "\\(.id): \\(.status)"'], {env: api.env()})
    expect(text.stdout).toBe('run_1: succeeded\nrun_2: failed\n')
    const tsv = await runCommand(RunsList, ['--org', 'acme', '--jq', '.items[] | [.id, .status] | @tsv'], {env: api.env()})
    expect(tsv.stdout).toBe('run_1\tsucceeded\nrun_2\tfailed\n')
    const csv = await runCommand(RunsList, ['--org', 'acme', '--jq', '.items[] | [.id, .status] | @csv'], {env: api.env()})
    expect(csv.stdout).toBe('"run_1","succeeded"\n"run_2","failed"\n')
    const none = await runCommand(RunsList, ['--org', 'acme', '--jq', '.items[] | select(.status == "queued")'], {env: api.env()})
    expect(none).toMatchObject({exitCode: 0, stdout: '', stderr: ''})
  })

  it('-q is --jq (as gh has it), in every form oclif takes a short flag', async () => {
    for (const argv of [['-q', '.items[].id'], ['-q.items[].id'], ['-q=.items[].id']]) {
      api.stub('GET /orgs/acme/runs', {items: [run(1), run(2)], nextCursor: null})
      const r = await runCommand(RunsList, ['--org', 'acme', ...argv], {env: api.env()})
      expect(r, argv.join(' ')).toMatchObject({exitCode: 0, stdout: 'run_1\nrun_2\n', stderr: ''})
    }
    // errors show as without --json, as with --jq
    const bad = await runCommand(RunsList, ['--org', 'acme', '-q', '.items['], {env: api.env()})
    expect(bad.exitCode).toBe(2)
    expect(bad.stdout).toBe('')
    expect(bad.stderr).toMatch(/^error: --jq: /)
  })

  it('implies --json: with or without --json the output is the same, on a terminal too', async () => {
    api.stub('GET /orgs/acme/summary', {counts: {runs: 260}, name: 'Acme'})
    for (const tty of [false, true]) {
      const alone = await runCommand(OrgsSummary, ['--org', 'acme', '--jq', '.counts, .name'], {tty, env: api.env()})
      const both = await runCommand(OrgsSummary, ['--json', '--org', 'acme', '--jq=.counts, .name'], {tty, env: api.env()})
      expect(alone).toMatchObject({exitCode: 0, stdout: '{"runs":260}\nAcme\n', stderr: ''})
      expect(both).toMatchObject({exitCode: 0, stdout: alone.stdout, stderr: ''})
    }
  })

  it('@tsv on a terminal: the columns are real tabs, as piped; an escape sequence in a value is not obeyed', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1), {...run(2, 'failed'), id: 'run_2\u001b[2J'}], nextCursor: null})
    const argv = ['--org', 'acme', '--jq', '.items[] | [.id, .status] | @tsv']
    const tty = await runCommand(RunsList, argv, {tty: true, env: api.env()})
    expect(tty.stdout).toBe('run_1\tsucceeded\nrun_2\\u001b[2J\tfailed\n')
    const piped = await runCommand(RunsList, argv, {env: api.env()})
    expect(piped.stdout).toBe('run_1\tsucceeded\nrun_2\u001b[2J\tfailed\n')
  })

  it('an expression that does not compile exits 2 before any request', async () => {
    for (const argv of [
      ['--jq', '.items[] |'],
      ['--json', '--jq', '.items[] |'],
    ]) {
      const r = await runCommand(RunsList, argv, {env: api.env()})
      expect(r.exitCode).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toBe('error: --jq: syntax error, unexpected end of file at <top-level>, line 1, column 10 (invalid_request)\n')
    }
    const undefinedFilter = await runCommand(Api, ['/me', '--jq', 'nosuch'], {env: api.env()})
    expect(undefinedFilter.stderr).toBe('error: --jq: nosuch/0 is not defined at <top-level>, line 1, column 1 (invalid_request)\n')
    expect(api.requests()).toEqual([])
  })

  it('--all: jq sees the whole {"items":[…]} of every page', async () => {
    paged()
    const expression = '(.items | length), (.items[] | select(.status == "failed") | .id), keys'
    const r = await runCommand(RunsList, ['--org', 'acme', '--all', '--limit', '2', '--jq', expression], {env: api.env()})
    expect(r).toMatchObject({exitCode: 0, stderr: ''})
    expect(r.stdout).toBe('6\nrun_2\nrun_5\n["items"]\n')
    expect(api.requests().map((q) => q.path)).toEqual([
      '/api/v1/orgs/acme/runs?limit=2',
      '/api/v1/orgs/acme/runs?limit=2&cursor=c1',
      '/api/v1/orgs/acme/runs?limit=2&cursor=c2',
    ])
    const raw = await runCommand(Api, ['/orgs/acme/runs', '--paginate', '--jq', '[.items[].id] | join(",")'], {env: api.env()})
    expect(raw).toMatchObject({exitCode: 0, stdout: 'run_1,run_2,run_3,run_4,run_5,run_6\n', stderr: ''})
  })

  it('--all on a terminal: the progress line on stderr while pages are collected, erased before the results', async () => {
    paged()
    const r = await runCommand(RunsList, ['--org', 'acme', '--all', '--jq', '.items | length'], {stderrTTY: true, env: api.env()})
    expect(r).toMatchObject({exitCode: 0, stdout: '6\n'})
    expect(r.stderr).toMatch(/^\r\u001B\[2Kfetched 2 runs….*\r\u001B\[2K$/s)
  })

  it('--all: a page failing midway is a failed command: the error line, nothing on stdout', async () => {
    api.stub('GET /orgs/acme/runs', (req) => {
      if (!req.path.includes('cursor')) return reply(200, {items: [run(1)], nextCursor: 'c1'})
      return reply(403, {error: {code: 'forbidden', message: 'membership removed'}})
    })
    for (const argv of [
      ['--jq', '.items[].id'],
      ['--json', '--jq', '.items[].id'],
    ]) {
      const r = await runCommand(RunsList, ['--org', 'acme', '--all', ...argv], {env: api.env()})
      expect(r).toMatchObject({exitCode: 4, stdout: '', stderr: 'error: membership removed (forbidden, HTTP 403)\n'})
    }
  })

  it('a failing command: the one-line error on stderr, nothing on stdout, even with --json', async () => {
    api.stub('GET /orgs/acme/summary', () => reply(403, {error: {code: 'forbidden', message: 'not a member'}}))
    for (const argv of [
      ['--jq', '.'],
      ['--json', '--jq', '.'],
      ['--jq', '.', '--json'],
    ]) {
      const r = await runCommand(OrgsSummary, ['--org', 'acme', ...argv], {env: api.env()})
      expect(r).toMatchObject({exitCode: 4, stdout: '', stderr: 'error: not a member (forbidden, HTTP 403)\n'})
    }
    // a parse error too (before the expression is looked at)
    const parse = await runCommand(RunsFork, ['--json', '--jq', '.id'], {env: api.env()})
    expect(parse).toMatchObject({exitCode: 2, stdout: '', stderr: 'error: missing argument RUN_ID (invalid_request)\n'})
  })

  it('an unknown outcome: the error line on stderr, the document through jq on stdout, exit 9', async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
      throw dropConnection()
    })
    api.stub('GET /orgs/acme/runs', {items: [run(2, 'queued')], nextCursor: null})
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme', '--jq', '.outcome, .recentRuns[].id, .error.code'], {env: api.env()})
    expect(r.exitCode).toBe(9)
    expect(r.stdout).toBe('unknown\nrun_2\noutcome_unknown\n')
    expect(r.stderr).toMatch(/^error: .*the server may have accepted the request; check before retrying \(outcome_unknown\)\n$/)
  })

  it('a jq error at run time: the results before it, then the error line, exit 1 (jq_error)', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1), run(2)], nextCursor: null})
    const r = await runCommand(RunsList, ['--org', 'acme', '--jq', '.items[] | .id, (.status | .x)'], {env: api.env()})
    expect(r).toMatchObject({exitCode: 1, stdout: 'run_1\n', stderr: 'error: --jq: Cannot index string with string ("x") (jq_error)\n'})
  })

  it("jq's own messages (debug) go to stderr; stdout keeps the results", async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1)], nextCursor: null})
    const r = await runCommand(RunsList, ['--org', 'acme', '--jq', '.nextCursor | debug | "end"'], {env: api.env()})
    expect(r).toMatchObject({exitCode: 0, stdout: 'end\n', stderr: '["DEBUG:",null]\n'})
  })

  it('server text in a raw string: as it is when piped, control characters visible on a terminal', async () => {
    api.stub('GET /orgs/acme/runs', {items: [{...run(1), agent: 'evil\u001b]0;pwned\u0007\nsecond line'}], nextCursor: null})
    const argv = ['--org', 'acme', '--jq', '.items[0].agent, {agent: .items[0].agent}']
    const piped = await runCommand(RunsList, argv, {env: api.env()})
    expect(piped.stdout).toBe('evil\u001b]0;pwned\u0007\nsecond line\n{"agent":"evil\\u001b]0;pwned\\u0007\\nsecond line"}\n')
    const tty = await runCommand(RunsList, argv, {tty: true, env: api.env()})
    expect(tty.stdout).toBe('evil\\u001b]0;pwned\\u0007\nsecond line\n{"agent":"evil\\u001b]0;pwned\\u0007\\nsecond line"}\n')
  })

  it.each([[['--json', '--jq', '.']], [['--jq=.', '--json']]])(
    '%j: a usage error inside a command is the one line on stderr, never the JSON document (--jq implies --json for data only)',
    async (args) => {
      const r = await runCommand(ConfigGet, ['no-such-key', ...args])
      expect(r).toMatchObject({exitCode: 2, stdout: ''})
      expect(r.stderr).toMatch(/^error: .*\(invalid_request\)\n/)
    },
  )

  it('keeps the runs it printed for shell completion, as without --jq', async () => {
    const env = {...api.env(), AMCTL_CACHE_DIR: tempDir('amctl-cache-')}
    api.stub('GET /orgs/acme/runs', {items: [run(2), {...run(1), status: 'failed'}], nextCursor: null})
    expect((await runCommand(RunsList, ['--org', 'acme', '--jq', '.items[0].id'], {env})).stdout).toBe('run_2\n')
    expect(readRecent(env, FAKE_WALL_START).runs.map(({id, note}) => [id, note])).toEqual([
      ['run_2', 'succeeded, es_1'],
      ['run_1', 'failed, es_1'],
    ])
  })

  it('commands that send no request take it too (config get)', async () => {
    const r = await runCommand(ConfigGet, ['org', '--jq', '[.key, .value]'], {env: {AMCTL_PROFILE: undefined}})
    expect(r).toMatchObject({exitCode: 0, stdout: '["org",null]\n', stderr: ''})
  })

  it('every command that has --json has --jq', async () => {
    const files = commandFiles(join(ROOT, 'src', 'commands'))
    const commands = await Promise.all(files.map(async (file) => ({file, Cmd: (await import(file)).default as CommandShape})))
    const withJson = commands.filter(({Cmd}) => Cmd.enableJsonFlag)
    const named = (path: string) => join(ROOT, 'src', 'commands', path)
    expect(withJson.map(({file}) => file)).toEqual(
      expect.arrayContaining([named('dev/server.ts'), named('config/set.ts'), named('api.ts')]),
    )
    const flagsOf = (Cmd: CommandShape) => ({...Cmd.baseFlags, ...Cmd.flags})
    expect(withJson.filter(({Cmd}) => !('jq' in flagsOf(Cmd))).map(({file}) => file)).toEqual([])
  })
})

/** A stdout whose every write fails after it returned, as a terminal that went away does (EIO). */
function brokenStdout(): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      setImmediate(() => done(Object.assign(new Error('EIO: i/o error, write'), {code: 'EIO', syscall: 'write'})))
    },
  })
}

describe('a stdout that cannot be written (issue 32 item 6)', () => {
  const EIO = 'error: cannot write to stdout: i/o error (EIO) (output_error)\n'

  it("a wait's verdict keeps its exit code (10, 11: a retry on exit 1 would launch again), with one error line and no stack", async () => {
    for (const json of [[], ['--json'], ['--jq', '.items[].id']]) {
      api.stub('GET /orgs/acme/runs', {items: [run(1, 'failed')], nextCursor: null})
      const failed = await runCommand(RunsWatch, ['run_1', '--org', 'acme', ...json], {env: api.env(), stdout: brokenStdout()})
      expect(failed.exitCode, json.join(' ')).toBe(10)
      expect(failed.stderr.endsWith(`run_1 failed (0s)\n${EIO}`), failed.stderr).toBe(true)
      api.stub('GET /orgs/acme/runs', {items: [run(1, 'running')], nextCursor: null})
      const timedOut = await runCommand(RunsWatch, ['run_1', '--org', 'acme', '--wait-timeout', '5', ...json], {
        env: api.env(),
        stdout: brokenStdout(),
      })
      expect(timedOut.exitCode, json.join(' ')).toBe(11)
      expect(timedOut.stderr.endsWith(EIO), timedOut.stderr).toBe(true)
    }
  })

  it('after a pass, and for any other command, it is the error: exit 1, the one line', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1)], nextCursor: null})
    const passed = await runCommand(RunsWatch, ['run_1', '--org', 'acme'], {env: api.env(), stdout: brokenStdout()})
    expect(passed.exitCode).toBe(1)
    expect(passed.stderr.endsWith(`✓ 1 run succeeded (0s)\n${EIO}`), passed.stderr).toBe(true)
    for (const argv of [[], ['--json'], ['--all'], ['--all', '--json']]) {
      paged()
      const listed = await runCommand(RunsList, ['--org', 'acme', ...argv], {env: api.env(), stdout: brokenStdout()})
      expect(listed, argv.join(' ')).toMatchObject({exitCode: 1, stderr: EIO})
    }
  })

  it('a full disk (`> /dev/full`): the same, from the first write', async () => {
    api.stub('GET /orgs/acme/runs', {items: [run(1, 'failed')], nextCursor: null})
    const fd = openSync('/dev/full', 'w')
    try {
      const r = await runCommand(RunsWatch, ['run_1', '--org', 'acme'], {env: api.env(), stdout: new DirectStdout(fd) as never})
      expect(r.exitCode).toBe(10)
      expect(r.stderr.endsWith('error: cannot write to stdout: no space left on device (ENOSPC) (output_error)\n'), r.stderr).toBe(true)
    } finally {
      closeSync(fd)
    }
  })

  it('an error under --json whose document stdout cannot take: the error line on stderr, its own exit code', async () => {
    api.stub('GET /orgs/acme/summary', () => reply(403, {error: {code: 'forbidden', message: 'not a member'}}))
    const r = await runCommand(OrgsSummary, ['--org', 'acme', '--json'], {env: api.env(), stdout: brokenStdout()})
    expect(r).toMatchObject({exitCode: 4, stderr: 'error: not a member (forbidden, HTTP 403)\n'})
  })

  it('a launch whose outcome is unknown keeps its 9 (check before retrying): a relaunch must not follow', async () => {
    api.stub('POST /orgs/acme/eval-sets/es_1/run', () => {
      throw dropConnection()
    })
    api.stub('GET /orgs/acme/runs', {items: [run(2, 'queued')], nextCursor: null})
    const r = await runCommand(EvalsRun, ['es_1', '--org', 'acme'], {env: api.env(), stdout: brokenStdout()})
    expect(r.exitCode).toBe(9)
    expect(r.stderr).toMatch(/^error: .*\(outcome_unknown\)\n.*\n.*\(output_error\)\n$/)
  })
})
