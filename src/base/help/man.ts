import type {Command} from '@oclif/core'
import {GETTING_STARTED, globalFlagRows, GROUPS, requestLines, usageLine} from './help.js'
import {topicMarkdown} from './render.js'
import {ENVIRONMENT, EXIT_CODES, FORMATTING} from './topics.js'

/**
 * The man page amctl(1), as Markdown (bin/docs.js turns it into roff with marked-man): from the
 * manifest's commands and the help topics, the same sources as `--help` and the README.
 */

export interface ManifestLike {
  version: string
  commands: Record<string, Command.Cached>
}

const code = (text: string) => `\`${text}\``
/** Text from a command's help with its template tags resolved. */
const resolve = (text: string, id: string) => text.replaceAll('<%= config.bin %>', 'amctl').replaceAll('<%= command.id %>', id)

function commandSection(command: Command.Cached): string {
  const id = command.id.replaceAll(':', ' ')
  const out = [`### ${code(`amctl ${usageLine(command as Command.Loadable).replace(/^\S+( \S+)?/, id)}`)}`, '']
  if (command.summary) out.push(`${resolve(command.summary, id)}.`.replace(/\.\.$/, '.'), '')
  if (command.description)
    out.push(
      ...resolve(command.description, id)
        .split('\n\n')
        .map((p) => `${p.replaceAll('\n', ' ')}\n`),
    )
  const own = Object.entries(command.flags ?? {}).filter(([name, f]) => !f.hidden && f.helpGroup !== 'GLOBAL' && name !== 'json')
  if (own.length > 0) {
    out.push('Flags:', '')
    for (const [name, flag] of own) {
      const spelled = `${flag.char ? `-${flag.char}, ` : ''}--${name}${flag.type === 'option' ? ` ${flag.helpValue ?? 'VALUE'}` : ''}`
      out.push(`* ${code(spelled)}: ${flag.description ?? flag.summary ?? ''}`)
    }
    out.push('')
  }
  const requests = requestLines(command as Command.Loadable)
  if (requests.length > 0) out.push(`Request: ${requests.map(code).join(', ')}`, '')
  const examples = (command.examples ?? []).map((e) => resolve(typeof e === 'string' ? e : e.command, id))
  if (examples.length > 0) out.push('Examples:', '', ...examples.map((e) => `    $ ${e.replaceAll('\n', '\n    $ ')}`), '')
  return out.join('\n')
}

export function manMarkdown(manifest: ManifestLike): string {
  const commands = Object.values(manifest.commands).filter((c) => !c.hidden)
  const topicOf = (c: Command.Cached) => c.id.split(':')[0]
  const out = [
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
    '## GETTING STARTED',
    '',
    ...GETTING_STARTED.map(([cmd, why]) => `    $ ${cmd}    # ${why}`),
    '',
    '## GLOBAL FLAGS',
    '',
    ...globalFlagRows(commands).map(([name, what]) => `* ${code(name)}: ${what}`),
    '',
    '## COMMANDS',
    '',
  ]
  for (const group of GROUPS) {
    const inGroup = commands.filter(
      (c) => group.names.includes(topicOf(c)) || (group.title === 'TOOLS' && !GROUPS.some((g) => g.names.includes(topicOf(c)))),
    )
    if (inGroup.length === 0) continue
    out.push(`### ${group.title}`, '')
    for (const command of inGroup.sort((a, b) => a.id.localeCompare(b.id))) out.push(commandSection(command))
  }
  out.push('## ENVIRONMENT', '', topicMarkdown(ENVIRONMENT))
  out.push('## EXIT STATUS', '', topicMarkdown(EXIT_CODES))
  out.push('## OUTPUT', '', topicMarkdown(FORMATTING))
  out.push(
    '## FILES',
    '',
    '* `$AMCTL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/amctl` or `~/.config/amctl`: `config.json` (profiles) and, without an OS keychain, `credentials.json` (mode 0600).',
    '',
    '## SEE ALSO',
    '',
    '`amctl help environment`, `amctl help exit-codes`, `amctl help formatting`; the README of the package.',
    '',
  )
  return out.join('\n')
}
