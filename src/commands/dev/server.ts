import {Flags} from '@oclif/core'
import {BaseCommand} from '../../base/base-command.js'
import {AmctlError, UsageError} from '../../core/errors.js'
import type {DevServer} from '../../devserver/index.js'
import {APPROVE_MODES, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RUN_SECONDS, SEED_KINDS, isLoopbackHost} from '../../devserver/options.js'
import {terminalSafe} from '../../output/sanitize.js'

export default class DevServerCommand extends BaseCommand {
  static override summary = 'Run the local control plane (a dev server for the API) until Ctrl-C'

  static override description = `Serves every endpoint of the API under /api/v1 from a seeded, in-memory state (or --data FILE), \
for trying the CLI and testing scripts offline. stdout: the base URL on the first line, then one line per seeded \
organization (slug, public ID, name; tab-separated) — or one JSON line with --json. Test hooks live under /_dev/. \
--data FILE is locked while the server runs (a second server on it exits 2).

Launched and forked runs move on their own: queued, then running, then succeeded, failed or cancelled after \
--run-seconds (0: at once), with an outcome and score fixed by the run's ID. Seeded runs keep their statuses. \
PATCH /_dev/runs/RUN_ID with {"status","score"} sets a run by hand.`

  static override examples = [
    {description: 'Start on port 4010 and log in against it', command: '<%= config.bin %> <%= command.id %>\n<%= config.bin %> auth login --base-url http://127.0.0.1:4010'},
    {description: 'Start on a free port and capture its URL', command: 'url=$(<%= config.bin %> <%= command.id %> --port 0 | head -n1)'},
    {description: 'Keep state across restarts, approve device logins by hand', command: '<%= config.bin %> <%= command.id %> --data ./amctl-dev.json --approve manual'},
    {description: 'Runs finish as soon as they are launched', command: '<%= config.bin %> <%= command.id %> --run-seconds 0'},
    {description: 'Describe the server as JSON, with a rate limit of 5 requests per second per token', command: '<%= config.bin %> <%= command.id %> --json --rate-limit 5'},
  ]

  static override flags = {
    port: Flags.integer({description: 'port to listen on (0 picks a free one)', default: DEFAULT_PORT, min: 0, max: 65_535}),
    host: Flags.string({description: 'address to listen on', default: DEFAULT_HOST}),
    data: Flags.string({description: 'keep state in this file across restarts (locked while in use)', helpValue: 'FILE'}),
    seed: Flags.option({description: 'initial data when there is no state file', options: SEED_KINDS, default: 'default'})(),
    'rate-limit': Flags.integer({description: 'requests per second per token (0 = unlimited)', min: 0, helpValue: 'N'}),
    'run-seconds': Flags.integer({description: 'seconds a launched run takes to finish (0 = at once)', min: 0, default: DEFAULT_RUN_SECONDS, helpValue: 'N'}),
    approve: Flags.option({description: 'device-flow logins: approved at once, or by hand at <url>/device', options: APPROVE_MODES, default: 'auto'})(),
    verbose: Flags.boolean({description: 'log each request to stderr'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(DevServerCommand)
    // the server is loaded only here, never by the other commands
    const {DevServerOptionError, startDevServer} = await import('../../devserver/index.js')
    const stderr = (line: string): void => {
      this.io.stderr.write(`${terminalSafe(line)}\n`)
    }
    let server: DevServer
    try {
      server = await startDevServer({
        port: flags.port,
        host: flags.host,
        dataFile: flags.data,
        seed: flags.seed,
        rateLimit: flags['rate-limit'] ?? 0,
        runSeconds: flags['run-seconds'],
        approve: flags.approve,
        log: flags.verbose ? stderr : undefined,
        warn: (line) => stderr(`warning: ${line}`),
      })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EADDRINUSE') {
        throw new AmctlError(`port ${flags.port} is already in use on ${flags.host} (use --port 0 for a free one)`, {code: 'address_in_use', exitCode: 1})
      }
      if (error instanceof DevServerOptionError) throw new UsageError(error.message)
      throw error
    }

    // with --json: one compact line, so a script can read it while the server keeps running
    const data = this.jsonEnabled()
      ? [JSON.stringify({baseUrl: server.url, orgs: server.orgs, users: server.users})]
      : [server.url, ...server.orgs.map((org) => [org.slug, org.publicId, org.name].join('\t'))]
    const hints = [
      `amctl dev server listening on ${server.url} (state: ${flags.data ?? `in memory, seed ${flags.seed}`})`,
      `Log in:  ${this.config.bin} auth login --base-url ${server.url}`,
      flags.approve === 'manual' ? `Approve device logins at ${server.url}/device` : `Device logins are approved at once as ${server.users[0]?.email}`,
      ...(isLoopbackHost(flags.host) ? [] : [`warning: ${flags.host} is not a loopback address: anyone who reaches it can use the /_dev/ test hooks, which need no token`]),
      'Press Ctrl-C to stop',
    ]
    this.io.stdout.write(`${data.join('\n')}\n`)
    this.io.stderr.write(`${hints.join('\n')}\n`)

    await untilSignal()
    try {
      await server.close()
    } catch (error) {
      throw new AmctlError(`could not write ${flags.data} on shutdown, the latest changes are lost: ${(error as Error).message}`, {code: 'write_failed', exitCode: 1})
    }
  }
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve(signal)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
