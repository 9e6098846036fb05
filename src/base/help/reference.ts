import type {Command} from '@oclif/core'
import {GROUPS, requestLines, usageLine} from './help.js'

/**
 * The command reference, derived from the manifest (oclif.manifest.json) as `--help` derives it:
 * one model per command, which the Markdown pages (docs/commands/) and the man pages (man/) are
 * written from, so the three cannot drift. Not part of the CLI's bundle.
 */

export interface ManifestLike {
  version: string
  commands: Record<string, Command.Cached>
}

/** Where a command's text names the program or itself (oclif's templates), as the help fills them in. */
export const resolveTemplates = (text: string, id: string) =>
  text.replaceAll('<%= config.bin %>', 'amctl').replaceAll('<%= command.id %>', id.replaceAll(':', ' '))

export interface FlagDoc {
  /** `-F, --field KEY=VALUE` */
  spelled: string
  description: string
  /** the environment variable that also sets it (`[env: …]` in its description) */
  env?: string
  default?: string
  options?: readonly string[]
  required: boolean
  /** may be given more than once */
  multiple: boolean
}

export interface FlagGroupDoc {
  /** `FLAGS`, `BODY FLAGS`, `WAIT FLAGS`, `GLOBAL FLAGS` (the help's headings) */
  title: string
  flags: FlagDoc[]
}

export interface ArgDoc {
  name: string
  description: string
  required: boolean
  options?: readonly string[]
}

export interface ExampleDoc {
  description?: string
  command: string
}

/**
 * A paragraph of a description: its text, and the lines indented under it (the dev server's
 * hooks), which the help shows one per line.
 */
export interface ParagraphDoc {
  text: string
  items: string[]
}

export interface CommandDoc {
  id: string
  /** `runs list` */
  name: string
  /** `runs-list`: the page's file name and the man page's name after `amctl-` */
  slug: string
  topic: string
  summary: string
  /** `amctl runs list [--limit <value>] … [GLOBAL FLAGS]` */
  usage: string
  paragraphs: ParagraphDoc[]
  args: ArgDoc[]
  flagGroups: FlagGroupDoc[]
  /** `GET /api/v1/orgs/{org}/runs` */
  requests: string[]
  examples: ExampleDoc[]
}

const GLOBAL = 'GLOBAL'
const ENV = /\s*\[env: ([^\]]+)\]/
const DEFAULT = /\s*\(default ("[^"]*"|[^)]+)\)/

/** A flag as the help describes it: env and default taken out of its description into fields of their own. */
function flagDoc(name: string, flag: Command.Flag.Cached): FlagDoc {
  let description = flag.description ?? flag.summary ?? ''
  const env = ENV.exec(description)?.[1]
  description = description.replace(ENV, '')
  const spelledDefault = DEFAULT.exec(description)?.[1]
  description = description.replace(DEFAULT, '')
  const option = flag.type === 'option'
  const fromFlag = option && flag.default !== undefined && typeof flag.default !== 'function' ? String(flag.default) : undefined
  return {
    spelled: `${flag.char ? `-${flag.char}, ` : ''}--${name}${option ? ` ${flag.helpValue ?? '<value>'}` : ''}`,
    description: description.trim(),
    env,
    default: fromFlag ?? spelledDefault,
    options: option ? flag.options : undefined,
    required: Boolean(flag.required),
    multiple: option && Boolean(flag.multiple),
  }
}

/** The command's flags in the help's groups: its own first, then the other groups by name, GLOBAL FLAGS last. */
function flagGroups(command: Command.Cached): FlagGroupDoc[] {
  const groups = new Map<string, FlagGroupDoc>()
  for (const [name, flag] of Object.entries(command.flags ?? {})) {
    if (flag.hidden) continue
    // --json comes from oclif's enableJsonFlag; amctl describes it with the global flags
    const group = name === 'json' ? GLOBAL : (flag.helpGroup ?? '')
    const title = group === '' ? 'FLAGS' : `${group.toUpperCase()} FLAGS`
    if (!groups.has(title)) groups.set(title, {title, flags: []})
    groups.get(title)?.flags.push(flagDoc(name, flag))
  }
  const rank = (title: string) => (title === 'FLAGS' ? 0 : title === `${GLOBAL} FLAGS` ? 2 : 1)
  for (const group of groups.values()) group.flags.sort((a, b) => bare(a.spelled).localeCompare(bare(b.spelled)))
  return [...groups.values()].sort((a, b) => rank(a.title) - rank(b.title) || a.title.localeCompare(b.title))
}

/** `--field` of `-F, --field KEY=VALUE`: what the flags are sorted by, as the help sorts them. */
const bare = (spelled: string) => spelled.replace(/^-\w, /, '').split(' ')[0]

function paragraphs(description: string): ParagraphDoc[] {
  return description
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '')
    .flatMap((p) => {
      // a paragraph's indented lines are items under it; an unindented line after them starts a new paragraph
      const out: ParagraphDoc[] = []
      for (const line of p.split('\n')) {
        const last = out.at(-1)
        if (/^\s+\S/.test(line) && last) last.items.push(line.trim())
        else if (last && last.items.length === 0) last.text = `${last.text} ${line.trim()}`
        else out.push({text: line.trim(), items: []})
      }
      return out
    })
}

export function commandDoc(command: Command.Cached): CommandDoc {
  const id = command.id
  const name = id.replaceAll(':', ' ')
  const resolve = (text: string) => resolveTemplates(text, id)
  // a summary is a phrase (oclif's own commands end theirs with a full stop, amctl's do not)
  const summary = resolve(command.summary ?? command.description?.split('\n')[0] ?? '').replace(/\.$/, '')
  // oclif's description starts with the summary when a command has no separate summary
  const description = command.summary ? (command.description ?? '') : (command.description ?? '').split('\n').slice(1).join('\n')
  return {
    id,
    name,
    slug: id.replaceAll(':', '-'),
    topic: id.split(':')[0],
    summary,
    usage: `amctl ${usageLine(command as Command.Loadable)}`,
    paragraphs: paragraphs(resolve(description)),
    args: Object.values(command.args ?? {}).map((arg) => ({
      name: arg.name.toUpperCase(),
      description: arg.description ?? '',
      required: Boolean(arg.required),
      options: arg.options,
    })),
    flagGroups: flagGroups(command),
    requests: requestLines(command as Command.Loadable),
    examples: (command.examples ?? []).map((example) =>
      typeof example === 'string'
        ? {command: resolve(example)}
        : {description: example.description ? resolve(example.description) : undefined, command: resolve(example.command)},
    ),
  }
}

/** The commands a user can run (not the hidden ones, autocomplete's plumbing), by id. */
export function documentedCommands(manifest: ManifestLike): CommandDoc[] {
  return Object.values(manifest.commands)
    .filter((command) => !command.hidden)
    .map(commandDoc)
    .sort((a, b) => a.id.localeCompare(b.id))
}

export interface TopicGroup {
  /** `CORE COMMANDS` */
  title: string
  topics: {name: string; description: string; commands: CommandDoc[]}[]
}

/**
 * The commands by topic, in the root help's groups and order (core, administration, tools);
 * `descriptions` are package.json's oclif topics. A command without a topic is a topic of its own.
 */
export function topicGroups(commands: readonly CommandDoc[], descriptions: Record<string, {description?: string}>): TopicGroup[] {
  const topicNames = [...new Set(commands.map((c) => c.topic))]
  const placed = new Set<string>()
  return GROUPS.map((group) => {
    const names = group.names.filter((n) => topicNames.includes(n))
    if (group.title === 'TOOLS') names.push(...topicNames.filter((n) => !GROUPS.some((g) => g.names.includes(n))).sort())
    const topics = names
      .filter((n) => !placed.has(n))
      .map((n) => {
        placed.add(n)
        const inTopic = commands.filter((c) => c.topic === n)
        const only = inTopic.length === 1 && inTopic[0].id === n ? inTopic[0] : undefined
        return {name: n, description: descriptions[n]?.description ?? only?.summary ?? '', commands: inTopic}
      })
    return {title: group.title, topics}
  }).filter((group) => group.topics.length > 0)
}
