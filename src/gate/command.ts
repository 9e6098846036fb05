import {ApiCommand} from '../base/api-command.js'
import type {GateDeps} from './wait.js'

/**
 * Base of the commands that wait for runs and judge them (`runs watch`, `evals run --wait`):
 * what a wait needs is made here once, from the command's context, and handed to the gate as one
 * object, so the two commands never assemble it field by field.
 */
export abstract class GateCommand extends ApiCommand {
  private depsP?: Promise<GateDeps>

  /** The API, the organization, the streams, the clock and the signals of this command's wait (resolved once). */
  protected gate(): Promise<GateDeps> {
    this.depsP ??= (async () => {
      const org = await this.ctx.org()
      const client = await this.ctx.http()
      const {verbose, baseUrl} = await this.ctx.settings()
      return {
        client,
        org,
        io: this.io,
        out: this.out,
        errStyle: this.errStyle,
        verbose,
        env: this.ctx.env,
        baseUrl,
        clock: this.clock,
        signals: this.signals,
      }
    })()
    return this.depsP
  }
}
