import type {Command} from '@oclif/core'
// the help module alone: the index would evaluate all of oclif (parser, flags, …) for --help
import {CommandHelp, Help} from '@oclif/core/help'
import {API_PREFIX} from '../../contract/vocabulary.js'
import {type OperationId, ROUTES} from '../../contract/routes.js'
import {topicText, wrap} from './render.js'
import {findTopic, HELP_TOPICS} from './topics.js'

/**
 * amctl's help, on oclif's. The root help groups the topics (core, administration, tools), starts
 * with the three commands a newcomer runs, lists the help topics and the global flags once. A
 * command's usage line names its own flags and `[GLOBAL FLAGS]` instead of repeating six global
 * flags, and a REQUEST section says what it sends (from src/contract/routes.ts).
 * `amctl help environment|exit-codes|formatting` shows a help topic.
 */

/** The root help's groups, in order; a topic or command not named here goes under TOOLS. */
export const GROUPS: readonly {title: string; names: readonly string[]}[] = [
  {title: 'CORE COMMANDS', names: ['auth', 'evals', 'runs', 'optimizations', 'experiments']},
  {title: 'ADMINISTRATION COMMANDS', names: ['tokens', 'orgs', 'connections', 'mcp-servers', 'tags', 'scenarios']},
  {title: 'TOOLS', names: ['api', 'config', 'dev', 'autocomplete', 'version', 'help']},
]

export const GETTING_STARTED = [
  ['amctl dev server', 'a local control plane, seeded with two organizations'],
  ['amctl auth login --base-url http://127.0.0.1:4010', 'in another terminal: log in to it'],
  ['amctl runs list --org acme', 'and look around'],
] as const

/** The commands of oclif's own plugins carry no operations. */
type WithOperations = Command.Loadable & {operations?: OperationId[]}

/** The requests a command sends, as `METHOD /api/v1/path` lines. */
export function requestLines(command: WithOperations): string[] {
  return (command.operations ?? []).map((id) => `${ROUTES[id].method} ${API_PREFIX}${ROUTES[id].path}`)
}

/** `runs list [--limit <value>] [--all]`: the command's own arguments and flags, docopt-style. */
export function usageLine(command: Command.Loadable): string {
  const words = [command.id.replaceAll(':', ' ')]
  const args = Object.values(command.args ?? {})
  for (const [i, arg] of args.entries()) {
    // a command that takes any number of its last argument is not strict (oclif's convention)
    const many = arg.multiple || (command.strict === false && i === args.length - 1)
    const name = arg.name.toUpperCase() + (many ? '...' : '')
    words.push(arg.required ? name : `[${name}]`)
  }
  let globals = false
  for (const [name, flag] of Object.entries(command.flags ?? {})) {
    if (flag.hidden) continue
    if (flag.helpGroup === 'GLOBAL' || name === 'json') {
      globals = true
      continue
    }
    const spelled = flag.char ? `-${flag.char}` : `--${name}`
    const value = flag.type === 'option' ? ` ${flag.helpValue ?? '<value>'}` : ''
    const repeat = flag.type === 'option' && flag.multiple ? '...' : ''
    words.push(flag.required ? `${spelled}${value}${repeat}` : `[${spelled}${value}]${repeat}`)
  }
  if (globals) words.push('[GLOBAL FLAGS]')
  return words.join(' ')
}

/** The global flags (from `runs list`, which takes them all), in the order people look for them: [spelling, description]. */
export function globalFlagRows(commands: readonly Pick<Command.Cached, 'id' | 'flags'>[]): [string, string][] {
  const sample = commands.find((c) => c.id === 'runs:list') ?? commands[0]
  const order = ['json', 'jq', 'org', 'base-url', 'profile', 'timeout', 'verbose']
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length)
  const rows: [string, string][] = Object.entries(sample?.flags ?? {})
    .filter(([name, f]) => f.helpGroup === 'GLOBAL' || name === 'json')
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([name, f]) => [`--${name}${f.type === 'option' ? ` ${f.helpValue ?? '<value>'}` : ''}`, f.summary ?? f.description ?? ''])
  rows.push(['-h, --help', 'show help for a command'])
  return rows
}

/** ejs's escaping of `<%= … %>` output. */
const XML_ESCAPES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;'}
const SIMPLE_TEMPLATE = /<%=\s*(config\.bin|command\.id)\s*%>/g

/**
 * oclif renders every summary, description and example through ejs, and ejs compiles each
 * template into a new function: more than the rest of drawing a command's help. amctl's help
 * texts use two placeholders, `<%= config.bin %>` and `<%= command.id %>`, filled in here as
 * ejs would (escaped); a string without a template is left as it is, any other goes to ejs.
 * Bench rows: `--help`, `runs list --help`.
 */
export function fastRender(
  render: (input: string) => string,
  context: {config: {bin: string}; command?: {id: string}},
): (input: string) => string {
  return (input) => {
    if (!input.includes('<%')) return input
    let unknown = false
    const out = input.replace(SIMPLE_TEMPLATE, (_, name: string) => {
      const value = name === 'config.bin' ? context.config.bin : context.command?.id
      if (value === undefined) unknown = true
      return String(value).replace(/[&<>"']/g, (c) => XML_ESCAPES[c])
    })
    return unknown || out.includes('<%') ? render(input) : out
  }
}

class AmctlCommandHelp extends CommandHelp {
  constructor(...args: ConstructorParameters<typeof CommandHelp>) {
    super(...args)
    this.render = fastRender(this.render, this)
  }

  protected override defaultUsage(): string {
    return usageLine(this.command)
  }

  protected override sections(): ReturnType<CommandHelp['sections']> {
    const sections = super.sections()
    const at = sections.findIndex((s) => s.header === 'DESCRIPTION')
    sections.splice(at + 1, 0, {
      header: 'REQUEST',
      generate: () => {
        const lines = requestLines(this.command)
        return lines.length > 0 ? lines.join('\n') : undefined
      },
    })
    return sections
  }
}

export default class AmctlHelp extends Help {
  protected override CommandHelpClass = AmctlCommandHelp

  constructor(...args: ConstructorParameters<typeof Help>) {
    super(...args)
    this.render = fastRender(this.render, {config: this.config})
  }

  override async showHelp(argv: string[]): Promise<void> {
    const words = argv.filter((a) => !a.startsWith('-'))
    const topic = words.length === 1 ? findTopic(words[0]) : undefined
    if (topic) {
      this.log(topicText(topic, this.opts.maxWidth))
      return
    }
    // `amctl help --help` is about the help command (oclif would take "help" for no subject)
    const help = words.length === 1 && words[0] === 'help' && argv.length > 1 ? this.config.findCommand('help') : undefined
    if (help) {
      await this.showCommandHelp(help)
      return
    }
    await super.showHelp(argv)
  }

  protected override async showRootHelp(): Promise<void> {
    this.log(this.rootHelp())
  }

  /** The root help, as text. */
  rootHelp(): string {
    const {config} = this
    const out: string[] = [config.pjson.description ?? '', '']
    out.push('GETTING STARTED')
    const width = Math.max(...GETTING_STARTED.map(([cmd]) => cmd.length))
    for (const [cmd, why] of GETTING_STARTED) out.push(`  $ ${cmd.padEnd(width)}  # ${why}`)
    out.push('', 'USAGE', `  $ ${config.bin} <topic> <command> [flags]`, '')

    const entries = new Map<string, string>()
    for (const topic of config.topics) if (!topic.name.includes(':') && !topic.hidden) entries.set(topic.name, topic.description ?? '')
    for (const command of config.commands) {
      if (!command.id.includes(':') && !command.hidden)
        entries.set(command.id, command.summary ?? command.description?.split('\n')[0] ?? '')
    }
    const nameWidth = Math.max(...[...entries.keys()].map((n) => n.length), ...HELP_TOPICS.map((t) => t.name.length))
    const placed = new Set<string>()
    const line = (name: string, what: string) => `  ${name.padEnd(nameWidth)}  ${this.render(what).split('\n')[0]}`
    for (const group of GROUPS) {
      const names = group.names.filter((n) => entries.has(n))
      if (group.title === 'TOOLS') names.push(...[...entries.keys()].filter((n) => !GROUPS.some((g) => g.names.includes(n))).sort())
      if (names.length === 0) continue
      out.push(group.title, ...names.map((n) => line(n, entries.get(n) ?? '')), '')
      for (const n of names) placed.add(n)
    }
    out.push('HELP TOPICS', ...HELP_TOPICS.map((t) => line(t.name, t.summary)), '')
    out.push('GLOBAL FLAGS', ...this.globalFlagLines(), '')
    out.push(
      ...wrap(
        `Use \`${config.bin} <topic> --help\` for a topic's commands, \`${config.bin} help exit-codes\` for what scripts can rely on.`,
        this.opts.maxWidth,
      ),
    )
    return out.join('\n')
  }

  /** The flags every API command takes, described once. */
  private globalFlagLines(): string[] {
    const rows = globalFlagRows(this.config.commands)
    const width = Math.max(...rows.map(([n]) => n.length))
    return rows.flatMap(([name, what]) =>
      wrap(what, this.opts.maxWidth - width - 4).map((line, i) => `  ${(i === 0 ? name : '').padEnd(width)}  ${line}`),
    )
  }
}
