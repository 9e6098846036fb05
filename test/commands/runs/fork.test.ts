import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import RunsFork from '../../../src/commands/runs/fork.js'
import {runCommand} from '../../helpers/cli.js'
import {envelope, json, TOKEN, useFakeApi} from '../../helpers/fake-api.js'
import {runAt} from '../../helpers/pages.js'
import {tempDir} from '../../helpers/temp.js'

const FORKED = runAt('run_9', '2026-01-01T00:00:00Z', {status: 'queued', forkedFrom: 'run_1'})
const forked = (id: string) => runAt(id, '2026-01-01T00:00:00Z', {status: 'queued'})
const api = useFakeApi({'POST /runs/run_1/fork': FORKED}, {me: false})

describe('runs fork', () => {
  it('sends POST /runs/{runId}/fork with {} and never resolves an org', async () => {
    const r = await runCommand(RunsFork, ['run_1', '--json'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(FORKED)
    expect(api.requests()).toHaveLength(1)
    const [req] = api.requests()
    expect(req.method).toBe('POST')
    expect(json(req)).toEqual({})
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`)
  })

  it('flags before RUN_ID: -F takes one value per occurrence (contract 1.1)', async () => {
    api.stub('POST /runs/run_7/fork', forked('run_8'))
    const r = await runCommand(RunsFork, ['-F', 'a=1', '-F', 'b=x', 'run_7'], {env: api.env()})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(api.requests()[0].path).toBe('/api/v1/runs/run_7/fork')
    expect(json(api.requests()[0])).toEqual({a: 1, b: 'x'})
  })

  it('member names are data: -F constructor, -f __proto__, -F toString are ordinary members, also over --input', async () => {
    api.stub('POST /runs/run_7/fork', forked('run_8'))
    const r = await runCommand(RunsFork, ['run_7', '--input', '-', '-F', 'constructor=1', '-f', '__proto__=x', '-F', 'toString=1'], {
      env: api.env(),
      stdin: '{"hasOwnProperty": true}',
    })
    expect(r.exitCode, r.stderr).toBe(0)
    expect(api.requests()[0].body).toBe('{"hasOwnProperty":true,"constructor":1,"toString":1,"__proto__":"x"}')
  })

  it('types -F values, keeps -f strings, reads @file, and merges over --input', async () => {
    const dir = tempDir('amctl-fork-')
    const note = join(dir, `note-${process.pid}.txt`)
    writeFileSync(note, 'from a file\n')
    const input = join(dir, `body-${process.pid}.json`)
    writeFileSync(input, '{"a": 1, "keep": "yes"}')
    await runCommand(
      RunsFork,
      [
        'run_1',
        '--input',
        input,
        '-F',
        'a=2',
        '-F',
        'flag=true',
        '-F',
        'none=null',
        '-F',
        'list=[1,"x"]',
        '-F',
        'obj={"k":1}',
        '-F',
        `note=@${note}`,
        '-F',
        'word=hello',
        '-f',
        'num=42',
      ],
      {env: api.env()},
    )
    expect(json(api.requests()[0])).toEqual({
      a: 2,
      keep: 'yes',
      flag: true,
      none: null,
      list: [1, 'x'],
      obj: {k: 1},
      note: 'from a file',
      word: 'hello',
      num: '42',
    })
  })

  it('reads --input - from stdin', async () => {
    await runCommand(RunsFork, ['run_1', '--input', '-'], {env: api.env(), stdin: '{"samples": 3}'})
    expect(json(api.requests()[0])).toEqual({samples: 3})
  })

  it('exits 2 naming line and column for invalid --input JSON, and for a non-object', async () => {
    const bad = await runCommand(RunsFork, ['run_1', '--input', '-'], {env: api.env(), stdin: '{\n  "a": 1,\n  "b": }\n'})
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toMatch(/^error: --input \(stdin\) is not valid JSON: .* at line 3, column 8 \(invalid_request\)\n$/)
    const arr = await runCommand(RunsFork, ['run_1', '--input', '-'], {env: api.env(), stdin: '[1,2]'})
    expect(arr.exitCode).toBe(2)
    expect(arr.stderr).toContain('must be a JSON object, got an array')
    expect(api.requests()).toHaveLength(0)
  })

  it.each([
    ['a/b', 'a%2Fb'],
    ['a?b', 'a%3Fb'],
    ['a#b', 'a%23b'],
    ['50%', '50%25'],
    [' ', '%20'],
    ['café', 'caf%C3%A9'],
  ])('sends RUN_ID %j as one encoded path segment (%s)', async (id, encoded) => {
    api.stub(`POST /runs/${encoded}/fork`, forked('run_new'))
    const r = await runCommand(RunsFork, [id], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(api.requests().map((q) => q.path)).toEqual([`/api/v1/runs/${encoded}/fork`])
  })

  it.each([['.'], ['..'], [''], ['a\nb'], ['a\u001b[2Jb']])('refuses RUN_ID %j before sending', async (id) => {
    const r = await runCommand(RunsFork, [id], {env: api.env()})
    expect(r.exitCode).toBe(2)
    expect(r.stderr.trim().split('\n')[0]).toMatch(/^error: RUN_ID /)
    expect(api.requests()).toHaveLength(0)
  })

  it('percent-encodes the ID in the path', async () => {
    api.stub('POST /runs/run%3A1%40x/fork', forked('run_10'))
    const r = await runCommand(RunsFork, ['run:1@x'], {env: api.env()})
    expect(r.exitCode).toBe(0)
    expect(api.requests()[0].path).toBe('/api/v1/runs/run%3A1%40x/fork')
  })

  it('names the run in a 404', async () => {
    api.stub('POST /runs/run_missing/fork', () => envelope(404, 'not_found', 'resource not found'))
    const r = await runCommand(RunsFork, ['run_missing'], {env: api.env()})
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toBe('error: run "run_missing" not found: resource not found (not_found, HTTP 404)\n')
  })
})

describe('runs fork: typed result and renderer', () => {
  it('returns the new run and hands it to the renderer as an object', async () => {
    const run = FORKED
    const r = await runCommand(RunsFork, ['run_1'], {env: api.env()})
    expect(r.result).toEqual(run)
    expect(r.rendered).toEqual([{method: 'object', value: run}])
  })
})
