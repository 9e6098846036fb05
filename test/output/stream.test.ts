import {PassThrough, Readable} from 'node:stream'
import {beforeEach, describe, expect, it} from 'vitest'
import type {Page} from '../../src/contract/vocabulary.js'
import {BadResponseError} from '../../src/core/errors.js'
import type {Column} from '../../src/output/format.js'
import type {IO} from '../../src/output/io.js'
import {writeStream} from '../../src/output/stream.js'
import {palette} from '../../src/output/style.js'
import {type FakeClock, fakeClock} from '../helpers/fake-clock.js'
import {type FakeSignals, fakeSignals} from '../helpers/fake-signals.js'

type Row = {id: string; name: string}
const COLUMNS: Column<Row>[] = [
  {header: 'ID', get: (r) => r.id},
  {header: 'NAME', get: (r) => r.name},
]

/** stdout and stderr both terminals, written into one transcript in order. */
function terminalIO(): IO & {transcript: [stream: 'out' | 'err', text: string][]} {
  const transcript: ['out' | 'err', string][] = []
  const sink = (name: 'out' | 'err') => {
    const stream = new PassThrough()
    const write = stream.write.bind(stream)
    stream.write = ((chunk: string, ...rest: never[]) => {
      transcript.push([name, String(chunk)])
      return write(chunk, ...rest)
    }) as typeof stream.write
    stream.resume()
    return stream
  }
  return {
    transcript,
    stdin: Readable.from([]),
    stdout: sink('out'),
    stderr: sink('err'),
    stdinIsTTY: false,
    stdoutIsTTY: true,
    stderrIsTTY: true,
    stdoutColor: false,
    stderrColor: false,
  }
}

async function* pagesOf(count: number, failAt?: number): AsyncGenerator<Page<Row>> {
  for (let p = 0; p < count; p++) {
    if (p === failAt) throw new BadResponseError('page broke')
    await clock.sleep(500) // each page later than the last, so progress redraws
    yield {
      items: [
        {id: `r${p}a`, name: 'a'},
        {id: `r${p}b`, name: 'b'},
      ],
      nextCursor: `c${p}`,
    }
  }
}

const ERASE = '\r\u001B[2K'

let clock: FakeClock
let signals: FakeSignals
beforeEach(() => {
  clock = fakeClock(0)
  signals = fakeSignals()
})

describe('streamed lists on a terminal (contract 1.4: progress never shares a line with a row)', () => {
  it('erases the progress line before every batch of rows, and at the end', async () => {
    const io = terminalIO()
    const outcome = await writeStream(
      {kind: 'stream', pages: pagesOf(4), columns: COLUMNS, noun: {one: 'row', other: 'rows'}},
      {io, mode: 'tty', style: palette(false), now: 0, clock, signals},
    )
    expect(outcome).toEqual({count: 8, errorWritten: false})
    let progressShown = false
    for (const [stream, text] of io.transcript) {
      if (stream === 'err') progressShown = !text.endsWith(ERASE) && text.includes('fetched')
      else expect(progressShown, `a row was written while the progress line stood: ${JSON.stringify(text)}`).toBe(false)
    }
    expect(io.transcript.filter(([s]) => s === 'err').some(([, t]) => t.includes('fetched 6 rows'))).toBe(true)
    expect(io.transcript.at(-1)).toEqual(['err', ERASE])
  })

  it('erases it when a page fails, before the error is reported', async () => {
    const io = terminalIO()
    const outcome = await writeStream(
      {kind: 'stream', pages: pagesOf(4, 2), columns: COLUMNS, noun: {one: 'row', other: 'rows'}},
      {io, mode: 'tty', style: palette(false), now: 0, clock, signals},
    )
    expect(outcome.error?.message).toBe('page broke')
    expect(io.transcript.at(-1)).toEqual(['err', ERASE])
  })

  it('is erased by the process exit too (Ctrl-C, a closed pipe), never left behind', async () => {
    const io = terminalIO()
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let firstPage!: () => void
    const shown = new Promise<void>((resolve) => (firstPage = resolve))
    async function* pages(): AsyncGenerator<Page<Row>> {
      await clock.sleep(500)
      yield {items: [{id: 'r1', name: 'a'}], nextCursor: 'c1'}
      firstPage()
      await gate // the next page is slow to come …
      yield {items: [{id: 'r2', name: 'b'}]}
    }
    const writing = writeStream(
      {kind: 'stream', pages: pages(), columns: COLUMNS, noun: {one: 'row', other: 'rows'}},
      {io, mode: 'tty', style: palette(false), now: 0, clock, signals},
    )
    await shown
    expect(io.transcript.at(-1)?.[1]).toContain('fetched 1 row…')
    // … and the process ends meanwhile (Ctrl-C, a closed pipe): the exit handlers run
    expect(signals.exitHandlers()).toBe(1)
    signals.exit()
    expect(io.transcript.at(-1)).toEqual(['err', ERASE])
    release()
    await writing
  })
})
