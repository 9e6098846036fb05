import {type ChildProcessByStdio, spawn} from 'node:child_process'
import type {Readable, Writable} from 'node:stream'
import {chmodSync, closeSync, existsSync, openSync, readFileSync, writeFileSync} from 'node:fs'
import {join, resolve as resolvePath} from 'node:path'
import {pathToFileURL} from 'node:url'
import {ROOT} from './cli.js'
import {harness, sealedEnv} from './env.js'
import {tempDir} from './temp.js'

/**
 * Runs the built CLI (bin/run.cjs) as a subprocess, without a TTY, with a sealed environment
 * (./env.ts: the machine's PATH, the run's HOME and TMPDIR) plus what the test passes (a fresh
 * AMCTL_CONFIG_DIR unless given).
 */

export interface BinResult {
  stdout: string
  stderr: string
  exitCode: number | null
  signal: NodeJS.Signals | null
  ms: number
}

export interface BinOptions {
  env?: Record<string, string | undefined>
  input?: string
  timeoutMs?: number
  /** called with the child right after spawn (e.g. to send a signal) */
  onSpawn?: (child: ReturnType<typeof spawn>) => void
  /** like `| head -1` (line) or `| head -c 100` (chunk): close stdout's pipe once a first line, or anything, has come */
  closeStdout?: 'line' | 'chunk'
  /** like `> PATH` (`/dev/full`: a disk that is full): stdout is that file, not captured */
  stdoutTo?: string
  /**
   * stdin a terminal (a pseudo-terminal, through `script`), stdout and stderr still captured apart
   * and not terminals: a person at a terminal whose output is redirected, as a device login needs
   */
  stdinTerminal?: boolean
}

/**
 * The amctl under test: this checkout's bin/run.cjs, or AMCTL_E2E_BIN, an installed amctl (.ci/run
 * points it at the packed tarball installed with `npm install -g`, and at the single executable).
 */
export const BIN = harness.e2eBin ? resolvePath(harness.e2eBin) : join(ROOT, 'bin', 'run.cjs')

/** How to start BIN: a script file with this Node; anything else (an installed link, an executable) as a user would. */
export function binCommand(argv: string[]): [string, string[]] {
  return /\.[cm]?js$/.test(BIN) ? [process.execPath, [BIN, ...argv]] : [BIN, argv]
}

/** A directory holding an `amctl` that runs the amctl under test (as binCommand does), for shell lines as a user types them. */
export function amctlOnPath(): string {
  const dir = tempDir('amctl-bin-')
  const [command, args] = binCommand([])
  const words = [command, ...args].map((word) => `"${word}"`).join(' ')
  writeFileSync(join(dir, 'amctl'), `#!/bin/sh\nexec ${words} "$@"\n`)
  chmodSync(join(dir, 'amctl'), 0o755)
  return dir
}

/** A config directory of its own (removed when the test file ends). */
export function freshConfigDir(): string {
  return tempDir('amctl-e2e-')
}

export function runBin(argv: string[], opts: BinOptions = {}): Promise<BinResult> {
  const fresh = opts.env?.AMCTL_CONFIG_DIR === undefined ? {AMCTL_CONFIG_DIR: freshConfigDir()} : {}
  const env = sealedEnv({AMCTL_KEYCHAIN: 'off', ...fresh, ...opts.env})
  const started = performance.now()
  if (opts.stdinTerminal) return onTerminalStdin(argv, env, opts, started)
  return new Promise((resolve, reject) => {
    const [file, args] = binCommand(argv)
    const redirected = opts.stdoutTo === undefined ? undefined : openSync(opts.stdoutTo, 'w')
    // (stdout is null when redirected)
    const child = spawn(file, args, {env, stdio: ['pipe', redirected ?? 'pipe', 'pipe']}) as ChildProcessByStdio<
      Writable,
      Readable | null,
      Readable
    >
    if (redirected !== undefined) closeSync(redirected)
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout?.on('data', (c: Buffer) => {
      out.push(c)
      if (opts.closeStdout === 'chunk' || (opts.closeStdout === 'line' && c.includes(10))) child.stdout?.destroy()
    })
    child.stderr.on('data', (c: Buffer) => err.push(c))
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000)
    child.on('error', reject)
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        exitCode,
        signal,
        ms: performance.now() - started,
      })
    })
    opts.onSpawn?.(child)
    // a child that ends before reading its stdin (help printed without the bundle takes a few
    // milliseconds) closes the pipe under this write: EPIPE, which is no failure of the test
    child.stdin.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error)
    })
    child.stdin.end(opts.input ?? '')
  })
}

const shellQuoted = (words: readonly string[]) => words.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')

/** runBin with stdin a pseudo-terminal (`script`) and stdout and stderr redirected to files, read back. */
function onTerminalStdin(argv: string[], env: Record<string, string>, opts: BinOptions, started: number): Promise<BinResult> {
  const dir = tempDir('amctl-tty-')
  const [out, err] = [join(dir, 'stdout'), join(dir, 'stderr')]
  const command = `${shellQuoted(binCommand(argv).flat())} >${shellQuoted([out])} 2>${shellQuoted([err])}`
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {env, stdio: ['pipe', 'ignore', 'ignore']})
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000)
    child.on('error', reject)
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '')
      resolve({stdout: read(out), stderr: read(err), exitCode, signal, ms: performance.now() - started})
    })
    opts.onSpawn?.(child)
    // typed at the terminal (never closed: an end of input there would be the terminal's, not amctl's)
    if (opts.input !== undefined) child.stdin.write(opts.input)
  })
}

/** The file URL of a module of the build (dist/<path>); a missing build fails the test, never skips it. */
export function builtModule(path: string): string {
  const file = join(ROOT, 'dist', path)
  if (!existsSync(file)) throw new Error(`${file} is missing: the test run's global setup builds it (or run \`npm run build\`)`)
  return pathToFileURL(file).href
}

export interface TerminalResult {
  exitCode: number | null
  /** everything amctl wrote (stdout and stderr share the terminal), as the terminal got it */
  screen: string
}

/**
 * Runs BIN on a pseudo-terminal (`script`), as a person would: stdout and stderr are the
 * terminal. `ctrlC` types Ctrl-C once the screen shows that text (the terminal turns it into
 * SIGINT); `onScreen` is handed the screen so far each time amctl writes to it. The environment
 * is runBin's: PATH, HOME, TERM, no keychain, plus `env`.
 */
export function runOnTerminal(
  argv: string[],
  opts: {
    env?: Record<string, string | undefined>
    ctrlC?: string
    timeoutMs?: number
    columns?: number
    onScreen?: (screen: string) => void
  } = {},
): Promise<TerminalResult> {
  const [file, args] = binCommand(argv)
  const quoted = [file, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  const command = opts.columns === undefined ? quoted : `stty cols ${opts.columns}; ${quoted}`
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: sealedEnv({TERM: 'xterm', AMCTL_CONFIG_DIR: freshConfigDir(), AMCTL_KEYCHAIN: 'off', ...opts.env}),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let screen = ''
  let typed = false
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString('utf8')
    opts.onScreen?.(screen)
    if (opts.ctrlC !== undefined && !typed && screen.includes(opts.ctrlC)) {
      typed = true
      child.stdin.write('\u0003')
    }
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000)
  return new Promise((resolve) => {
    child.on('close', (exitCode) => {
      clearTimeout(timer)
      resolve({exitCode, screen})
    })
  })
}
