import {join} from 'node:path'
import type {Worker} from 'node:worker_threads'
import {AmctlError, UsageError} from '../core/errors.js'
import {terminalSafe} from './sanitize.js'

/**
 * `--jq EXPR` (contract 1.4): a jq expression applied to the document `--json` would print, with
 * jq itself — jq 1.8 compiled to WebAssembly (the jq-wasm package), so no jq install is needed
 * and every jq feature behaves as in `jq -r -c`. The engine (~1 MB of WebAssembly) is loaded
 * only by `compileJq`, i.e. only when --jq is given; in dist/ it is a file of its own beside the
 * bundle (see bin/build.js).
 *
 * jq runs in a worker thread (./jq-worker.cjs), never on the main thread: a program that runs
 * long (`reduce range(1e9) …`) or forever (`repeat(1)`) leaves the main thread free to take
 * Ctrl-C (exit 130) and to write, and the results come as jq writes them, through a ring of 1 MiB
 * shared with the worker (jq waits while it is full), so `--jq 'repeat(1)' | head -3` ends with
 * exit 0 in flat memory. A
 * worker thread rather than a child process: it starts in a fraction of a process's time and
 * the process's exit ends it wherever it is.
 *
 * jq-wasm runs jq's command line (`jq -c -- EXPR FILE`: compact output, and an expression starting
 * with `-` is the expression, never one of jq's options): each call compiles the expression again
 * (~10 ms for jq's builtins), so a command with --jq makes two calls: one on no input at all,
 * which compiles without running (the check before any request), and one on the document.
 */

/** exit status of jq for an expression that does not compile (jq's own `jq: N compile error`) */
const JQ_COMPILE_ERROR = 3

/** jq's `jq: error: <message> at <top-level>, line 1, column 6:` lines, without the prefix, the source excerpt and the count. */
function compileMessage(stderr: string): string {
  const errors = stderr
    .split('\n')
    .filter((line) => line.startsWith('jq: error: '))
    .map((line) => line.slice('jq: error: '.length).replace(/:$/, ''))
  return errors.length > 0 ? errors.join('; ') : stderr.split('\n')[0]
}

/** `jq: error (at /dev/stdin:0): Cannot index number with "foo"` → `Cannot index number with "foo"`. */
function runtimeMessage(stderr: string, exitCode: number): string {
  const message = stderr.replace(/^jq: error(?: \(at [^)]*\))?:? ?/, '')
  // halt_error with an empty message (`null | halt_error(1)`)
  return message === '' ? `jq stopped with exit status ${exitCode}` : message
}

const jqError = (message: string): AmctlError => new AmctlError(message, {code: 'jq_error', exitCode: 1})

/**
 * jq stopped without an exit status: jq-wasm's heap ends at 256 MiB, and jq keeps its call
 * stack there too, so a recursion too deep ends the same way (`Aborted()`); V8's own stack limit
 * is the other way out of a recursion.
 */
function crashError(crash: WorkerMessage & {type: 'crash'}): AmctlError {
  if (crash.message.startsWith('could not load the jq engine')) {
    return new AmctlError(crash.message, {code: 'internal', exitCode: 1})
  }
  if (crash.name === 'RangeError') return jqError('--jq recursed too deep: jq stopped at the call stack limit')
  return jqError('--jq ran out of memory: jq stopped at its limit of 256 MiB (a recursion too deep ends there too)')
}

type WorkerMessage =
  | {type: 'compiled'; exitCode: number; stderr: string}
  | {type: 'done'; exitCode: number; stderr: string}
  | {type: 'crash'; message: string; name?: string; stderr: string}
  | {type: 'exit'; code: number}

/** One result as written by `jq -c`: a string as its raw text, every other value as its JSON. */
function decodeResult(line: string): string {
  return line.startsWith('"') ? (JSON.parse(line) as string) : line
}

export interface JqRun {
  /** what jq wrote on stderr without failing (`debug`, `stderr`, `halt_error(0)`) */
  messages: string[]
  /** set when jq stopped with an error, after the results before it (exit 1, code jq_error, as `gh --jq`) */
  error?: AmctlError
}

/** Takes each batch of results, as `jq -r -c` would print them; awaited before more is taken from jq. */
export type JqSink = (results: string[]) => Promise<void>

/** The bytes of jq's output the ring between the worker and this thread holds at most. */
const RING = 1024 * 1024
const WRITTEN = 0
const TAKEN = 1
/** set while this thread waits for bytes: the worker wakes it only then (a wake per result costs) */
const WAITING = 2

/** The worker that runs jq: its ring of output (./jq-worker.cjs) and the messages nobody took yet. */
class Engine {
  private readonly worker: Worker
  private readonly shared = new SharedArrayBuffer(12 + RING)
  /** bytes written by the worker and taken here (Int32 counters that wrap), and WAITING */
  private readonly counters = new Int32Array(this.shared, 0, 3)
  private readonly ring = new Uint8Array(this.shared, 12)
  private readonly queue: WorkerMessage[] = []
  private arrived?: () => void
  private ended = false

  constructor(WorkerClass: typeof Worker) {
    // beside this module: src/output/ (the sources) or dist/ (bin/build.js copies it beside the bundle)
    this.worker = new WorkerClass(join(__dirname, 'jq-worker.cjs'), {workerData: {ring: this.shared}})
    const push = (message: WorkerMessage): void => {
      this.queue.push(message)
      this.arrived?.()
    }
    this.worker.on('message', push)
    this.worker.on('error', (error: Error) => push({type: 'crash', message: String(error.message), name: error.name, stderr: ''}))
    this.worker.on('exit', (code: number) => {
      this.ended = true
      push({type: 'exit', code})
    })
    // it keeps the process alive only while a call waits for it
    this.worker.unref()
  }

  /** Sends a message to the worker, which keeps the process alive until `end`. */
  begin(message: unknown): void {
    if (this.ended) throw new AmctlError('the jq engine has stopped', {code: 'internal', exitCode: 1})
    this.worker.ref()
    this.worker.postMessage(message)
  }

  end(): void {
    this.worker.unref()
  }

  /** The message that ended the call, once it came. */
  message(): WorkerMessage | undefined {
    return this.queue.shift()
  }

  /** What the ring holds, taken out of it (the worker may write that much more). */
  take(): Uint8Array {
    const written = Atomics.load(this.counters, WRITTEN)
    const taken = Atomics.load(this.counters, TAKEN)
    const size = (written - taken) | 0
    if (size === 0) return new Uint8Array(0)
    const at = (taken >>> 0) % RING
    const first = Math.min(size, RING - at)
    const bytes = new Uint8Array(size)
    bytes.set(this.ring.subarray(at, at + first))
    bytes.set(this.ring.subarray(0, size - first), first)
    Atomics.store(this.counters, TAKEN, written)
    Atomics.notify(this.counters, TAKEN)
    return bytes
  }

  /** Resolves when the worker wrote more into the ring or sent a message. */
  async waitForWork(): Promise<void> {
    // the flag first, then the counter: the worker either sees the flag or wrote before the load
    Atomics.store(this.counters, WAITING, 1)
    try {
      const written = Atomics.load(this.counters, WRITTEN)
      if (this.queue.length > 0 || written !== Atomics.load(this.counters, TAKEN)) return
      // (a look every 50 ms besides: a wake that never arrives costs that much, never a hang)
      const more = Atomics.waitAsync(this.counters, WRITTEN, written, 50)
      // (not async: the worker wrote between the load and the wait)
      if (!more.async) return
      const message = new Promise<void>((resolve) => (this.arrived = resolve))
      await Promise.race([more.value, message])
      this.arrived = undefined
    } finally {
      Atomics.store(this.counters, WAITING, 0)
    }
  }

  close(): void {
    this.ended = true
    void this.worker.terminate()
  }
}

/** A compiled --jq expression. */
export class JqProgram {
  constructor(
    private readonly engine: Engine,
    readonly expression: string,
  ) {}

  /**
   * Runs the expression on a document (the value --json would print), handing its results to
   * `sink` as jq writes them. A sink that fails ends jq and the run with its error. The engine is
   * spent after a crash (out of memory): it is closed.
   */
  async run(document: unknown, sink: JqSink): Promise<JqRun> {
    const decoder = new TextDecoder()
    let partial = ''
    this.engine.begin({type: 'run', input: JSON.stringify(document) ?? 'null', expression: this.expression})
    try {
      for (;;) {
        // the end message comes after the last write: the ring is emptied once more after it
        const ended = this.engine.message()
        const bytes = this.engine.take()
        if (bytes.length > 0) {
          const lines = (partial + decoder.decode(bytes, {stream: true})).split('\n')
          partial = lines.pop() as string
          if (lines.length > 0) await this.give(sink, lines.map(decodeResult))
        }
        if (ended) return this.outcome(ended)
        if (bytes.length === 0) await this.engine.waitForWork()
      }
    } finally {
      this.engine.end()
    }
  }

  private async give(sink: JqSink, results: string[]): Promise<void> {
    try {
      await sink(results)
    } catch (error) {
      // nobody takes the rest (a reader that went away): jq is stopped wherever it is
      this.engine.close()
      throw error
    }
  }

  private outcome(ended: WorkerMessage): JqRun {
    switch (ended.type) {
      case 'done': {
        const stderr = ended.stderr.replace(/\n$/, '')
        if (ended.exitCode === 0) return {messages: stderr === '' ? [] : stderr.split('\n')}
        return {messages: [], error: jqError(`--jq: ${runtimeMessage(stderr, ended.exitCode)}`)}
      }
      case 'crash':
        this.engine.close()
        return {messages: [], error: crashError(ended)}
      default:
        this.engine.close()
        return {messages: [], error: new AmctlError('the jq engine stopped unexpectedly', {code: 'internal', exitCode: 1})}
    }
  }

  /** Ends the engine (the process's exit would too). */
  close(): void {
    this.engine.close()
  }
}

/**
 * Starts the engine and compiles the expression without running it (jq given no input runs
 * nothing). An expression that does not compile is a usage error: exit 2, before any request.
 */
export async function compileJq(expression: string): Promise<JqProgram> {
  const {Worker} = await import('node:worker_threads')
  const engine = new Engine(Worker)
  engine.begin({type: 'compile', expression})
  let answer: WorkerMessage | undefined
  try {
    for (answer = engine.message(); answer === undefined; answer = engine.message()) await engine.waitForWork()
  } finally {
    engine.end()
  }
  if (answer.type === 'compiled' && answer.exitCode === 0) return new JqProgram(engine, expression)
  engine.close()
  if (answer.type === 'crash') throw crashError(answer)
  if (answer.type !== 'compiled') throw new AmctlError('could not start the jq engine', {code: 'internal', exitCode: 1})
  const stderr = answer.stderr.replace(/\n$/, '')
  if (answer.exitCode === JQ_COMPILE_ERROR) throw new UsageError(`--jq: ${compileMessage(stderr)}`)
  throw jqError(`--jq: ${runtimeMessage(stderr, answer.exitCode)}`)
}

/**
 * The results as text, one per line (what `jq -r -c` prints). On a terminal, control characters
 * are written visibly (contract 1.4) but for the newlines and tabs of a result: a raw string is
 * text the user asked jq for (`@tsv` rows), and neither moves more than the cursor. A JSON result
 * has neither but the C1 controls jq leaves unescaped, which become `\u009b` escapes.
 */
export function jqText(results: readonly string[], tty: boolean): string {
  let text = ''
  for (const result of results) text += `${tty ? terminalSafe(result, {multiline: true, tabs: true}) : result}\n`
  return text
}
