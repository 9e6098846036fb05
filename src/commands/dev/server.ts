import {Command, Flags} from '@oclif/core'
import {DEFAULT_HOST, DEFAULT_PORT, DevServerOptionError, startDevServer, type DevServer} from '../../devserver/index.js'

export default class DevServerCommand extends Command {
  static override summary = 'Run the local control plane (a dev server for the API) until Ctrl-C'

  static override description = `Serves every endpoint of the API under /api/v1 from a seeded, in-memory state (or --data FILE), \
for trying the CLI and testing scripts offline. stdout: the base URL on the first line, then one line per seeded \
organization (slug, public ID, name; tab-separated) — or one JSON line with --json. Test hooks live under /_dev/.`

  static override examples = [
    {description: 'Start on port 4010 and log in against it', command: '<%= config.bin %> <%= command.id %>\n<%= config.bin %> auth login --base-url http://127.0.0.1:4010'},
    {description: 'Start on a free port and capture its URL', command: 'url=$(<%= config.bin %> <%= command.id %> --port 0 | head -n1)'},
    {description: 'Keep state across restarts, approve device logins by hand', command: '<%= config.bin %> <%= command.id %> --data ./amctl-dev.json --approve manual'},
    {description: 'Describe the server as JSON, with a rate limit of 5 requests per second per token', command: '<%= config.bin %> <%= command.id %> --json --rate-limit 5'},
  ]

  static override flags = {
    port: Flags.integer({description: 'port to listen on (0 picks a free one)', default: DEFAULT_PORT, min: 0, max: 65_535}),
    host: Flags.string({description: 'address to listen on', default: DEFAULT_HOST}),
    data: Flags.string({description: 'keep state in this file across restarts', helpValue: 'FILE'}),
    seed: Flags.string({description: 'initial data when there is no state file', options: ['default', 'empty'], default: 'default'}),
    'rate-limit': Flags.integer({description: 'requests per second per token (0 = unlimited)', min: 0, helpValue: 'N'}),
    approve: Flags.string({description: 'device-flow logins: approved at once, or by hand at <url>/device', options: ['auto', 'manual'], default: 'auto'}),
    verbose: Flags.boolean({description: 'log each request to stderr'}),
    json: Flags.boolean({description: 'print {"baseUrl","orgs","users"} as one JSON line'}),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(DevServerCommand)
    let server: DevServer
    try {
      server = await startDevServer({
        port: flags.port,
        host: flags.host,
        dataFile: flags.data,
        seed: flags.seed === 'empty' ? 'empty' : 'default',
        rateLimit: flags['rate-limit'] ?? 0,
        approve: flags.approve === 'manual' ? 'manual' : 'auto',
        log: flags.verbose ? (line) => this.logToStderr(line) : undefined,
      })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EADDRINUSE') this.error(`port ${flags.port} is already in use on ${flags.host} (use --port 0 for a free one)`, {exit: 1})
      this.error((error as Error).message, {exit: error instanceof DevServerOptionError ? 2 : 1})
    }

    if (flags.json) this.log(JSON.stringify({baseUrl: server.url, orgs: server.orgs, users: server.users}))
    else this.log([server.url, ...server.orgs.map((org) => [org.slug, org.publicId, org.name].join('\t'))].join('\n'))
    this.logToStderr(
      [
        `amctl dev server listening on ${server.url} (state: ${flags.data ?? `in memory, seed ${flags.seed}`})`,
        `Log in:  ${this.config.bin} auth login --base-url ${server.url}`,
        flags.approve === 'manual' ? `Approve device logins at ${server.url}/device` : `Device logins are approved at once as ${server.users[0]?.email ?? 'the first user'}`,
        'Press Ctrl-C to stop',
      ].join('\n'),
    )

    await untilSignal()
    await server.close()
  }

  /** One line on stderr (`error: …`); usage errors exit 2. */
  override async catch(error: Error & {oclif?: {exit?: number}}): Promise<void> {
    const exit = error.oclif?.exit ?? 1
    if (exit === 0) return
    this.logToStderr(`error: ${error.message.split('\n')[0]}`)
    process.exitCode = exit
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
