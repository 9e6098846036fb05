import {GETTING_STARTED, globalFlagRows} from './help.js'
import {type CommandDoc, documentedCommands, type FlagDoc, type ManifestLike, type TopicGroup, topicGroups} from './reference.js'
import {topicMarkdown} from './render.js'
import {ENVIRONMENT, EXIT_CODES, FORMATTING} from './topics.js'

/**
 * The man pages as Markdown (docs.ts turns them into roff with marked-man): amctl(1), the
 * overview, and amctl-<topic>-<verb>(1) for each command, as gh ships them. From the manifest and
 * the help topics, the same sources as `--help` and docs/commands/.
 */

export type {ManifestLike} from './reference.js'

const code = (text: string) => `\`${text}\``
/** `amctl-runs-list` */
export const manName = (doc: CommandDoc) => `amctl-${doc.slug}`
const ref = (doc: CommandDoc) => `${manName(doc)}(1)`

/** Text as Markdown that marked-man passes through as written (no emphasis, no HTML). */
const plain = (text: string) => text.replace(/([\\*_<>[\]])/g, '\\$1')

function flagLine(flag: FlagDoc): string {
  const more = [
    flag.options ? `one of ${flag.options.join(', ')}` : undefined,
    flag.default === undefined ? undefined : `default ${flag.default}`,
    flag.env ? `env ${flag.env}` : undefined,
    flag.required ? 'required' : undefined,
    flag.multiple && !flag.description.includes('repeatable') ? 'repeatable' : undefined,
  ].filter(Boolean)
  return `* ${code(flag.spelled)}: ${plain(flag.description)}${more.length > 0 ? ` (${more.join('; ')})` : ''}`
}

/** amctl-<topic>-<verb>(1): one command. */
export function commandManMarkdown(doc: CommandDoc, all: readonly CommandDoc[]): string {
  const out = [`# ${manName(doc)}(1) -- ${plain(doc.summary)}`, '', '## SYNOPSIS', '', code(doc.usage), '', '## DESCRIPTION', '']
  out.push(`${plain(doc.summary)}.`.replace(/\.\.$/, '.'), '')
  for (const p of doc.paragraphs) {
    out.push(plain(p.text), '')
    if (p.items.length > 0) out.push(...p.items.map((item) => `* ${plain(item)}`), '')
  }
  if (doc.args.length > 0) {
    out.push('## ARGUMENTS', '')
    for (const arg of doc.args) {
      const more = [arg.options ? `one of ${arg.options.join(', ')}` : undefined, arg.required ? undefined : 'optional'].filter(Boolean)
      out.push(`* ${code(arg.name)}: ${plain(arg.description)}${more.length > 0 ? ` (${more.join('; ')})` : ''}`)
    }
    out.push('')
  }
  for (const group of doc.flagGroups) out.push(`## ${group.title}`, '', ...group.flags.map(flagLine), '')
  if (doc.requests.length > 0) out.push('## REQUEST', '', ...doc.requests.map((r) => `    ${r}`), '')
  if (doc.examples.length > 0) {
    out.push('## EXAMPLES', '')
    for (const example of doc.examples) {
      if (example.description) out.push(plain(example.description), '')
      out.push(...example.command.split('\n').map((line) => `    $ ${line}`), '')
    }
  }
  const siblings = all.filter((c) => c.topic === doc.topic && c.id !== doc.id)
  out.push('## SEE ALSO', '', ['amctl(1)', ...siblings.map(ref)].join(', '), '')
  return out.join('\n')
}

function commandList(groups: readonly TopicGroup[]): string[] {
  const out: string[] = []
  for (const group of groups) {
    out.push(`### ${group.title}`, '')
    for (const topic of group.topics) {
      for (const doc of topic.commands) out.push(`* ${code(`amctl ${doc.name}`)}: ${plain(doc.summary)}; see ${ref(doc)}`)
    }
    out.push('')
  }
  return out
}

/** amctl(1): what amctl is, its global flags, every command in a line (each has its own page), the help topics. */
export function manMarkdown(manifest: ManifestLike, topics: Record<string, {description?: string}>): string {
  const commands = documentedCommands(manifest)
  return [
    '# amctl(1) -- the command-line tool for the Agent Measurement control-plane API',
    '',
    '## SYNOPSIS',
    '',
    '`amctl` <topic> <command> [flags]',
    '',
    '`amctl help` [<topic>|<command>]',
    '',
    '## DESCRIPTION',
    '',
    'amctl manages evals, runs, optimizations, experiments, tokens, organizations, connections, MCP servers and tags of the ' +
      'Agent Measurement control plane, for people in terminals, CI steps and shell scripts. `amctl dev server` runs a local ' +
      'control plane for trying it and for testing scripts offline.',
    '',
    'Each command has a man page of its own: `man amctl-runs-list` for `amctl runs list`.',
    '',
    '## GETTING STARTED',
    '',
    ...GETTING_STARTED.map(([cmd, why]) => `    $ ${cmd}    # ${why}`),
    '',
    '## GLOBAL FLAGS',
    '',
    ...globalFlagRows(Object.values(manifest.commands)).map(([name, what]) => `* ${code(name)}: ${plain(what)}`),
    '',
    '## COMMANDS',
    '',
    ...commandList(topicGroups(commands, topics)),
    '## ENVIRONMENT',
    '',
    topicMarkdown(ENVIRONMENT),
    '## EXIT STATUS',
    '',
    topicMarkdown(EXIT_CODES),
    '## OUTPUT',
    '',
    topicMarkdown(FORMATTING),
    '## FILES',
    '',
    '* `$AMCTL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/amctl` or `~/.config/amctl`: `config.json` (profiles) and, without an OS keychain, `credentials.json` (mode 0600).',
    '',
    '## SEE ALSO',
    '',
    `${commands.map(ref).join(', ')}; \`amctl help environment\`, \`amctl help exit-codes\`, \`amctl help formatting\`.`,
    '',
  ].join('\n')
}
