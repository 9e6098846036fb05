import {Command, type Config, Errors} from '@oclif/core'
import {keychainTimedOut} from '../core/auth/keychain.js'
import type {Clock} from '../core/clock.js'
import type {Transport} from '../core/http/attempt.js'
import type {Signals} from '../core/signals.js'
import {AmctlError, ExitCode, UsageError} from '../core/errors.js'
import {jsonText} from '../output/format.js'
import {type IO, isOutputError, watchStdout, write, written} from '../output/io.js'
import {compileJq, type JqProgram, jqText} from '../output/jq.js'
import {errorText, presentError} from '../output/present.js'
import {Progress} from '../output/progress.js'
import {canPrompt, confirm} from '../output/prompt.js'
import {Renderer, styled} from '../output/renderer.js'
import {writeStream} from '../output/stream.js'
import {loadColors, palette, type Style} from '../output/style.js'
import {reportFailure} from './failure.js'
import {errorsAsJson, jqInArgv, jsonInArgv, outputFlags} from './flags.js'
import {type CommandResult, isCommandResult} from './results.js'
import {systemWorld, type World} from './world.js'

/**
 * What every amctl command shares (contract 1.4, 1.5): `--json` (one document on stdout, pretty
 * on a TTY and compact when piped), the renderer commands hand their data to, the rendering of
 * the results in ./results.ts, and the one way an error ends a command: the presenter, then the
 * exit code.
 *
 * A command's `run()` parses, makes one call, hands its data to `this.out`, and returns its
 * typed result; under `--json` the base prints that result instead.
 *
 * `--jq EXPR` implies --json: every JSON document the base prints goes through jq instead
 * (src/output/jq.ts), and errors show as without --json (the one line on stderr). The expression
 * is compiled in `init()`, before `run()` sends anything; the engine is loaded only then.
 *
 * A command takes its streams, its environment, its clock, its signals and its transport from
 * the world it is made with (./world.ts: the process's when oclif makes it; a test's own in
 * test/helpers/cli.ts) and hands them on; it never reads the process's itself.
 */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true
  static override baseFlags: Partial<typeof outputFlags> = outputFlags

  /** the streams this command talks through */
  protected readonly io: IO
  /** the environment this command runs in */
  protected readonly env: NodeJS.ProcessEnv
  /** the clock its waits and its progress line go by, and the time of day it shows dates against */
  protected readonly clock: Clock
  /** Ctrl-C and the process's exit, as the world tells them */
  protected readonly signals: Signals
  /** how its requests reach the server */
  protected readonly transport: Transport
  protected out!: Renderer
  /** the compiled --jq expression, when --jq was given */
  private jq?: JqProgram
  /** --jq's engine starting and compiling the expression, in a worker thread, while the command goes on */
  private jqCompiling?: Promise<JqProgram>

  constructor(argv: string[], config: Config, world: World = systemWorld()) {
    super(argv, config)
    this.io = world.io
    this.env = world.env
    this.clock = world.clock
    this.signals = world.signals
    this.transport = world.transport
    // a stdout that fails is the command's error, never an uncaught 'error' event
    watchStdout(this.io)
  }

  override async init(): Promise<void> {
    await super.init()
    if (this.jqGiven) {
      const {flags} = await this.parse(this.ctor)
      const expression = (flags as {jq?: string}).jq
      // the engine is loaded only here: commands without --jq never pay for it. It starts now and
      // is waited for before anything is sent or printed (jqReady), so its start overlaps the
      // command's own (the settings, the token, the connection)
      if (expression !== undefined) {
        this.jqCompiling = compileJq(expression)
        this.jqCompiling.catch(() => {})
      }
    }
    if (this.io.stdoutColor || this.io.stderrColor) await loadColors()
    this.out = new Renderer(this.io, {
      json: this.jsonEnabled(),
      style: this.style,
      errStyle: this.errStyle,
      width: this.io.stdoutColumns,
      now: this.clock.wall(),
    })
  }

  /**
   * The --jq expression compiled: awaited before any request (an expression that does not
   * compile exits 2 with nothing sent) and before any output.
   */
  protected async jqReady(): Promise<void> {
    if (this.jqCompiling && !this.jq) this.jq = await this.jqCompiling
  }

  /** Colours for stdout. */
  protected get style(): Style {
    return palette(this.io.stdoutColor)
  }

  /** Colours for stderr. */
  protected get errStyle(): Style {
    return palette(this.io.stderrColor)
  }

  /**
   * Deletes ask "Delete <what>? (y/N)" on a terminal; without one they need --yes (exit 2 and
   * no request otherwise). A "no" cancels with exit 2.
   */
  protected async confirmDelete(what: string, yes: boolean): Promise<void> {
    if (yes) return
    if (!canPrompt(this.io)) throw new UsageError(`refusing to delete ${what} without --yes: there is no terminal to confirm on`)
    if (!(await confirm(this.io, `Delete ${what}?`)))
      throw new AmctlError('deletion cancelled', {code: 'cancelled', exitCode: ExitCode.usage})
  }

  /** --jq was given: it implies --json for the output, and errors show as without --json. */
  private get jqGiven(): boolean {
    return jqInArgv(this.argv)
  }

  /** --json or --jq given (before a `--`): the one rule, with errorsAsJson's for errors (./flags.ts). */
  override jsonEnabled(): boolean {
    return this.jqGiven || jsonInArgv(this.argv)
  }

  /**
   * The --json output: one document, pretty on a TTY, compact otherwise (`compact`: always one
   * line). With --jq, the document goes through jq and its results are printed instead, one
   * per line, as jq writes them (a reader that goes away ends amctl, see bin/run.cjs); a jq error
   * ends the command (exit 1, code jq_error) after the results before it.
   */
  protected async printJson(json: unknown, opts: {compact?: boolean} = {}): Promise<void> {
    await this.jqReady()
    if (!this.jq) {
      const pretty = this.io.stdoutIsTTY && !opts.compact
      await write(this.io.stdout, jsonText(json, pretty, pretty && this.io.stdoutColor ? this.style : undefined))
      return
    }
    const run = await this.jq.run(json, (results) => write(this.io.stdout, jqText(results, this.io.stdoutIsTTY)))
    for (const message of run.messages) this.out.notice(message)
    if (run.error) throw run.error
  }

  /** oclif's way to print JSON: amctl's own code uses printJson, which --jq needs awaited. */
  override logJson(json: unknown): void {
    if (this.jq) throw new AmctlError('logJson cannot run --jq: use printJson', {code: 'internal', exitCode: 1})
    void this.printJson(json)
  }

  /** Runs the command and renders what it returned; every failure goes through `catch`. */
  override async _run<T>(): Promise<T> {
    let err: Error | undefined
    let result: unknown
    try {
      await this.init()
      result = await this.run()
      if (isCommandResult(result)) await this.renderResult(result)
      else if (result !== undefined && this.jsonEnabled()) await this.printJson(result)
      await this.jqReady()
      // a stdout that fails after the write returned (a terminal gone) ends the command as one that failed at once does
      await written(this.io)
    } catch (error) {
      // an expression that does not compile is the command's error, as if checked first
      err =
        (await this.jqReady().then(
          () => undefined,
          (jqError: unknown) => jqError as Error,
        )) ?? (error as Error)
      await this.catch(err)
    } finally {
      await this.finally(err)
    }
    return result as T
  }

  private async renderResult(result: CommandResult): Promise<void> {
    await this.jqReady()
    switch (result.kind) {
      case 'stream': {
        if (this.jq) {
          // jq sees the whole {"items":[…]}: every page is collected first (with the progress
          // line on a terminal); an error ends the command before anything is printed
          const items: unknown[] = []
          const progress = new Progress(this.io, result.noun, this.clock, this.signals)
          try {
            for await (const page of result.pages) {
              items.push(...page.items)
              progress.update(items.length)
            }
          } finally {
            progress.clear()
          }
          await this.printJson({items})
          return
        }
        const mode = this.jsonEnabled() || result.format === 'json' ? 'json' : this.io.stdoutIsTTY ? 'tty' : 'tsv'
        const outcome = await writeStream(result, {
          io: this.io,
          mode,
          style: this.style,
          width: this.io.stdoutColumns,
          now: this.clock.wall(),
          clock: this.clock,
          signals: this.signals,
        })
        if (outcome.error) {
          // a document closed with the error is the whole report under --json; people also get the line
          if (!(outcome.errorWritten && this.jsonEnabled())) this.present(outcome.error)
          throw new Errors.ExitError(outcome.error.exitCode)
        }
        if (mode === 'tty' && outcome.count === 0) this.out.notice(styled('(none)', 'dim'))
        return
      }
      case 'unknown-outcome': {
        await this.keepingExitCode(result.error.exitCode, async () => {
          if (this.jq) {
            // as without --json: the error line on stderr; the data (the document) through jq on stdout
            this.present(result.error)
            await this.printJson(result.document)
          } else if (this.jsonEnabled()) await this.printJson(result.document)
          else {
            this.present(result.error)
            if ('listError' in result.recent) this.out.warning(`could not list them either: ${errorText(result.recent.listError)}`)
            else {
              this.out.notice(result.recent.title)
              this.out.list(result.recent.items, result.recent.columns)
            }
          }
        })
        throw new Errors.ExitError(result.error.exitCode)
      }
      case 'finished': {
        await this.keepingExitCode(result.exitCode, async () => {
          // (under --json the document holds the error; with --jq it is said on stderr, as an unknown outcome's)
          if (result.error !== undefined && (this.jq || !this.jsonEnabled())) this.present(result.error)
          if (this.jsonEnabled()) await this.printJson(result.document)
          else if (result.list) this.out.list(result.list.items, result.list.columns)
        })
        if (result.exitCode !== 0) throw new Errors.ExitError(result.exitCode)
        return
      }
      case 'printed':
        // the command printed it as it ran
        return
    }
  }

  /**
   * Prints the data of an outcome that has an exit code of its own (a wait's verdict: 10 not
   * passed, 11 timed out; 9 a launch whose outcome is unknown). A --jq error on it, or a stdout
   * that cannot be written (a full disk, a terminal gone), is said, and that exit code stays:
   * pipelines retry exit 1 (docs/ci.md), and a retry of `evals run` launches the eval set again.
   * After a pass (0) either is the command's error, exit 1.
   */
  private async keepingExitCode(exitCode: number, print: () => Promise<void>): Promise<void> {
    try {
      await print()
      await written(this.io)
    } catch (error) {
      if (exitCode === 0 || !(error instanceof AmctlError) || !(isOutputError(error) || error.code === 'jq_error')) throw error
      this.present(error)
    }
  }

  /** What a command knows of an error that the error does not say (a subclass adds it: ApiCommand's login hint). */
  protected refine(_error: AmctlError): void {}

  /** Writes an error the contract's way (the one presenter). */
  protected present(error: AmctlError): void {
    this.refine(error)
    presentError(error, this.io, {json: errorsAsJson(this.argv), style: this.errStyle})
  }

  /** Every failure of a command ends where one outside a command does (./failure.ts). */
  override async catch(err: Error & {oclif?: {exit?: number}}): Promise<never> {
    if (err instanceof Errors.ExitError) throw err
    throw new Errors.ExitError(await reportFailure(err, this.argv, {io: this.io, env: this.env}, (failure) => this.refine(failure)))
  }

  override async finally(err: Error | undefined): Promise<void> {
    await super.finally(err)
    this.jq?.close()
    // a keychain call abandoned at its time limit may hold the event loop for D-Bus's own
    // timeout (~25 s); the command is finished, so let the process go
    if (keychainTimedOut()) setTimeout(() => process.exit(), 200).unref()
  }
}
