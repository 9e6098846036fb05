import {Config, Errors} from '@oclif/core'
import {PassThrough, Readable, type Writable} from 'node:stream'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import type {World} from '../../src/base/world.js'
import {type Clock, systemClock} from '../../src/core/clock.js'
import type {Transport} from '../../src/core/http/attempt.js'
import {networkTransport} from '../../src/core/http/transport.js'
import {sealedEnv} from './env.js'
import {fakeClock} from './fake-clock.js'
import {type FakeSignals, fakeSignals} from './fake-signals.js'
import {fileTransport, noTransport} from './transport.js'
import {type DeclaringCommand, sentRequests, undeclaredOperations} from './declared.js'
import {colorAllowed, type IO} from '../../src/output/io.js'
import {type Part, Renderer} from '../../src/output/renderer.js'

/**
 * Runs a command class in-process the way bin/run.cjs would, in a world of the test's (the
 * command's streams, environment, clock, signals and transport: src/base/world.ts): stdout/stderr
 * captured, TTY-ness chosen by the test, stdin from a string, a sealed environment with the
 * test's changes (./env.ts), a clock whose sleeps take no real time and whose time of day is
 * fixed, signals the test raises, and the file's fake API as the transport. Returns what a user
 * or script would see: stdout, stderr, exit code. With a fake API on (test/helpers/fake-api.ts), a
 * command that sends an operation its `static operations` do not declare fails the test; without
 * one, a command that sends anything fails it, unless the test gave a transport.
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

let config: Config | undefined
async function loadConfig(): Promise<Config> {
  config ??= await Config.load(ROOT)
  return config
}

export interface RunOptions {
  /** changes to the command's sealed environment (./env.ts; undefined: unset) */
  env?: Record<string, string | undefined>
  stdin?: string
  stdinTTY?: boolean
  /** stdout is a terminal (human tables) — default false (piped) */
  tty?: boolean
  stderrTTY?: boolean
  /** the terminal's width (tables are fitted to it) */
  columns?: number
  /** colour where a terminal would get it: a TTY, unless NO_COLOR / FORCE_COLOR=0 (in env) say no — default: never */
  color?: boolean
  /** 'real' waits for real; by default a fake clock's sleeps take no real time (test/helpers/fake-clock.ts) */
  clock?: 'real' | Clock
  /** Ctrl-C and the exit, raised by the test (default: a fresh FakeSignals nobody raises) */
  signals?: FakeSignals
  /** how requests go out: the file's fake API by default; 'network' for a server of the test's own on this machine */
  transport?: Transport | 'network'
  /** stdout is this stream of the test's (one whose writes fail, say), not captured: `stdout` is then '' */
  stdout?: Writable
}

export interface RunResult {
  stdout: string
  stderr: string
  exitCode: number
  /** what the command's run() returned (its typed result), also when it then exits non-zero */
  result?: unknown
  /** what the command handed to the renderer, in order (see RenderCall) */
  rendered: RenderCall[]
}

/**
 * One call of the command's Renderer (src/output/renderer.ts), as handed to it, whatever the
 * mode (under --json the renderer shows nothing, but the call is still recorded): a list (its
 * rows and column headers), an object, a line or block of text, a JSON value, a notice or
 * warning (its parts as plain text).
 */
export type RenderCall =
  | {method: 'list'; rows: readonly unknown[]; columns: string[]}
  | {method: 'object'; value: Record<string, unknown>}
  | {method: 'text' | 'block'; value: string}
  | {method: 'json'; value: unknown}
  | {method: 'notice' | 'warning'; text: string}

const plain = (parts: Part[]): string => parts.map((p) => (typeof p === 'string' ? p : p.text)).join('')

/** Records the calls of every Renderer until `restore` (the outermost only: list's own notice is not one). */
function recordRenderer(): {calls: RenderCall[]; restore(): void} {
  const calls: RenderCall[] = []
  const proto = Renderer.prototype as unknown as Record<string, (...args: unknown[]) => unknown>
  const describe: Record<string, (args: any[]) => RenderCall> = {
    list: ([rows, columns]) => ({method: 'list', rows, columns: (columns as {header: string}[]).map((c) => c.header)}),
    object: ([value]) => ({method: 'object', value}),
    text: ([value]) => ({method: 'text', value}),
    block: ([value]) => ({method: 'block', value}),
    json: ([value]) => ({method: 'json', value}),
    notice: (parts) => ({method: 'notice', text: plain(parts)}),
    warning: (parts) => ({method: 'warning', text: plain(parts)}),
  }
  const originals = Object.keys(describe).map((name) => [name, proto[name]] as const)
  let depth = 0
  for (const [name, original] of originals) {
    proto[name] = function (this: Renderer, ...args: unknown[]) {
      if (depth === 0) calls.push(describe[name](args))
      depth++
      try {
        return original.apply(this, args)
      } finally {
        depth--
      }
    }
  }
  return {
    calls,
    restore: () => {
      for (const [name, original] of originals) proto[name] = original
    },
  }
}

type CommandClass = DeclaringCommand & {
  new (argv: string[], config: Config, world: World): {id?: string; _run(): Promise<unknown>}
  id?: string
  prototype: object
}

/**
 * A command's environment: the sealed one (./env.ts: the machine's PATH, HOME and TMPDIR, the
 * file's config and cache directories, the keychain off; never the runner's) with `changes` made
 * (a key given undefined is unset).
 */
export function environment(changes: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return sealedEnv(changes, {settings: true})
}

/**
 * Runs a command as oclif's Command.run does (made, then `_run`), but made with `world` instead of
 * the process's: what a user would see from it is in the world's streams.
 */
export async function runIn(Cmd: CommandClass, argv: string[], world: World): Promise<unknown> {
  const config = await loadConfig()
  const cmd = new Cmd(argv, config, world)
  if (!cmd.id) {
    // the id oclif gives it (`runs:list` for RunsList: the command says it in its more: hint),
    // else (a class a test made) its name
    const id = config.commandIDs.find((known) => pascalCase(known) === cmd.constructor.name) ?? cmd.constructor.name.toLowerCase()
    cmd.id = id
    Cmd.id = id
  }
  return cmd._run()
}

/** `runs:list` → `RunsList`, `mcp-servers:delete` → `McpServersDelete`: a command class's name, by the convention of src/commands. */
function pascalCase(id: string): string {
  return id
    .split(/[:-]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
}

/** Captures what the command's own run() returns (also when the base then ends it with an exit code). */
function captureResult(Cmd: CommandClass): {value(): unknown; restore(): void} {
  const proto = Cmd.prototype as {run: (...args: unknown[]) => Promise<unknown>}
  const own = Object.hasOwn(proto, 'run')
  const original = proto.run
  let value: unknown
  proto.run = async function (this: unknown, ...args: unknown[]) {
    value = await original.apply(this, args)
    return value
  }
  return {
    value: () => value,
    restore: () => {
      if (own) proto.run = original
      else delete (proto as {run?: unknown}).run
    },
  }
}

function collect(stream: PassThrough): () => string {
  const chunks: Buffer[] = []
  stream.on('data', (c: Buffer) => chunks.push(c))
  return () => Buffer.concat(chunks).toString('utf8')
}

export async function runCommand(Cmd: CommandClass, argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  const out = collect(stdout)
  const err = collect(stderr)
  const stdin = Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)])
  const tty = opts.tty ?? false
  const stderrTTY = opts.stderrTTY ?? tty
  const env = environment(opts.env)
  const io: IO = {
    stdin,
    stdout: opts.stdout ?? stdout,
    stderr,
    stdinIsTTY: opts.stdinTTY ?? false,
    stdoutIsTTY: tty,
    stderrIsTTY: stderrTTY,
    stdoutColor: opts.color === true && colorAllowed(tty, env),
    stderrColor: opts.color === true && colorAllowed(stderrTTY, env),
    stdoutColumns: opts.columns,
  }
  const clock = opts.clock === 'real' ? systemClock : (opts.clock ?? fakeClock())
  const signals = opts.signals ?? fakeSignals()
  const none = noTransport()
  const transport = opts.transport === 'network' ? networkTransport(env) : (opts.transport ?? fileTransport() ?? none)
  let exitCode = 0
  let result: unknown
  const sentBefore = sentRequests().length
  const renderer = recordRenderer()
  const returned = captureResult(Cmd)
  try {
    await runIn(Cmd, argv, {io, env, clock, signals, transport})
  } catch (error) {
    if (error instanceof Errors.ExitError) exitCode = error.oclif.exit ?? 1
    else throw error
  } finally {
    renderer.restore()
    returned.restore()
    result = returned.value()
  }
  await new Promise((resolve) => setImmediate(resolve))
  if (none.attempts.length > 0) {
    throw new Error(
      `${Cmd.name} sent ${none.attempts.join(', ')} in a test file without a fake API (useFakeApi), and the test gave no transport`,
    )
  }
  // what the command sent, held to what it declares (help's REQUEST section)
  const undeclared = undeclaredOperations(Cmd, sentRequests().slice(sentBefore))
  if (undeclared.length > 0) throw new Error(undeclared.join('\n'))
  return {stdout: out(), stderr: err(), exitCode, result, rendered: renderer.calls}
}

/**
 * Runs `amctl <argv>` in-process: the command is found in src/commands by the words of argv (the
 * longest match), then run with `runCommand`. For suites that test what the built CLI does but
 * would otherwise wait for real (retry back-off: the clock is a fake one unless given).
 */
export async function runArgv(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  for (let words = Math.min(3, argv.length); words >= 1; words--) {
    const file = `${join(ROOT, 'src', 'commands', ...argv.slice(0, words))}.ts`
    if (!existsSync(file)) continue
    const {default: Cmd} = (await import(pathToFileURL(file).href)) as {default: CommandClass}
    return runCommand(Cmd, argv.slice(words), opts)
  }
  throw new Error(`no command in src/commands for: ${argv.join(' ')}`)
}
