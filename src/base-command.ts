import {Command, Errors, Flags} from '@oclif/core'
import {AmctlError, isAmctlError, UsageError} from './core/errors.js'
import {canPrompt, confirm} from './output/prompt.js'
import {keychainTimedOut} from './core/auth/keychain.js'
import {type Column, jsonText, keyValue, table, tsvObject, tsvRows} from './output/format.js'
import {io, type IO} from './output/io.js'
import {loadColors, palette, type Style} from './output/style.js'

/**
 * What every amctl command shares: `--json` (one document on stdout, pretty on a TTY and
 * compact when piped), the rendering helpers that stay silent under `--json`, and the single
 * place where any error becomes the one-line message or the JSON error document and its exit
 * code (cli-contract.md 1.4, 1.5).
 *
 * A command's `run()` parses, makes one call into the core, renders, and returns its typed
 * result; the base prints that result under `--json`.
 */
export abstract class BaseCommand extends Command {
  static override enableJsonFlag = true

  override async init(): Promise<void> {
    await super.init()
    if (this.io.stdoutColor || this.io.stderrColor) await loadColors()
  }

  protected get io(): IO {
    return io()
  }

  /** Colours for stdout. */
  protected get style(): Style {
    return palette(this.io.stdoutColor)
  }

  /** Colours for stderr. */
  protected get errStyle(): Style {
    return palette(this.io.stderrColor)
  }

  /** Human output is skipped under --json: the returned result is printed instead. */
  protected get human(): boolean {
    return !this.jsonEnabled()
  }

  /** A list: a table on a TTY, TSV rows without a header when piped. */
  protected renderList<T>(rows: T[], columns: Column<T>[]): void {
    if (!this.human) return
    if (this.io.stdoutIsTTY) {
      if (rows.length === 0) this.notice(this.errStyle.dim('(none)'))
      else this.io.stdout.write(table(rows, columns, this.style))
    } else {
      this.io.stdout.write(tsvRows(rows, columns))
    }
  }

  /** An object: aligned key/value on a TTY, key<TAB>value lines when piped. */
  protected renderObject(obj: Record<string, unknown>): void {
    if (!this.human) return
    this.io.stdout.write(this.io.stdoutIsTTY ? keyValue(obj, this.style) : tsvObject(obj))
  }

  /** A line of data on stdout (human mode only). */
  protected print(line: string): void {
    if (this.human) this.io.stdout.write(`${line}\n`)
  }

  /** Messages, notices, hints: stderr, in every mode (stdout carries only data). */
  protected notice(line: string): void {
    this.io.stderr.write(`${line}\n`)
  }

  protected warning(line: string): void {
    this.notice(`${this.errStyle.yellow('warning:')} ${line}`)
  }

  /**
   * Deletes ask "Delete <what>? (y/N)" on a terminal; without one they need --yes (exit 2 and
   * no request otherwise). A "no" cancels with exit 2.
   */
  protected async confirmDelete(what: string, yes: boolean): Promise<void> {
    if (yes) return
    if (!canPrompt(this.io)) throw new UsageError(`refusing to delete ${what} without --yes: there is no terminal to confirm on`)
    if (!(await confirm(this.io, `Delete ${what}?`))) throw new AmctlError('deletion cancelled', {code: 'cancelled', exitCode: 2})
  }

  /** The --json output: one document, pretty on a TTY, compact otherwise. */
  override logJson(json: unknown): void {
    this.io.stdout.write(jsonText(json, this.io.stdoutIsTTY))
  }

  override async catch(err: Error & {oclif?: {exit?: number}; code?: string}): Promise<never> {
    if (err instanceof Errors.ExitError) throw err
    const error = toAmctlError(err)
    if (!error.reported) this.report(error)
    if (process.env.AMCTL_DEBUG === '1' && err.stack) this.io.stderr.write(`${err.stack}\n`)
    throw new Errors.ExitError(error.exitCode)
  }

  /** Writes an error the contract's way: the JSON error document, or `error: …` (+ `hint: …`). */
  protected report(error: AmctlError): void {
    if (this.jsonEnabled()) {
      this.logJson(error.toDocument())
    } else {
      const s = this.errStyle
      this.io.stderr.write(`${s.red(error.toLine())}\n`)
      if (error.hint) this.io.stderr.write(`${s.dim(`hint: ${error.hint}`)}\n`)
    }
  }

  override async finally(err: Error | undefined): Promise<void> {
    await super.finally(err)
    // a keychain call abandoned at its time limit may hold the event loop for D-Bus's own
    // timeout (~25 s); the command is finished, so let the process go
    if (keychainTimedOut()) setTimeout(() => process.exit(), 200).unref()
  }
}

/** Any thrown value as an AmctlError: oclif's parse errors are usage errors (exit 2). */
export function toAmctlError(err: unknown): AmctlError {
  if (isAmctlError(err)) return err
  const e = err as Error & {oclif?: {exit?: number}}
  if (e && typeof e === 'object' && e.oclif) {
    // oclif's own errors: unknown flags, missing arguments, bad option values …
    const message = String(e.message ?? '')
      .replace(/\s*See more help with --help\s*$/, '')
      .replace(/^The following errors? occurred:\s*/, '')
      .replace(/^Parsing (--[\w-]+)\s+/, '$1: ')
    const exit = e.oclif.exit ?? 2
    if (exit === 2) return new UsageError(message)
    return new AmctlError(message, {code: 'internal', exitCode: exit})
  }
  const message = e instanceof Error ? e.message : String(err)
  return new AmctlError(`unexpected failure: ${message}`, {code: 'internal', exitCode: 1, cause: err})
}

/** Flags shared by config-only commands. */
export const profileFlag = Flags.string({
  description: 'named profile in the config [env: AMCTL_PROFILE] (default "default")',
  helpGroup: 'GLOBAL',
})
