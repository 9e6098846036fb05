import {PassThrough, Readable} from 'node:stream'
import type {IO} from '../../src/output/io.js'

/** An IO with captured stdout/stderr, for testing output helpers directly. */
export function fakeIO(opts: {stdoutTTY?: boolean; stderrTTY?: boolean} = {}): IO & {out(): string; err(): string} {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (c: Buffer) => (out += c.toString()))
  stderr.on('data', (c: Buffer) => (err += c.toString()))
  return {
    stdin: Readable.from([]),
    stdout,
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: opts.stdoutTTY ?? false,
    stderrIsTTY: opts.stderrTTY ?? false,
    stdoutColor: false,
    stderrColor: false,
    out: () => out,
    err: () => err,
  }
}
