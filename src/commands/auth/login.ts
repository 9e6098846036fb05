import {Flags} from '@oclif/core'
import {ApiCommand} from '../../api-command.js'
import {getMe} from '../../api/auth.js'
import type {Me} from '../../api/types.js'
import {storeToken} from '../../core/auth/credentials.js'
import {obtainToken} from '../../core/auth/login.js'
import {assertTokenForm} from '../../core/auth/token.js'
import {openBrowser} from '../../core/browser.js'
import {readAll} from '../../core/stdin.js'

export interface LoginResult {
  user: Me
  tokenSource: 'keychain' | 'file'
  baseUrl: string
  profile: string
}

export default class AuthLogin extends ApiCommand {
  static override summary = 'Log in to the control plane and store the token'
  static override description = `Without flags, asks the server for a login (POST /api/v1/cli/token, sent without a token) and follows its device flow: a one-time code is shown, the approval page opens in a browser when there is a terminal, and amctl polls until the login is approved.

With --with-token, reads a token (svc_…) from standard input instead, for CI.

The token goes to the OS keychain, or, when no keychain is usable (or with --insecure-storage), to credentials.json (mode 0600) in the config directory. A base URL given by flag or environment is saved in the profile.`

  static override examples = [
    {description: 'Log in through the browser', command: '<%= config.bin %> <%= command.id %>'},
    {description: 'Log in to the local control plane', command: '<%= config.bin %> <%= command.id %> --base-url http://127.0.0.1:4010'},
    {description: 'Log in from CI with a token on stdin', command: 'echo "$AMCTL_CI_TOKEN" | <%= config.bin %> <%= command.id %> --with-token'},
  ]

  static override flags = {
    'with-token': Flags.boolean({description: 'read the token from standard input'}),
    'insecure-storage': Flags.boolean({description: 'store the token in a file (mode 0600) instead of the OS keychain'}),
    'no-browser': Flags.boolean({description: 'print the approval URL without opening a browser'}),
  }

  async run(): Promise<LoginResult> {
    const {flags} = await this.parse(AuthLogin)
    const settings = await this.settings(flags)
    let token: string
    if (flags['with-token']) {
      if (this.io.stdinIsTTY) this.notice('Paste a token (svc_…), then press Ctrl-D:')
      token = assertTokenForm((await readAll(this.io.stdin)).trim(), 'the token read from stdin')
    } else {
      const s = this.errStyle
      token = await obtainToken(await this.client(flags, null), {
        prompt: (code, url) => {
          this.notice(`First copy your one-time code: ${s.bold(code)}`)
          this.notice(`Then approve the login at ${s.underline(url)}`)
          this.notice(s.dim('Waiting for approval… (Ctrl-C to cancel)'))
        },
        openBrowser:
          flags['no-browser'] || !this.io.stdinIsTTY || !this.io.stderrIsTTY || process.env.CI ? undefined : (url) => void openBrowser(url),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        now: () => Date.now(),
      })
    }

    const user = await getMe(await this.client(flags, token))
    const stored = await storeToken(settings.profile, settings.baseUrl, token, {insecure: flags['insecure-storage']})
    if (flags['base-url'] !== undefined || process.env.AMCTL_BASE_URL) {
      const store = await this.store()
      if (store.get(settings.profile, 'base-url') !== settings.baseUrl) store.set(settings.profile, 'base-url', settings.baseUrl)
    }

    if (stored.keychainProblem) {
      this.warning(`the OS keychain is not available (${stored.keychainProblem}); the token is stored in ${stored.path} (mode 0600)`)
    }
    const orgs = user.orgs.map((o) => o.slug)
    const org = settings.org ?? (orgs.length > 0 ? orgs.join(', ') : 'no organization')
    this.notice(`Logged in as ${user.email} (${org})`)
    if (process.env.AMCTL_TOKEN) this.warning('AMCTL_TOKEN is set in the environment: commands use it, not the token just stored')
    return {user, tokenSource: stored.source, baseUrl: settings.baseUrl, profile: settings.profile}
  }
}
