import {Flags} from '@oclif/core'
import {getMe} from '../../api/auth.js'
import {obtainToken} from '../../api/device-flow.js'
import {ApiCommand} from '../../base/api-command.js'
import {apiFlags} from '../../base/flags.js'
import type {Me} from '../../contract/types.js'
import {storeToken} from '../../core/auth/credentials.js'
import {assertTokenForm} from '../../core/auth/token.js'
import {UsageError} from '../../core/errors.js'
import {openBrowser} from '../../core/browser.js'
import {styled} from '../../output/renderer.js'
import {readText} from '../../input/files.js'
import type {OperationId} from '../../contract/routes.js'

export interface LoginResult {
  user: Me
  tokenSource: 'keychain' | 'file'
  baseUrl: string
  profile: string
}

export default class AuthLogin extends ApiCommand {
  static override summary = 'Log in to the control plane and store the token'
  static operations: OperationId[] = ['createCliToken', 'getMe']
  static override description =
    `Without flags, asks the server for a login and follows its device flow: a one-time code is shown, the approval page opens in a browser when there is a terminal, and amctl waits until the login is approved.

With --with-token, reads a token (svc_…) from standard input instead, for CI.

Without a terminal (standard input not a terminal, or CI set) no one could approve a device login: without --with-token amctl exits 2 at once, before any request, pointing to --with-token and AMCTL_TOKEN.

The token goes to the OS keychain, or, when no keychain is usable (or with --insecure-storage), to credentials.json (mode 0600) in the config directory. A base URL given by flag or environment is saved in the profile.`

  static override examples = [
    {
      description: 'Log in to the local control plane (amctl dev server)',
      command: '<%= config.bin %> <%= command.id %> --base-url http://127.0.0.1:4010',
    },
    {
      description: 'Log in from CI with a token on stdin',
      command: 'echo "$AMCTL_CI_TOKEN" | <%= config.bin %> <%= command.id %> --with-token',
    },
  ]

  static override baseFlags = apiFlags(['org'])
  static override flags = {
    'with-token': Flags.boolean({description: 'read the token from standard input'}),
    'insecure-storage': Flags.boolean({description: 'store the token in a file (mode 0600) instead of the OS keychain'}),
    'no-browser': Flags.boolean({description: 'print the approval URL without opening a browser'}),
  }

  async run(): Promise<LoginResult> {
    const {flags} = await this.parse(AuthLogin)
    const ci = isCI(this.ctx.env)
    if (!flags['with-token'] && (ci || !this.io.stdinIsTTY)) {
      throw new UsageError(
        `cannot log in here: ${ci ? 'CI is set' : 'stdin is not a terminal'}, so no one can approve a device login`,
        `pipe a token to \`${this.ctx.loginCommand(['--with-token'])}\`, or set AMCTL_TOKEN`,
      )
    }
    const settings = await this.ctx.settings()
    let token: string
    if (flags['with-token']) {
      if (this.io.stdinIsTTY) this.out.notice('Paste a token (svc_…), then press Ctrl-D:')
      token = assertTokenForm((await readText('-', this.io.stdin, '--with-token')).trim(), 'the token read from stdin')
    } else {
      const browser = !flags['no-browser'] && this.io.stderrIsTTY
      token = await obtainToken(await this.ctx.anonymousHttp(), {
        prompt: (code, url) => {
          this.out.notice('First copy your one-time code: ', styled(code, 'bold'))
          this.out.notice('Then approve the login at ', styled(url, 'underline'))
          this.out.notice(styled('Waiting for approval… (Ctrl-C to cancel)', 'dim'))
        },
        openBrowser: browser ? (url) => void openBrowser(url, this.ctx.env) : undefined,
        clock: this.clock,
      })
    }

    const user = await getMe(await this.ctx.httpWith(token))
    const stored = await storeToken(settings.profile, settings.baseUrl, token, this.ctx.env, {insecure: flags['insecure-storage']})
    if (flags['base-url'] !== undefined || this.ctx.env.AMCTL_BASE_URL) {
      const store = await this.ctx.store()
      if (store.get(settings.profile, 'base-url') !== settings.baseUrl) store.set(settings.profile, 'base-url', settings.baseUrl)
    }

    if (stored.keychainProblem) {
      this.out.warning(`the OS keychain is not available (${stored.keychainProblem}); the token is stored in ${stored.path} (mode 0600)`)
    }
    const orgs = user.orgs.map((o) => o.slug)
    this.out.notice(`Logged in to ${settings.baseUrl} as ${user.email} (${orgs.length > 0 ? orgs.join(', ') : 'no organization'})`)
    if (this.ctx.env.AMCTL_TOKEN) this.out.warning('AMCTL_TOKEN is set in the environment: commands use it, not the token just stored')
    return {user, tokenSource: stored.source, baseUrl: settings.baseUrl, profile: settings.profile}
  }
}

/** CI is set (GitHub Actions, GitLab and most others set CI=true): anything but empty, false or 0. */
function isCI(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase()
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0'
}
