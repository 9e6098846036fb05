import {fstatSync, writeSync} from 'node:fs'
import type {Readable, Writable} from 'node:stream'
import {AmctlError, errnoWords, ExitCode, isAmctlError} from '../core/errors.js'

/** What a command writes its data to: a stream, or what stands for process.stdout (DirectStdout). */
export interface Output {
  /** false when the output is full: wait for 'drain' */
  write(chunk: string): boolean
  once(event: 'drain', listener: () => void): unknown
}

/**
 * The streams a command talks through and what they are connected to (like gh's IOStreams): the
 * process's (systemIO) come with a command's world (src/base/world.ts); tests hand in their own.
 */
export interface IO {
  stdin: Readable & {isTTY?: boolean}
  stdout: Output
  stderr: Writable
  stdinIsTTY: boolean
  stdoutIsTTY: boolean
  stderrIsTTY: boolean
  /** colour on stdout / stderr: see colorAllowed */
  stdoutColor: boolean
  stderrColor: boolean
  /** the terminal's width when stdout is one (tables are fitted to it) */
  stdoutColumns?: number
  /** false while the process's stdout, made on first use, has not been (nothing written: nothing to wait for) */
  stdoutMade?(): boolean
}

/** The code of the error a command ends with when its stdout cannot be written. */
export const OUTPUT_ERROR = 'output_error'

/**
 * stdout cannot be written: a full disk (`> /dev/full`: ENOSPC), a terminal gone (EIO), a
 * descriptor not open for writing (`1</dev/null`: EBADF). One error line and exit 1, except that
 * a wait keeps its verdict's exit code (src/base/base-command.ts). (A reader that went away,
 * EPIPE, is not one of these: amctl then ends at once with exit 0, bin/run.cjs.)
 */
export function outputError(cause: unknown): AmctlError {
  if (isAmctlError(cause)) return cause
  return new AmctlError(`cannot write to stdout: ${errnoWords(cause)}`, {code: OUTPUT_ERROR, exitCode: ExitCode.failure, cause})
}

export function isOutputError(error: unknown): boolean {
  return isAmctlError(error) && error.code === OUTPUT_ERROR
}

/**
 * The reader of stdout went away (EPIPE): not a failure, amctl ends at once, quietly, with exit 0
 * (contract 1.4). bin/run.cjs does so on the stream's 'error' event; a command whose wait for
 * what it wrote sees it first ends the same way (src/base/failure.ts).
 */
export const READER_GONE = 'reader_gone'

const readerGone = (cause: unknown): AmctlError =>
  new AmctlError('the reader of stdout went away', {code: READER_GONE, exitCode: ExitCode.ok, cause})

/** stdout can take nothing more: it cannot be written, or its reader went away. */
export function isStdoutGone(error: unknown): boolean {
  return isAmctlError(error) && (error.code === OUTPUT_ERROR || error.code === READER_GONE)
}

/** Failures of a descriptor write that the stream takes over: full (it waits to drain), the reader gone (bin/run.cjs ends amctl with 0). */
const PASSED_TO_STREAM = new Set(['EAGAIN', 'EWOULDBLOCK', 'EPIPE'])

/** The streams an error listener was put on (see watched). */
const watchedStreams = new WeakSet<Writable>()

/**
 * `stream`, with a listener for its 'error' event, so that a failed write is a state the next
 * write, or the wait for what was written (written()), turns into the command's error, not an
 * uncaught exception with a stack.
 */
function watched(stream: Writable): Writable {
  if (!watchedStreams.has(stream)) {
    watchedStreams.add(stream)
    stream.on('error', () => {})
  }
  return stream
}

/**
 * The stream behind an output, once there is one (DirectStdout makes its own only when needed).
 * (A Writable is told by its writable state, not instanceof: that would load node:stream for
 * the commands that write to a pipe without one, bin/launcher.cjs.)
 */
function streamOf(output: Output): Writable | undefined {
  if (output instanceof DirectStdout) return output.stream
  return typeof (output as Partial<Writable>).writableLength === 'number' ? watched(output as Writable) : undefined
}

/** Throws the output error of a stream that failed (or that its reader went away). */
function checkStream(stream: Writable): void {
  const failure = stream.errored
  if (failure) throw (failure as NodeJS.ErrnoException).code === 'EPIPE' ? readerGone(failure) : outputError(failure)
  if (stream.destroyed) throw outputError(new Error('the stream was closed'))
}

/**
 * NO_COLOR (any value) and FORCE_COLOR=0 turn colour off; CLICOLOR_FORCE (set, not 0) turns it on
 * where there is no terminal too (a CI log that shows colours), as gh has it; CLICOLOR=0 turns it
 * off; otherwise a TTY turns it on. (gh lets CLICOLOR_FORCE win over NO_COLOR; amctl does not: a
 * request for no colour is kept, as no-color.org and bixense.com/clicolors ask.)
 */
export function colorAllowed(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '' && env.CLICOLOR_FORCE !== '0') return true
  if (env.CLICOLOR === '0') return false
  return isTTY
}

/**
 * Whether file descriptor `fd` may be a terminal: a pipe, a socket or a file never is, and
 * fstat says so without making the process's stream for it (for a pipe, net and a socket: a
 * command that writes nothing to stderr does not need process.stderr to know its colours).
 */
export function mayBeTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd)
    return !(stat.isFIFO() || stat.isSocket() || stat.isFile())
  } catch {
    return true
  }
}

/** The most DirectStdout writes itself: what a pipe holds (Linux: 64 KiB) before its reader reads. */
const DIRECT_BYTES = 64 * 1024

/**
 * stdout when it is a pipe, a socket or a file: the first 64 KiB written straight to the
 * descriptor, without making process.stdout (for a pipe: net, the stream modules and a socket,
 * ~3 ms of `config list`), as most commands print less. Within that size a write to a pipe does
 * not wait for its reader. Anything more, and anything after a write that failed (EAGAIN, EPIPE),
 * goes through process.stdout, as all output did before: it waits for a slow reader without
 * holding up the event loop (Ctrl-C, timers), and bin/run.cjs handles a reader that went away.
 * (bin/launcher.cjs's writeStdout does the same for the help it prints without the bundle.)
 */
export class DirectStdout implements Output {
  private written = 0
  /** the stream that took over, once one did */
  stream: Writable | undefined
  /** the descriptor could not be written (ENOSPC, EIO, EBADF): every later write fails the same way */
  failure: AmctlError | undefined

  constructor(
    private readonly fd = 1,
    private readonly fallback: () => Writable = () => process.stdout,
  ) {}

  write(chunk: string): boolean {
    if (this.failure) throw this.failure
    if (this.stream) return this.stream.write(chunk)
    const bytes = Buffer.from(chunk, 'utf8')
    let done = 0
    if (this.written + bytes.length <= DIRECT_BYTES) {
      try {
        while (done < bytes.length) done += writeSync(this.fd, bytes, done)
        this.written += bytes.length
        return true
      } catch (error) {
        // full (EAGAIN) or gone (EPIPE): the stream takes over, and says so its own way; any
        // other failure (a full disk, a terminal gone) is the command's error
        if (!PASSED_TO_STREAM.has((error as NodeJS.ErrnoException).code ?? '')) {
          this.failure = outputError(error)
          throw this.failure
        }
      }
    }
    this.stream = watched(this.fallback())
    return this.stream.write(bytes.subarray(done))
  }

  once(event: 'drain', listener: () => void): this {
    this.stream ??= watched(this.fallback())
    this.stream.once(event, listener)
    return this
  }
}

/**
 * The process's streams, each looked at when first asked for: Node builds a stream on first use
 * (stdin's loads net or fs streams), and most commands never read stdin. Their colours follow
 * `env`, the run's environment (colorAllowed).
 */
export function systemIO(env: NodeJS.ProcessEnv): IO {
  const once = <T>(get: () => T): (() => T) => {
    let value: {v: T} | undefined
    return () => {
      value ??= {v: get()}
      return value.v
    }
  }
  const stdoutIsTTY = once(() => mayBeTerminal(1) && Boolean(process.stdout.isTTY))
  const stderrIsTTY = once(() => mayBeTerminal(2) && Boolean(process.stderr.isTTY))
  const stdinIsTTY = once(() => Boolean(process.stdin.isTTY))
  // (not on Windows, where amctl is not measured: its streams as they are)
  let stdoutMade = false
  const stdout = once((): Output => {
    stdoutMade = true
    return process.platform === 'win32' || mayBeTerminal(1) ? watched(process.stdout) : new DirectStdout()
  })
  return {
    get stdin() {
      return process.stdin
    },
    get stdout() {
      return stdout()
    },
    get stderr() {
      return process.stderr
    },
    get stdinIsTTY() {
      return stdinIsTTY()
    },
    get stdoutIsTTY() {
      return stdoutIsTTY()
    },
    get stderrIsTTY() {
      return stderrIsTTY()
    },
    get stdoutColor() {
      return colorAllowed(stdoutIsTTY(), env)
    },
    get stderrColor() {
      return colorAllowed(stderrIsTTY(), env)
    },
    get stdoutColumns() {
      return stdoutIsTTY() ? process.stdout.columns : undefined
    },
    stdoutMade: () => stdoutMade,
  }
}

/**
 * Writes and waits for the stream to accept more when it is full (flat memory on big output); a
 * stream that fails instead of draining (a full disk, a terminal gone) rejects with the output error.
 */
export async function write(output: Output, text: string): Promise<void> {
  if (output.write(text)) return
  const stream = streamOf(output)
  if (stream === undefined) {
    await new Promise<void>((resolve) => output.once('drain', resolve))
    return
  }
  checkStream(stream)
  await new Promise<void>((resolve) => {
    const done = (): void => {
      stream.off('drain', done).off('error', done).off('close', done)
      resolve()
    }
    stream.on('drain', done).on('error', done).on('close', done)
  })
  checkStream(stream)
}

/**
 * Makes a failure of the command's stdout (a stream of its world's) a state its next write, or
 * written(), reports, from the first write on: never an uncaught 'error' event. (The process's
 * stdout is watched when it is made: not made here.)
 */
export function watchStdout(io: Pick<IO, 'stdout' | 'stdoutMade'>): void {
  if (io.stdoutMade === undefined) streamOf(io.stdout)
}

/**
 * Resolves once everything written to `output` has reached it, or rejects with the output error
 * when it could not be written (a full disk, a terminal gone: an error the stream reports after
 * the write returned). Nothing to wait for when the process's stdout was never made.
 */
export async function written(io: Pick<IO, 'stdout' | 'stdoutMade'>): Promise<void> {
  if (io.stdoutMade?.() === false) return
  const output = io.stdout
  if (output instanceof DirectStdout && output.failure) throw output.failure
  const stream = streamOf(output)
  if (stream === undefined) return
  checkStream(stream)
  // a write's callback runs after every earlier write has gone through or failed
  if (stream.writableLength > 0) await new Promise<void>((resolve) => stream.write('', () => resolve()))
  checkStream(stream)
}

/**
 * bin/run.cjs, at the end of a run that made process.stdout (a command's output, or oclif's
 * help): resolves once what was written has gone out, or rejects with the output error.
 */
export function stdoutWritten(): Promise<void> {
  return written({stdout: process.stdout})
}
