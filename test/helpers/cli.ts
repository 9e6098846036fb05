import {Config, Errors} from '@oclif/core'
import {PassThrough, Readable} from 'node:stream'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {type Clock, clock, setClock, systemClock} from '../../src/core/clock.js'
import {fakeClock} from './fake-clock.js'
import {setIO} from '../../src/output/io.js'

/**
 * Runs a command class in-process the way bin/run.js would, with fake streams:
 * stdout/stderr captured, TTY-ness chosen by the test, stdin from a string, env overridden for
 * the duration of the run. Returns what a user or script would see: stdout, stderr, exit code.
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

let config: Config | undefined
async function loadConfig(): Promise<Config> {
  config ??= await Config.load(ROOT)
  return config
}

export interface RunOptions {
  env?: Record<string, string | undefined>
  stdin?: string
  stdinTTY?: boolean
  /** stdout is a terminal (human tables) — default false (piped) */
  tty?: boolean
  stderrTTY?: boolean
  /** the terminal's width (tables are fitted to it) */
  columns?: number
  /** 'real' waits for real; by default (unless a test installed its own) sleeps take no real time */
  clock?: 'real' | Clock
}

export interface RunResult {
  stdout: string
  stderr: string
  exitCode: number
  /** the value the command returned (its typed result) */
  result?: unknown
}

type CommandClass = {run(argv: string[], opts?: Config): Promise<unknown>}

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
  setIO({
    stdin,
    stdout,
    stderr,
    stdinIsTTY: opts.stdinTTY ?? false,
    stdoutIsTTY: tty,
    stderrIsTTY: stderrTTY,
    stdoutColor: false,
    stderrColor: false,
    stdoutColumns: opts.columns,
  })
  const ownClock = opts.clock !== 'real' && (opts.clock !== undefined || clock() === systemClock)
  if (ownClock) setClock(opts.clock === undefined || opts.clock === 'real' ? fakeClock() : opts.clock)
  const saved: Record<string, string | undefined> = {}
  for (const [key, value] of Object.entries(opts.env ?? {})) {
    saved[key] = process.env[key]
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  let exitCode = 0
  let result: unknown
  try {
    result = await Cmd.run(argv, await loadConfig())
  } catch (error) {
    if (error instanceof Errors.ExitError) exitCode = error.oclif.exit ?? 1
    else throw error
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    setIO(undefined)
    if (ownClock) setClock(undefined)
  }
  await new Promise((resolve) => setImmediate(resolve))
  return {stdout: out(), stderr: err(), exitCode, result}
}

/**
 * Runs `amctl <argv>` in-process: the command is found in src/commands by the words of argv (the
 * longest match), then run with `runCommand`. For suites that test what the built CLI does but
 * would otherwise wait for real (retry back-off: the clock is a fake one unless given).
 */
export async function runArgv(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  for (let words = Math.min(3, argv.length); words >= 1; words--) {
    const file = join(ROOT, 'src', 'commands', ...argv.slice(0, words)) + '.ts'
    if (!existsSync(file)) continue
    const {default: Cmd} = (await import(pathToFileURL(file).href)) as {default: CommandClass}
    return runCommand(Cmd, argv.slice(words), opts)
  }
  throw new Error(`no command in src/commands for: ${argv.join(' ')}`)
}
