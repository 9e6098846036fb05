import type {Jq} from 'jq-wasm'
import {AmctlError, UsageError} from '../core/errors.js'
import {terminalSafe} from './sanitize.js'

/**
 * `--jq EXPR` (contract 1.4): a jq expression applied to the document `--json` would print, with
 * jq itself — jq 1.8 compiled to WebAssembly (the jq-wasm package), so no jq install is needed
 * and every jq feature behaves as in `jq -r -c`. The engine (~1 MB of WebAssembly) is loaded
 * only by `compileJq`, i.e. only when --jq is given; in dist/ it is a file of its own beside the
 * bundle (see bin/build.js).
 *
 * jq-wasm runs jq's command line (`jq FLAGS EXPR FILE`): each call compiles the expression
 * again (~10 ms for jq's builtins), so a command with --jq makes two calls: one on no input at
 * all, which compiles without running (the check before any request), and one on the document.
 */

/**
 * jq's command-line flags: compact output, and `--` so that an expression starting with `-`
 * (`-.count`, `-h`) is the expression, never one of jq's options.
 */
const FLAGS = ['-c', '--']

/** exit status of jq for an expression that does not compile (jq's own `jq: N compile error`) */
const JQ_COMPILE_ERROR = 3

let engine: Promise<Jq> | undefined

function loadEngine(): Promise<Jq> {
  engine ??= import('jq-wasm')
    .then(({loadJq}) => loadJq())
    .catch((error: unknown) => {
      engine = undefined
      throw new AmctlError(`could not load the jq engine: ${(error as Error).message}`, {code: 'internal', exitCode: 1, cause: error})
    })
  return engine
}

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

export interface JqRun {
  /** each result as `jq -r -c` writes it: a string raw, any other value as compact JSON */
  results: string[]
  /** what jq wrote on stderr without failing (`debug`, `stderr`, `halt_error(0)`) */
  messages: string[]
  /** set when jq stopped with an error, after `results` (exit 1, code jq_error, as `gh --jq`) */
  error?: AmctlError
}

/** A compiled --jq expression. */
export class JqProgram {
  constructor(
    private readonly jq: Jq,
    readonly expression: string,
  ) {}

  /** Runs the expression on a document (the value --json would print). */
  run(document: unknown): JqRun {
    // -c, not -r: every result is then one line of JSON, so strings can be told apart and
    // decoded here (jq-wasm trims its output, which would eat a raw string's own whitespace)
    const {stdout, stderr, exitCode} = this.jq.raw(JSON.stringify(document) ?? 'null', this.expression, FLAGS)
    const results = stdout === '' ? [] : stdout.split('\n').map((line) => (line.startsWith('"') ? (JSON.parse(line) as string) : line))
    if (exitCode === 0) return {results, messages: stderr === '' ? [] : stderr.split('\n')}
    return {results, messages: [], error: new AmctlError(`--jq: ${runtimeMessage(stderr, exitCode)}`, {code: 'jq_error', exitCode: 1})}
  }
}

/**
 * Loads the engine and compiles the expression without running it (jq given no input runs
 * nothing). An expression that does not compile is a usage error: exit 2, before any request.
 */
export async function compileJq(expression: string): Promise<JqProgram> {
  const jq = await loadEngine()
  const {stderr, exitCode} = jq.raw('', expression, FLAGS)
  if (exitCode === JQ_COMPILE_ERROR) throw new UsageError(`--jq: ${compileMessage(stderr)}`)
  if (exitCode !== 0) throw new AmctlError(`--jq: ${runtimeMessage(stderr, exitCode)}`, {code: 'jq_error', exitCode: 1})
  return new JqProgram(jq, expression)
}

/**
 * The results as text, one per line (what `jq -r -c` prints). On a terminal, control characters
 * are written visibly (contract 1.4): a raw string from the server keeps its newlines only; a
 * JSON result has none but the C1 controls jq leaves unescaped, which become `\u009b` escapes.
 */
export function jqText(results: readonly string[], tty: boolean): string {
  let text = ''
  for (const result of results) text += `${tty ? terminalSafe(result, {multiline: true}) : result}\n`
  return text
}
