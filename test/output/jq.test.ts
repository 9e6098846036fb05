import {describe, expect, it} from 'vitest'
import {isAmctlError} from '../../src/core/errors.js'
import {compileJq, jqText} from '../../src/output/jq.js'

// --jq's engine: jq itself (jq-wasm), so these check our use of it — what a result looks like
// (`jq -r -c`), how its errors become ours, the compile check that runs nothing — and a few
// jq features users reach for, to catch an engine that is not really jq.

const runs = {
  items: [
    {id: 'run_1', status: 'succeeded', score: 0.9, tags: ['a', 'b']},
    {id: 'run_2', status: 'failed', score: null, tags: []},
    {id: 'run_3', status: 'succeeded', score: 0.4, tags: ['c']},
  ],
  nextCursor: null,
}

async function results(expression: string, document: unknown = runs): Promise<string[]> {
  const run = (await compileJq(expression)).run(document)
  expect(run.error).toBeUndefined()
  return run.results
}

async function compileError(expression: string): Promise<{message: string; code: string; exitCode: number}> {
  const error = await compileJq(expression).then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!isAmctlError(error)) throw new Error(`expected a usage error for ${expression}, got ${String(error)}`)
  return {message: error.message, code: error.code, exitCode: error.exitCode}
}

describe('compileJq(…).run: results as `jq -r -c` prints them', () => {
  it('strings raw, every other value as compact JSON, one result each', async () => {
    expect(await results('.items[0].id, .items[0].score, .items[1].score, .items[0].tags, .items[0], true, .nextCursor')).toEqual([
      'run_1',
      '0.9',
      'null',
      '["a","b"]',
      '{"id":"run_1","status":"succeeded","score":0.9,"tags":["a","b"]}',
      'true',
      'null',
    ])
  })

  it('select, map, length, string interpolation', async () => {
    expect(await results('.items[] | select(.status == "succeeded") | .id')).toEqual(['run_1', 'run_3'])
    expect(await results('.items | map(.score // 0) | add')).toEqual(['1.3'])
    expect(await results('[.items[] | .tags | length]')).toEqual(['[2,0,1]'])
    expect(await results('.items[] | "\\(.id) is \\(.status)"')).toEqual(['run_1 is succeeded', 'run_2 is failed', 'run_3 is succeeded'])
  })

  it('@csv and @tsv give one line per row', async () => {
    expect(await results('.items[] | [.id, .status, .score] | @csv')).toEqual([
      '"run_1","succeeded",0.9',
      '"run_2","failed",',
      '"run_3","succeeded",0.4',
    ])
    expect(await results('.items[] | [.id, .status] | @tsv')).toEqual(['run_1\tsucceeded', 'run_2\tfailed', 'run_3\tsucceeded'])
  })

  it("keeps a raw string's own whitespace and newlines, and escapes nothing in it", async () => {
    const strings = ['  padded  ', 'two\nlines\n', 'tab\there', 'bell\u0007']
    expect(await results('.[]', strings)).toEqual(strings)
  })

  it('no result prints nothing; empty and a non-object document work', async () => {
    expect(await results('.items[] | select(.status == "cancelled")')).toEqual([])
    expect(await results('empty')).toEqual([])
    expect(await results('. + 1', 41)).toEqual(['42'])
    expect(await results('length', 'plain text body')).toEqual(['15'])
  })

  it('an expression that starts with "-" is the expression, never one of jq\'s options', async () => {
    expect(await results('-.n', {n: 3})).toEqual(['-3'])
    expect((await compileError('-h')).message).toBe('--jq: h/0 is not defined at <top-level>, line 1, column 2')
    expect((await compileError('--arg')).message).toMatch(/^--jq: arg\/0 is not defined/)
  })

  it('what jq writes on stderr without failing (debug) comes back as messages', async () => {
    const run = (await compileJq('.nextCursor | debug | "done"')).run(runs)
    expect(run).toEqual({results: ['done'], messages: ['["DEBUG:",null]']})
  })
})

describe('errors', () => {
  it("an expression that does not compile is a usage error (exit 2) with jq's message on one line", async () => {
    expect(await compileError('.items[] |')).toEqual({
      message: '--jq: syntax error, unexpected end of file at <top-level>, line 1, column 10',
      code: 'invalid_request',
      exitCode: 2,
    })
    expect((await compileError('.items | mapp(.id)')).message).toBe('--jq: mapp/1 is not defined at <top-level>, line 1, column 10')
    expect((await compileError('$nope')).message).toBe('--jq: $nope is not defined at <top-level>, line 1, column 1')
    expect((await compileError('')).message).toBe('--jq: Top-level program not given (try ".")')
    expect((await compileError('include "x"; .')).message).toBe('--jq: module not found: x')
  })

  it('several compile errors are joined on the one line', async () => {
    expect((await compileError('foo | bar')).message).toBe(
      '--jq: foo/0 is not defined at <top-level>, line 1, column 1; bar/0 is not defined at <top-level>, line 1, column 7',
    )
  })

  it('compiling runs nothing: an expression that fails on every input compiles', async () => {
    const program = await compileJq('error("boom")')
    expect(program.run(null).error?.message).toBe('--jq: boom')
  })

  it('a runtime error (jq exit 5) keeps the results before it and becomes jq_error, exit 1', async () => {
    const run = (await compileJq('.items[] | .score * 2')).run(runs)
    expect(run.results).toEqual(['1.8'])
    expect(run.error).toMatchObject({code: 'jq_error', exitCode: 1, message: '--jq: null (null) and number (2) cannot be multiplied'})
    const index = (await compileJq('.items[0].score.x')).run(runs)
    expect(index).toMatchObject({results: [], error: {message: '--jq: Cannot index number with string ("x")'}})
    const object = (await compileJq('error({code: 1})')).run(runs)
    expect(object.error?.message).toBe('--jq: (not a string): {"code":1}')
  })

  it('halt_error: its message, or the exit status when it has none', async () => {
    expect((await compileJq('"stop here" | halt_error(4)')).run(runs).error?.message).toBe('--jq: stop here')
    expect((await compileJq('null | halt_error(1)')).run(runs).error?.message).toBe('--jq: jq stopped with exit status 1')
  })
})

describe('jqText', () => {
  it('piped: every result and a newline, as jq -r writes them', () => {
    const results = ['run_1', '{"a":"x\u009by"}', 'two\nlines', 'tab\there\u001b[2J']
    expect(jqText(results, false)).toBe('run_1\n{"a":"x\u009by"}\ntwo\nlines\ntab\there\u001b[2J\n')
    expect(jqText([], false)).toBe('')
  })

  it('on a terminal: control characters written visibly, newlines kept, JSON still JSON', () => {
    const text = jqText(['two\nlines', 'clear\u001b[2J', '{"a":"x\u009by"}'], true)
    expect(text).toBe('two\nlines\nclear\\u001b[2J\n{"a":"x\\u009by"}\n')
    expect(JSON.parse(text.split('\n')[3])).toEqual({a: 'x\u009by'})
  })
})
