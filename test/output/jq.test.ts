import {afterEach, describe, expect, it} from 'vitest'
import {isAmctlError} from '../../src/core/errors.js'
import {compileJq, type JqProgram, type JqRun, jqText} from '../../src/output/jq.js'

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

/** Runs a program on a document: its results as the sink got them, its messages and error. */
async function runOn(program: JqProgram, document: unknown): Promise<{results: string[]} & JqRun> {
  const results: string[] = []
  const run = await program.run(document, async (batch) => {
    results.push(...batch)
  })
  return {results, ...run}
}

const compiled: JqProgram[] = []
afterEach(() => {
  for (const program of compiled.splice(0)) program.close()
})
async function compile(expression: string): Promise<JqProgram> {
  const program = await compileJq(expression)
  compiled.push(program)
  return program
}
const runJq = async (expression: string, document: unknown = runs) => runOn(await compile(expression), document)

async function results(expression: string, document: unknown = runs): Promise<string[]> {
  const run = await runJq(expression, document)
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
    const run = await runJq('.nextCursor | debug | "done"')
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
    expect((await runJq('error("boom")', null)).error?.message).toBe('--jq: boom')
  })

  it('a runtime error (jq exit 5) keeps the results before it and becomes jq_error, exit 1', async () => {
    const run = await runJq('.items[] | .score * 2')
    expect(run.results).toEqual(['1.8'])
    expect(run.error).toMatchObject({code: 'jq_error', exitCode: 1, message: '--jq: null (null) and number (2) cannot be multiplied'})
    const index = await runJq('.items[0].score.x')
    expect(index).toMatchObject({results: [], error: {message: '--jq: Cannot index number with string ("x")'}})
    const object = await runJq('error({code: 1})')
    expect(object.error?.message).toBe('--jq: (not a string): {"code":1}')
  })

  it('halt_error: its message, or the exit status when it has none', async () => {
    expect((await runJq('"stop here" | halt_error(4)')).error?.message).toBe('--jq: stop here')
    expect((await runJq('null | halt_error(1)')).error?.message).toBe('--jq: jq stopped with exit status 1')
  })
})

describe('a worker thread runs jq: results stream, a program without end can be stopped', () => {
  it('results reach the sink in batches while jq runs, not all at the end', async () => {
    const program = await compile('range(200000)')
    const batches: number[] = []
    const run = await program.run(null, async (batch) => {
      batches.push(batch.length)
    })
    expect(run).toEqual({messages: []})
    expect(batches.length).toBeGreaterThan(1)
    expect(batches.reduce((a, b) => a + b, 0)).toBe(200000)
  })

  it('repeat(1): the sink gets results at once; a sink that fails (a closed pipe) stops jq and is the error', async () => {
    const program = await compile('repeat(1)')
    let taken = 0
    const closed = Object.assign(new Error('write EPIPE'), {code: 'EPIPE'})
    await expect(
      program.run(null, async (batch) => {
        taken += batch.length
        if (taken >= 3) throw closed
      }),
    ).rejects.toBe(closed)
    expect(taken).toBeGreaterThanOrEqual(3)
    // the engine was ended with it
    await expect(program.run(null, async () => {})).rejects.toThrow('the jq engine has stopped')
  })

  it('out of memory (jq stops at 256 MiB): jq_error, exit 1, saying so; the engine is ended', async () => {
    const program = await compile('reduce range(40) as $i ("x"; . + .)')
    const run = await runOn(program, null)
    expect(run.results).toEqual([])
    expect(run.error).toMatchObject({
      code: 'jq_error',
      exitCode: 1,
      message: '--jq ran out of memory: jq stopped at its limit of 256 MiB (a recursion too deep ends there too)',
    })
  })

  it('a recursion without end is the same stop, never a raw "Aborted()"', async () => {
    const run = await runJq('def f: [f]; f', null)
    expect(run.error?.message).toBe('--jq ran out of memory: jq stopped at its limit of 256 MiB (a recursion too deep ends there too)')
  })
})

describe('jqText', () => {
  it('piped: every result and a newline, as jq -r writes them', () => {
    const results = ['run_1', '{"a":"x\u009by"}', 'two\nlines', 'tab\there\u001b[2J']
    expect(jqText(results, false)).toBe('run_1\n{"a":"x\u009by"}\ntwo\nlines\ntab\there\u001b[2J\n')
    expect(jqText([], false)).toBe('')
  })

  it('on a terminal: control characters written visibly, newlines and tabs kept, JSON still JSON', () => {
    const text = jqText(['two\nlines', 'clear\u001b[2J', '{"a":"x\u009by"}', 'a\tb\rc\u202ed'], true)
    expect(text).toBe('two\nlines\nclear\\u001b[2J\n{"a":"x\\u009by"}\na\tb\\u000dc\\u202ed\n')
    expect(JSON.parse(text.split('\n')[3])).toEqual({a: 'x\u009by'})
  })
})
