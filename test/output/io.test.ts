import {closeSync, openSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {Writable} from 'node:stream'
import {beforeAll, describe, expect, it} from 'vitest'
import {colorAllowed, DirectStdout, write, written} from '../../src/output/io.js'
import {tempDir} from '../helpers/temp.js'
import {loadColors, palette} from '../../src/output/style.js'

// chalk is loaded on demand by commands that colour; these tests colour
beforeAll(loadColors)

describe('colour decision', () => {
  it('is on for a terminal with nothing set', () => {
    expect(colorAllowed(true, {})).toBe(true)
  })

  it('is off when not a terminal', () => {
    expect(colorAllowed(false, {})).toBe(false)
  })

  it.each([['1'], ['true'], ['0'], ['anything']])('NO_COLOR=%s turns it off', (value) => {
    expect(colorAllowed(true, {NO_COLOR: value})).toBe(false)
  })

  it('an empty NO_COLOR is ignored (no-color.org)', () => {
    expect(colorAllowed(true, {NO_COLOR: ''})).toBe(true)
  })

  it('FORCE_COLOR=0 turns it off', () => {
    expect(colorAllowed(true, {FORCE_COLOR: '0'})).toBe(false)
    expect(colorAllowed(true, {FORCE_COLOR: 'false'})).toBe(false)
  })

  it('CLICOLOR_FORCE (set, not 0) turns it on off a terminal too, as gh has it; CLICOLOR=0 turns it off', () => {
    expect(colorAllowed(false, {CLICOLOR_FORCE: '1'})).toBe(true)
    expect(colorAllowed(false, {CLICOLOR_FORCE: 'yes'})).toBe(true)
    expect(colorAllowed(false, {CLICOLOR_FORCE: '0'})).toBe(false)
    expect(colorAllowed(false, {CLICOLOR_FORCE: ''})).toBe(false)
    expect(colorAllowed(true, {CLICOLOR: '0'})).toBe(false)
    expect(colorAllowed(true, {CLICOLOR: '1'})).toBe(true)
    expect(colorAllowed(false, {CLICOLOR: '1'})).toBe(false)
  })

  it('NO_COLOR and FORCE_COLOR=0 win over CLICOLOR_FORCE: asked for no colour, none is sent', () => {
    expect(colorAllowed(false, {CLICOLOR_FORCE: '1', NO_COLOR: '1'})).toBe(false)
    expect(colorAllowed(true, {CLICOLOR_FORCE: '1', FORCE_COLOR: '0'})).toBe(false)
    // CLICOLOR_FORCE wins over CLICOLOR=0 (bixense.com/clicolors)
    expect(colorAllowed(false, {CLICOLOR_FORCE: '1', CLICOLOR: '0'})).toBe(true)
  })

  it('the palette emits escape codes exactly when colour is on', () => {
    expect(palette(false).red('x')).toBe('x')
    expect(palette(false).bold('x')).toBe('x')
    expect(palette(true).red('x')).toMatch(/\u001B\[31mx\u001B\[39m/)
  })
})

describe('DirectStdout (stdout a pipe or a file)', () => {
  /** A DirectStdout on a file of its own, and the stream it falls back to (counted when made). */
  function onFile() {
    const path = join(tempDir('amctl-direct-'), 'out.txt')
    const fd = openSync(path, 'w')
    const later: string[] = []
    let made = 0
    const stream = new Writable({
      write(chunk, _encoding, done) {
        later.push(chunk.toString())
        done()
      },
    })
    const out = new DirectStdout(fd, () => {
      made++
      return stream
    })
    return {out, fd, made: () => made, file: () => readFileSync(path, 'utf8'), later}
  }

  it('writes what fits in a pipe (64 KiB) to the descriptor, without the stream', () => {
    const {out, fd, made, file} = onFile()
    expect(out.write('base-url\thttp://127.0.0.1:4010\n')).toBe(true)
    expect(out.write('org\tacme ünïcode\n')).toBe(true)
    closeSync(fd)
    expect(file()).toBe('base-url\thttp://127.0.0.1:4010\norg\tacme ünïcode\n')
    expect(made()).toBe(0)
  })

  it('beyond 64 KiB, that write and every later one go through the stream, in order', () => {
    const {out, fd, made, file, later} = onFile()
    const page = 'x'.repeat(40 * 1024)
    out.write(page)
    out.write(`${page}\n`)
    out.write('after\n')
    closeSync(fd)
    expect(file()).toBe(page)
    expect(later).toEqual([`${page}\n`, 'after\n'])
    expect(made()).toBe(1)
  })

  it.each([
    ['a full disk (`> /dev/full`)', () => openSync('/dev/full', 'w'), 'no space left on device (ENOSPC)'],
    ['a descriptor not open for writing (`1</dev/null`)', () => openSync('/dev/null', 'r'), 'bad file descriptor (EBADF)'],
  ])('a descriptor that cannot be written, %s: the output error, on this write and every later one', (_what, open, why) => {
    const fd = open()
    let made = 0
    const out = new DirectStdout(fd, () => {
      made++
      return new Writable()
    })
    const expected = {code: 'output_error', exitCode: 1, message: `cannot write to stdout: ${why}`}
    expect(() => out.write('row\n')).toThrow(expect.objectContaining(expected))
    expect(() => out.write('more\n')).toThrow(expect.objectContaining(expected))
    expect(made).toBe(0)
    closeSync(fd)
  })
})

/** A stream whose every write fails after it returned, as a terminal that went away does (EIO). */
function failingLater(code = 'EIO', words = 'i/o error'): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      setImmediate(() => done(Object.assign(new Error(`${code}: ${words}, write`), {code, syscall: 'write'})))
    },
  })
}

describe('written (a command waits for what it wrote to stdout)', () => {
  it('resolves once a healthy stream has taken everything', async () => {
    const chunks: string[] = []
    const stream = new Writable({write: (chunk, _e, done) => setImmediate(() => done(void chunks.push(chunk.toString())))})
    stream.write('a\n')
    stream.write('b\n')
    await written({stdout: stream})
    expect(chunks.join('')).toBe('a\nb\n')
  })

  it('a write that fails after it returned (a terminal gone: EIO): rejects with the output error, no uncaught error event', async () => {
    const stream = failingLater()
    expect(stream.write('row\n')).toBe(true)
    await expect(written({stdout: stream})).rejects.toMatchObject({
      code: 'output_error',
      message: 'cannot write to stdout: i/o error (EIO)',
    })
    // and every later wait
    await expect(written({stdout: stream})).rejects.toMatchObject({code: 'output_error'})
  })

  it('a reader that went away (EPIPE) is no failure: exit 0, quietly (contract 1.4)', async () => {
    const stream = failingLater('EPIPE', 'broken pipe')
    stream.write('row\n')
    await expect(written({stdout: stream})).rejects.toMatchObject({code: 'reader_gone', exitCode: 0})
  })

  it("the process's stdout, never made: nothing to wait for, and it is not made", async () => {
    const io = {
      stdoutMade: () => false,
      get stdout(): Writable {
        throw new Error('made')
      },
    }
    await expect(written(io)).resolves.toBeUndefined()
  })
})

describe('write', () => {
  it('waits for a full stream to drain before resolving', async () => {
    const chunks: string[] = []
    let release: (() => void) | undefined
    const slow = new Writable({
      highWaterMark: 4,
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk.toString())
        release = done
      },
    })
    let resolved = false
    const p = write(slow, 'more than four bytes').then(() => (resolved = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(resolved).toBe(false)
    release!()
    await p
    expect(resolved).toBe(true)
    expect(chunks).toEqual(['more than four bytes'])
  })

  it('a full stream that fails instead of draining: rejects with the output error (it never drains)', async () => {
    const stream = new Writable({
      highWaterMark: 4,
      write(_chunk, _encoding, done) {
        setImmediate(() => done(Object.assign(new Error('ENOSPC: no space left on device, write'), {code: 'ENOSPC'})))
      },
    })
    await expect(write(stream, 'more than four bytes')).rejects.toMatchObject({
      code: 'output_error',
      message: 'cannot write to stdout: no space left on device (ENOSPC)',
    })
  })
})
