import type {Me} from '../contract/types.js'
import {findToken, type FoundToken} from '../core/auth/credentials.js'
import type {Clock} from '../core/clock.js'
import type {Transport} from '../core/http/attempt.js'
import {ConfigStore, localStateWarnings} from '../core/config.js'
import {LOGIN_HINT, NotLoggedInError, UsageError} from '../core/errors.js'
import {rememberRecent, type Sighting} from '../core/recent.js'
import type {HttpClient} from '../core/http/client.js'
import {type GlobalFlags, resolveSettings, type Settings} from '../core/settings.js'
import type {IO} from '../output/io.js'
import {terminalSafe} from '../output/sanitize.js'
import {shellLine} from '../output/shell.js'
import type {Style} from '../output/style.js'

export interface ContextOptions {
  io: IO
  env: NodeJS.ProcessEnv
  /** the clock the HTTP client's retries wait by */
  clock: Clock
  /** how requests reach the server (the world's) */
  transport: Transport
  /** amctl's version, for the User-Agent */
  version: string
  /** dims --verbose lines on stderr */
  errStyle: Style
  /** prints one `warning:` line on stderr (the renderer's) */
  warn: (message: string) => void
  /** awaited before any request is sent (the --jq expression compiled) */
  beforeRequest?: () => Promise<void>
}

/**
 * What a command needs from the world, resolved once and built only when asked for (gh's
 * Factory): the settings its global flags and the environment choose, the config store, the
 * token, HTTP clients (undici loads with the first), and the organization.
 */
export class CommandContext {
  private settingsP?: Promise<Settings>
  private storeP?: Promise<ConfigStore>
  private tokenP?: Promise<FoundToken>
  private clientP?: Promise<HttpClient>
  private orgP?: Promise<string>
  private httpLoaded = false
  private readonly warned = new Set<string>()
  /** what the command saw, for shell completion (see remember) */
  private readonly sightings: Sighting[] = []
  private orgUsed?: string
  /** where the token sent came from, once it was found */
  private tokenSource?: FoundToken['source']

  constructor(
    private readonly flags: GlobalFlags,
    readonly opts: ContextOptions,
  ) {}

  get io(): IO {
    return this.opts.io
  }

  get env(): NodeJS.ProcessEnv {
    return this.opts.env
  }

  /** The config store (opened once). */
  store(): Promise<ConfigStore> {
    this.storeP ??= ConfigStore.open(this.env, {warn: (message) => this.warn(message)})
    return this.storeP
  }

  /** Each warning once per run. */
  private warn(message: string): void {
    if (this.warned.has(message)) return
    this.warned.add(message)
    this.opts.warn(message)
  }

  /**
   * `amctl auth login` (with `extra` words) as a hint says it: with the --profile and --base-url
   * this command was given, so that pasting it logs in where the command looked for a token.
   */
  loginCommand(extra: readonly string[] = []): string {
    const words = ['amctl', 'auth', 'login', ...extra]
    if (this.flags.profile !== undefined) words.push('--profile', this.flags.profile)
    if (this.flags['base-url'] !== undefined) words.push('--base-url', this.flags['base-url'])
    return shellLine(words)
  }

  /**
   * The hint of a missing or rejected token (`hint`: the one it came with), as this command knows
   * it: a token from AMCTL_TOKEN that the server rejected is the environment's to fix, as it is
   * used before any stored login; otherwise the login, with the --profile and --base-url given.
   * Another hint an error came with is kept.
   */
  authHint(hint: string | undefined): string | undefined {
    if (hint !== undefined && hint !== LOGIN_HINT) return hint
    if (this.tokenSource === 'env') {
      return 'the token in AMCTL_TOKEN was rejected, and it is used before any stored login: set AMCTL_TOKEN to a valid token, or unset it'
    }
    return `run \`${this.loginCommand()}\``
  }

  /** The settings by the contract's precedence; the config file is read only when flags and environment leave a gap. */
  settings(): Promise<Settings> {
    this.settingsP ??= (async () => {
      const {flags, env} = this
      const complete = (flags['base-url'] ?? env.AMCTL_BASE_URL) && (flags.org ?? env.AMCTL_ORG)
      const probe = resolveSettings(flags, {}, env) // flags and environment are checked before any file is read
      if (complete) return probe
      return resolveSettings(flags, (await this.store()).profile(probe.profile), env)
    })()
    return this.settingsP
  }

  /** The token commands send: AMCTL_TOKEN, else the stored one for the profile and server; exit 3 when there is none. */
  token(): Promise<FoundToken> {
    this.tokenP ??= (async () => {
      const {profile, baseUrl} = await this.settings()
      // a stored token is about to be read: say if the local state is open to others
      if (this.env.AMCTL_TOKEN === undefined) for (const warning of localStateWarnings(this.env)) this.warn(warning)
      const found = await findToken(profile, baseUrl, this.env)
      if (!found) throw new NotLoggedInError(`not logged in to ${baseUrl}${profile === 'default' ? '' : ` (profile "${profile}")`}`)
      this.tokenSource = found.source
      return found
    })()
    return this.tokenP
  }

  /** The client that authenticates with the stored token (asked for with the first request). */
  http(): Promise<HttpClient> {
    this.clientP ??= this.newClient(async () => (await this.token()).token)
    return this.clientP
  }

  /** A client that sends no token (`POST /cli/token`). */
  anonymousHttp(): Promise<HttpClient> {
    return this.newClient(undefined)
  }

  /** A client that authenticates with `token` (a login checking the token it just got). */
  httpWith(token: string): Promise<HttpClient> {
    return this.newClient(async () => token)
  }

  /**
   * The organization: --org, AMCTL_ORG, the profile's org, else the caller's only one from
   * GET /me; with several (or none) exit 2 asking for --org.
   */
  org(): Promise<string> {
    this.orgP ??= (async () => {
      const settings = await this.settings()
      if (settings.org) return settings.org
      const {getMe} = await import('../api/auth.js')
      const me: Me = await getMe(await this.http())
      const orgs = me.orgs
      if (orgs.length === 1 && orgs[0].slug) return orgs[0].slug
      const which =
        orgs.length === 0
          ? 'you belong to no organization'
          : `you belong to ${orgs.length} organizations (${orgs.map((o) => o.slug).join(', ')})`
      throw new UsageError(`${which}: pass --org or run \`amctl config set org <slug>\``)
    })().then((org) => {
      this.orgUsed = org
      return org
    })
    return this.orgP
  }

  /** IDs the command saw (runs, eval sets, organizations), kept for shell completion when it ends well. */
  saw(sightings: readonly Sighting[]): void {
    this.sightings.push(...sightings)
  }

  /**
   * Adds what the command saw, and the organization it used, to the completion cache
   * (src/core/recent.ts), at the end of a command that did its work. A cache that cannot be
   * written never fails the command; --verbose says so.
   */
  async remember(now: number): Promise<void> {
    const seen: Sighting[] = this.orgUsed === undefined ? this.sightings : [{kind: 'orgs', id: this.orgUsed}, ...this.sightings]
    const error = rememberRecent(this.env, seen, now)
    if (error && this.settingsP && (await this.settingsP).verbose) {
      this.opts.io.stderr.write(`${this.opts.errStyle.dim(terminalSafe(`the completion cache was not written: ${error.message}`))}\n`)
    }
  }

  /** Closes the transport's kept-alive connections so no idle socket keeps the process alive. */
  async close(): Promise<void> {
    if (this.httpLoaded) await this.opts.transport.close()
  }

  private async newClient(token: (() => Promise<string>) | undefined): Promise<HttpClient> {
    const settings = await this.settings()
    const {HttpClient} = await import('../core/http/client.js')
    this.httpLoaded = true
    const {io, clock, transport, errStyle, version} = this.opts
    return new HttpClient({
      baseUrl: settings.baseUrl,
      transport,
      clock,
      timeoutMs: settings.timeoutMs,
      userAgent: `amctl/${version} node/${process.version} ${process.platform}`,
      token,
      beforeSend: this.opts.beforeRequest,
      log: settings.verbose ? (line) => io.stderr.write(`${errStyle.dim(terminalSafe(line))}\n`) : undefined,
    })
  }
}
