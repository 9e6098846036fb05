import {Flags} from '@oclif/core'
import type {Me} from './api/types.js'
import {BaseCommand} from './base-command.js'
import {findToken, type FoundToken} from './core/auth/credentials.js'
import {ConfigStore} from './core/config.js'
import {NotLoggedInError, UsageError} from './core/errors.js'
import type {HttpClient} from './core/http/client.js'
import {type GlobalFlags, resolveProfile, resolveSettings, type Settings} from './core/settings.js'

/**
 * Base of every command that talks to the API: the global flags of cli-contract.md 1.1, the
 * settings they resolve to, the HTTP client (built lazily, so undici is loaded only by commands
 * that send requests), the token, and org resolution.
 */
export abstract class ApiCommand extends BaseCommand {
  static override baseFlags = {
    org: Flags.string({description: 'organization slug or public ID [env: AMCTL_ORG]', helpGroup: 'GLOBAL'}),
    'base-url': Flags.string({description: 'server root; /api/v1 is appended [env: AMCTL_BASE_URL]', helpGroup: 'GLOBAL'}),
    profile: Flags.string({description: 'named profile in the config [env: AMCTL_PROFILE]', helpGroup: 'GLOBAL'}),
    timeout: Flags.string({description: 'per-request timeout in seconds [env: AMCTL_TIMEOUT] (default 30)', helpGroup: 'GLOBAL'}),
    verbose: Flags.boolean({description: 'log each request to stderr [env: AMCTL_DEBUG=1]', helpGroup: 'GLOBAL'}),
  }

  private _config?: ConfigStore
  private _settings?: Settings
  private _client?: HttpClient
  private _token?: Promise<FoundToken>
  private _org?: Promise<string>
  private httpLoaded = false

  /** The config store (opened once). */
  protected async store(): Promise<ConfigStore> {
    this._config ??= await ConfigStore.open()
    return this._config
  }

  /** Resolves and validates the global settings; nothing is sent. */
  protected async settings(flags: GlobalFlags): Promise<Settings> {
    if (!this._settings) {
      const profile = resolveProfile(flags)
      // the config file is read (and conf loaded) only when flags and environment leave a gap
      const env = process.env
      const complete = (flags['base-url'] ?? env.AMCTL_BASE_URL) && (flags.org ?? env.AMCTL_ORG)
      this._settings = resolveSettings(flags, complete ? {} : (await this.store()).profile(profile))
    }
    return this._settings
  }

  /** The stored or environment token for the profile and server; exit 3 when there is none. */
  // not named `token`: oclif's arg parser assigns `token` on the command instance
  protected storedToken(flags: GlobalFlags): Promise<FoundToken> {
    this._token ??= (async () => {
      const {profile, baseUrl} = await this.settings(flags)
      const found = await findToken(profile, baseUrl)
      if (!found) throw new NotLoggedInError(`not logged in to ${baseUrl}${profile === 'default' ? '' : ` (profile "${profile}")`}`)
      return found
    })()
    return this._token
  }

  /**
   * The HTTP client for the resolved server. It authenticates with the stored token (resolved
   * on the first request that needs it), with `token` when given, or not at all for `null`.
   */
  protected async client(flags: GlobalFlags, token?: string | null): Promise<HttpClient> {
    if (this._client && token === undefined) return this._client
    const settings = await this.settings(flags)
    const {HttpClient} = await import('./core/http/client.js')
    this.httpLoaded = true
    const dim = this.errStyle.dim
    const client = new HttpClient({
      baseUrl: settings.baseUrl,
      timeoutMs: settings.timeoutMs,
      userAgent: `amctl/${this.config.version} node/${process.version} ${process.platform}`,
      token: token === undefined ? async () => (await this.storedToken(flags)).token : token === null ? undefined : async () => token,
      log: settings.verbose ? (line) => this.io.stderr.write(`${dim(line)}\n`) : undefined,
    })
    if (token === undefined) this._client = client
    return client
  }

  /**
   * The organization: --org, AMCTL_ORG, the profile's org, else the caller's only one from
   * GET /me; with several (or none) exit 2 asking for --org.
   */
  protected org(flags: GlobalFlags): Promise<string> {
    this._org ??= (async () => {
      const settings = await this.settings(flags)
      if (settings.org) return settings.org
      const {getMe} = await import('./api/auth.js')
      const me: Me = await getMe(await this.client(flags))
      const orgs = me.orgs
      if (orgs.length === 1 && orgs[0].slug) return orgs[0].slug
      const which = orgs.length === 0 ? 'you belong to no organization' : `you belong to ${orgs.length} organizations (${orgs.map((o) => o.slug).join(', ')})`
      throw new UsageError(`${which}: pass --org or run \`amctl config set org <slug>\``)
    })()
    return this._org
  }

  override async finally(err: Error | undefined): Promise<void> {
    if (this.httpLoaded) {
      const {closeDispatcher} = await import('./core/http/dispatcher.js')
      await closeDispatcher()
    }
    await super.finally(err)
  }
}
