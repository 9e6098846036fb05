import {fstatSync, writeSync} from 'node:fs'
import type {Readable, Writable} from 'node:stream'

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
  private stream: Writable | undefined

  constructor(
    private readonly fd = 1,
    private readonly fallback: () => Writable = () => process.stdout,
  ) {}

  write(chunk: string): boolean {
    if (this.stream) return this.stream.write(chunk)
    const bytes = Buffer.from(chunk, 'utf8')
    let done = 0
    if (this.written + bytes.length <= DIRECT_BYTES) {
      try {
        while (done < bytes.length) done += writeSync(this.fd, bytes, done)
        this.written += bytes.length
        return true
      } catch {
        // full (EAGAIN) or gone (EPIPE): the stream takes over, and says so its own way
      }
    }
    this.stream = this.fallback()
    return this.stream.write(bytes.subarray(done))
  }

  once(event: 'drain', listener: () => void): this {
    ;(this.stream ?? this.fallback()).once(event, listener)
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
  const stdout = once((): Output => (process.platform === 'win32' || mayBeTerminal(1) ? process.stdout : new DirectStdout()))
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
  }
}

/** Writes and waits for the stream to accept more when it is full (flat memory on big output). */
export async function write(stream: Output, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve))
}
