import {Errors} from '@oclif/core'
import {type AmctlError, ExitCode} from '../core/errors.js'
import {isUnauthorized} from '../output/present.js'
import type {GlobalFlags} from '../core/settings.js'
import {BaseCommand} from './base-command.js'
import {CommandContext} from './context.js'
import {orgFlags} from './flags.js'

const VERDICTS = new Set<number>([ExitCode.notPassed, ExitCode.waitTimeout])

/**
 * Base of every command that talks to the API (or reads its stored token): the global flags it
 * takes (all of them, `orgFlags`; a command hides from its help those it has no use for:
 * `apiFlags`) and the context they resolve to, built once before `run()`.
 */
export abstract class ApiCommand extends BaseCommand {
  static override baseFlags: typeof orgFlags = orgFlags

  protected ctx!: CommandContext

  override async init(): Promise<void> {
    await super.init()
    const {flags} = await this.parse(this.ctor)
    this.ctx = new CommandContext(flags as GlobalFlags, {
      io: this.io,
      env: this.env,
      clock: this.clock,
      transport: this.transport,
      version: this.config.version,
      errStyle: this.errStyle,
      warn: (message) => this.out.warning(message),
      beforeRequest: () => this.jqReady(),
    })
  }

  /** A missing or rejected token gets the hint this command's context knows (AMCTL_TOKEN, --profile, --base-url). */
  protected override refine(error: AmctlError): void {
    if (this.ctx && isUnauthorized(error)) error.hint = this.ctx.authHint(error.hint)
  }

  override async finally(err: Error | undefined): Promise<void> {
    // a wait's verdict (10, 11) is work done: the runs it saw are real
    const done = err === undefined || (err instanceof Errors.ExitError && VERDICTS.has(err.oclif.exit ?? 1))
    if (done) await this.ctx?.remember(this.clock.wall())
    await this.ctx?.close()
    await super.finally(err)
  }
}
