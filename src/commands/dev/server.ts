import {Flags} from '@oclif/core'
import {BaseCommand} from '../../base/base-command.js'
import {commandResult, type Printed} from '../../base/results.js'
import type {OrgRef} from '../../contract/types.js'
import {AmctlError, UsageError} from '../../core/errors.js'
import type {DevServer, OrgCatalog} from '../../devserver/index.js'
import type {UserRecord} from '../../devserver/state.js'
import {
  APPROVE_MODES,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_RUN_SECONDS,
  HOOKS,
  HOOKS_PREFIX,
  PATTERN_SYNTAX,
  type HookDoc,
  SEED_KINDS,
  isLoopbackHost,
} from '../../devserver/options.js'
import {terminalSafe} from '../../output/sanitize.js'
import type {OperationId} from '../../contract/routes.js'
import type {Signals, StopSignal} from '../../core/signals.js'

/** The address the help's examples use: the default one. */
const EXAMPLE_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`

/** Path parameters of the hooks' examples: IDs of seed `default`. */
const EXAMPLE_PARAMS: Readonly<Record<string, string>> = {org: 'globex', email: 'grace@example.com', runId: 'run_acme_0260'}

/**
 * The longest example line the help prints unbroken at 80 columns: oclif hard-wraps longer ones
 * anywhere, even inside a quoted argument, which would break them when pasted.
 */
export const EXAMPLE_WIDTH = 68

/**
 * A hook's example: one curl command against `$url` (curl's --json sends the body as JSON with
 * its content type, by POST unless -X says otherwise). A long body goes into a variable first;
 * the help joins an example's lines with ` \`, so each line but the last ends with `;`.
 */
export function hookExample(hook: HookDoc): {description: string; command: string} {
  const path = hook.path.replace(/:(\w+)/g, (_, name: string) => EXAMPLE_PARAMS[name])
  const method = hook.method === 'GET' || (hook.method === 'POST' && hook.example !== undefined) ? '' : ` -X ${hook.method}`
  const curl = `curl -fsS${method} "$url${HOOKS_PREFIX}${path}${hook.query ?? ''}"`
  const description = `${hook.method} ${HOOKS_PREFIX}${hook.path}: ${hook.summary}`
  if (hook.example === undefined) return {description, command: curl}
  const oneLine = `${curl} --json '${hook.example}'`
  return {description, command: oneLine.length <= EXAMPLE_WIDTH ? oneLine : `body='${hook.example}';\n${curl} --json "$body"`}
}

/** The help's list of hooks: one line each. */
const HOOK_LINES = HOOKS.map(({method, path, summary, details}) => {
  return `  ${method} ${HOOKS_PREFIX}${path}: ${summary}${details === undefined ? '' : ` (${details})`}`
}).join('\n')

/** What `dev server --json` prints, as one line, once the server listens: its base URL, the seeded organizations and users. */
export interface DevServerDocument {
  /** e.g. `http://127.0.0.1:4010` (no `/api/v1`, no trailing slash) */
  baseUrl: string
  orgs: OrgRef[]
  users: UserRecord[]
}

export default class DevServerCommand extends BaseCommand {
  /** it sends no request */
  static operations: OperationId[] = []
  static override summary = 'Run the local control plane (a dev server for the API) until Ctrl-C'

  static override description = `Serves every endpoint of the API under /api/v1 from a seeded, in-memory state (or --data FILE), \
for trying the CLI and testing scripts offline. stdout: the base URL on the first line, then one line per seeded \
organization (slug, public ID, name; tab-separated) — or one JSON line with --json. stderr: how to log in, and the seeded \
IDs to try each command with.

Launched and forked runs move on their own: queued, then running, then succeeded, failed or cancelled after \
--run-seconds (0: at once), with an outcome and score planned through POST /_dev/orgs/:org/outcomes, or else drawn \
for its eval set, agent and model. Seeded runs keep their statuses; they are each organization's recent history \
(launches ten minutes apart, the newest ten minutes before the state was seeded): every eval set × agent × model has \
its own true mean, noise and share of failed runs, some steady, some noisy, some flaky, one that shifted level \
halfway, and the runs launched later are drawn from it too, so \`--baseline previous\` finds a baseline for a launch \
and \`evals stats\` shows the noise and its verdicts.

It answers only requests whose Host is the address it listens on (or localhost with its port), so a web page cannot \
reach it through DNS rebinding. --data FILE is locked while the server runs (a second server on it exits 2); each \
change is written to it before it is answered, and a change it cannot write (a full disk) is undone and answered 507.

Test hooks (no token; refused from another Origin, and bodies must be Content-Type: application/json):
${HOOK_LINES}
${PATTERN_SYNTAX}`

  static override examples = [
    {
      description: `Start on port 4010, then log in from another terminal: <%= config.bin %> auth login --base-url ${EXAMPLE_URL}`,
      command: '<%= config.bin %> <%= command.id %>',
    },
    {
      description: 'In a script: start on a free port and read its URL from the first line into $url (`kill $!` stops the server)',
      command: 'exec 3< <(<%= config.bin %> <%= command.id %> --port 0); read -r url <&3',
    },
    {
      description: 'Keep state across restarts, approve device logins by hand',
      command: '<%= config.bin %> <%= command.id %> --data ./amctl-dev.json --approve manual',
    },
    {description: 'Runs finish as soon as they are launched', command: '<%= config.bin %> <%= command.id %> --run-seconds 0'},
    {
      description: 'Describe the server as JSON, with a rate limit of 5 requests per second per token',
      command: '<%= config.bin %> <%= command.id %> --json --rate-limit 5',
    },
    ...HOOKS.map((hook, i) => {
      const example = hookExample(hook)
      const intro = `Test hooks, with url=${EXAMPLE_URL} (or the URL the server printed) and curl 7.82 or later.`
      return i === 0 ? {...example, description: `${intro} ${example.description}`} : example
    }),
  ]

  static override flags = {
    port: Flags.integer({description: 'port to listen on (0 picks a free one)', default: DEFAULT_PORT, min: 0, max: 65_535}),
    host: Flags.string({description: 'address to listen on', default: DEFAULT_HOST}),
    data: Flags.string({description: 'keep state in this file across restarts (locked while in use)', helpValue: 'FILE'}),
    seed: Flags.option({description: 'initial data when there is no state file', options: SEED_KINDS, default: 'default'})(),
    'rate-limit': Flags.integer({description: 'requests per second per token (0 = unlimited)', min: 0, helpValue: 'N'}),
    'run-seconds': Flags.integer({
      description: 'seconds a launched run takes to finish (0 = at once)',
      min: 0,
      default: DEFAULT_RUN_SECONDS,
      helpValue: 'N',
    }),
    approve: Flags.option({
      description: 'device-flow logins: approved at once, or by hand at <url>/device',
      options: APPROVE_MODES,
      default: 'auto',
    })(),
    verbose: Flags.boolean({description: 'log each request to stderr'}),
  }

  async run(): Promise<Printed<DevServerDocument>> {
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
        now: () => this.clock.wall(),
      })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EADDRINUSE') {
        throw new AmctlError(`port ${flags.port} is already in use on ${flags.host} (use --port 0 for a free one)`, {
          code: 'address_in_use',
          exitCode: 1,
        })
      }
      if (error instanceof DevServerOptionError) throw new UsageError(error.message)
      throw error
    }

    const hints = [
      `amctl dev server listening on ${server.url} (state: ${flags.data ?? `in memory, seed ${flags.seed}`})`,
      `Log in:  ${this.config.bin} auth login --base-url ${server.url}`,
      flags.approve === 'manual'
        ? `Approve device logins at ${server.url}/device`
        : `Device logins are approved at once as ${server.users[0]?.email}`,
      ...(isLoopbackHost(flags.host)
        ? []
        : [`warning: ${flags.host} is not a loopback address: anyone who reaches it can use the /_dev/ test hooks, which need no token`]),
      ...seededIds(server.catalog),
      `Test hooks: ${server.url}${HOOKS_PREFIX}/… (see ${this.config.bin} dev server --help)`,
      'Press Ctrl-C to stop',
    ]
    // Ctrl-C stops the server from now on, also while --jq still writes (its results come as jq
    // writes them): the base command then ends jq
    const signalled = untilSignal(this.signals)
    const document: DevServerDocument = {baseUrl: server.url, orgs: server.orgs, users: server.users}
    try {
      // with --json: one compact line, so a script can read it while the server keeps running
      if (this.jsonEnabled()) {
        const printed = this.printJson(document, {compact: true})
        if ((await Promise.race([printed.then(() => 'printed'), signalled])) !== 'printed') printed.catch(() => {})
      } else
        this.io.stdout.write(`${[server.url, ...server.orgs.map((org) => [org.slug, org.publicId, org.name].join('\t'))].join('\n')}\n`)
    } catch (error) {
      // a --jq error ends the command: the server must not keep the process alive
      await server.close()
      throw error
    }
    for (const hint of hints) stderr(hint)

    await signalled
    // every change was written to --data when it was answered: nothing is pending here
    await server.close()
    return commandResult({kind: 'printed', document})
  }
}

/** The banner's list of seeded IDs: one block per organization, one line per kind of resource. */
export function seededIds(orgs: readonly OrgCatalog[]): string[] {
  if (orgs.every((org) => org.evalSets.length === 0 && org.runs.length === 0)) return []
  const lines = ['Seeded IDs (pass --org with the slug):']
  const row = (label: string, values: string[]): void => {
    if (values.length > 0) lines.push(`    ${label.padEnd(15)}${values.join(', ')}`)
  }
  for (const org of orgs) {
    lines.push(`  ${org.slug} (${org.publicId}, ${org.name}; Optimizations ${org.optimizationsEnabled ? 'enabled' : 'not enabled'})`)
    row('eval sets', org.evalSets)
    row('connections', org.connections)
    row(
      'runs',
      org.runs.map((run) => `${run.id} (${run.status})`),
    )
    row(
      'prompts',
      org.prompts.map((prompt) => `${prompt.id} (${prompt.kind})`),
    )
    row(
      'experiments',
      org.experiments.map(({id, status, variants}) => `${id} (${status}; variants ${variants.join(', ')})`),
    )
    row(
      'optimizations',
      org.optimizations.map((id) => `${id} (${org.optimizationsEnabled ? 'propose works' : 'propose answers 403'})`),
    )
    row(
      'MCP servers',
      org.mcpServers.map((server) => `${server.id} (${server.name})`),
    )
    row(
      'tags',
      org.tags.map((tag) => `${tag.id} (${tag.name})`),
    )
  }
  return lines
}

/** The first SIGINT or SIGTERM the world passes on (no longer listened to once it came). */
function untilSignal(signals: Signals): Promise<StopSignal> {
  return new Promise((resolve) => {
    const stop = signals.on(['SIGINT', 'SIGTERM'], (signal) => {
      stop()
      resolve(signal)
    })
  })
}
