import {Marked} from 'marked'
import markedMan from 'marked-man'
import {commandManMarkdown, manMarkdown, manName} from './man.js'
import {type CommandDoc, documentedCommands, type FlagGroupDoc, type ManifestLike, topicGroups} from './reference.js'
import {topicMarkdown} from './render.js'
import {HELP_TOPICS} from './topics.js'

/**
 * The documents generated from the code, for `npm run docs` (bin/docs.js) and the freshness
 * tests (test/base/help/docs.test.ts): the command reference docs/commands/ (a page per command
 * and an index by topic), the man pages man/amctl.1 and man/amctl-<topic>-<verb>.1, and the
 * help-topic sections of the Markdown documents (between `<!-- help:NAME -->` and
 * `<!-- help:end -->`). Not part of the CLI's bundle.
 */

/** package.json's oclif topics: the descriptions the index and amctl(1) group commands under. */
export type TopicDescriptions = Record<string, {description?: string}>

/** `text` with every help-topic section it holds rewritten from src/base/help/topics.ts. */
export function withTopics(text: string): string {
  let out = text
  for (const topic of HELP_TOPICS) {
    const open = `<!-- help:${topic.name} -->`
    const start = out.indexOf(open)
    if (start === -1) continue
    const end = out.indexOf('<!-- help:end -->', start)
    if (end === -1) throw new Error(`${open} has no <!-- help:end --> after it`)
    out = `${out.slice(0, start + open.length)}\n${topicMarkdown(topic)}${out.slice(end)}`
  }
  return out
}

/** A man page in roff, from its Markdown; `date` (YYYY-MM-DD) goes in its header. */
function roff(markdown: string, name: string, version: string, date: string): string {
  // an instance of its own: marked.use() would pile one page's options onto the next
  const marked = new Marked({...markedMan, date, name, section: '1', manual: 'amctl manual', manVersion: version} as never)
  return portableRoff(marked.parse(markdown, {async: false}) as string)
}

/**
 * roff that every reader sets alike: each character beyond ASCII as groff's `\[uXXXX]` (groff
 * reads a page as Latin-1 unless man(1) first runs it through preconv: `groff -man -Tutf8` showed
 * the en dash of "1–200" as "â"), the hyphens of the NAME line as `\-`, as marked-man writes
 * every other one (a plain `-` may be set as a typographic hyphen, which no shell takes), and no
 * hyphenation (`.nh`: "--since DU‐RATION" in a synopsis cannot be pasted either).
 */
export function portableRoff(text: string): string {
  const named = text
    .replace(/^(\.TH .*\n)/m, '$1.nh\n')
    .replace(/^(\\fB[^\\\n]*)(\\fR \\- )/m, (_, name: string, rest: string) => `${name.replace(/-/g, '\\-')}${rest}`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is what this keeps
  return named.replace(/[^\x00-\x7f]/gu, (c) => `\\[u${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}]`)
}

/** The man page amctl(1) in roff. */
export function manPage(manifest: ManifestLike, topics: TopicDescriptions, date: string): string {
  return roff(manMarkdown(manifest, topics), 'amctl', manifest.version, date)
}

// ---- Markdown pages ------------------------------------------------------------------------

const WORD = /^[\p{L}\p{N}]$/u

/**
 * Help text as Markdown that shows as written: outside `code spans`, the characters Markdown
 * would take for emphasis, links or HTML are escaped (a `_` only when it is not between two
 * letters or digits, where it could start or end emphasis: AMCTL_TOKEN stays readable).
 */
export function inline(text: string): string {
  return text
    .split(/(`[^`\n]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/([\\*<>[\]])/g, '\\$1')
            .replace(/_/g, (_, at: number, all: string) => (WORD.test(all[at - 1] ?? '') && WORD.test(all[at + 1] ?? '') ? '_' : '\\_')),
    )
    .join('')
}

/** A table cell: a `|` ends a cell even inside a code span, unless escaped. */
const cell = (text: string) => text.replaceAll('|', '\\|')
const code = (text: string) => `\`${text}\``

function table(headers: string[], rows: string[][]): string[] {
  // a column no row fills is left out
  const used = headers.map((_, i) => i === 0 || rows.some((r) => r[i] !== ''))
  const keep = <T>(values: T[]) => values.filter((_, i) => used[i])
  return [
    `| ${keep(headers).join(' | ')} |`,
    `|${keep(headers)
      .map(() => '---')
      .join('|')}|`,
    ...rows.map((r) => `| ${keep(r).map(cell).join(' | ')} |`),
  ]
}

function flagTable(group: FlagGroupDoc): string[] {
  return table(
    ['flag', 'description', 'default', 'environment'],
    group.flags.map((f) => {
      const notes = [
        f.options ? `one of: ${f.options.map(code).join(', ')}` : undefined,
        f.required ? 'required' : undefined,
        f.multiple && !f.description.includes('repeatable') ? 'repeatable' : undefined,
      ].filter(Boolean)
      return [
        code(f.spelled),
        `${inline(f.description)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`,
        f.default === undefined ? '' : /\s/.test(f.default) ? inline(f.default) : code(f.default),
        f.env ? code(f.env) : '',
      ]
    }),
  )
}

/** `GLOBAL FLAGS` → `Global flags` */
const heading = (title: string) => title.charAt(0) + title.slice(1).toLowerCase()
const pageOf = (doc: CommandDoc) => `${doc.slug}.md`
const GENERATED = '<!-- Generated by `npm run docs` from the command definitions (src/commands/): edit those, not this file. -->'

/** docs/commands/<topic>-<verb>.md: one command, as its --help shows it. */
export function commandPage(doc: CommandDoc, all: readonly CommandDoc[]): string {
  const out = [GENERATED, `# amctl ${doc.name}`, '', `${inline(doc.summary)}.`.replace(/\.\.$/, '.'), '', '```text', doc.usage, '```', '']
  for (const p of doc.paragraphs) {
    out.push(inline(p.text), '')
    if (p.items.length > 0) out.push(...p.items.map((item) => `- ${inline(item)}`), '')
  }
  if (doc.args.length > 0) {
    out.push('## Arguments', '')
    out.push(
      ...table(
        ['argument', 'description'],
        doc.args.map((a) => [
          code(a.name),
          `${inline(a.description)}${a.options ? ` (one of: ${a.options.map(code).join(', ')})` : ''}${a.required ? '' : ' (optional)'}`,
        ]),
      ),
      '',
    )
  }
  for (const group of doc.flagGroups) out.push(`## ${heading(group.title)}`, '', ...flagTable(group), '')
  if (doc.requests.length > 0) out.push('## Request', '', '```text', ...doc.requests, '```', '')
  if (doc.examples.length > 0) {
    out.push('## Examples', '', '```sh')
    doc.examples.forEach((example, i) => {
      if (i > 0) out.push('')
      if (example.description) out.push(`# ${example.description}`)
      out.push(example.command)
    })
    out.push('```', '')
  }
  const siblings = all.filter((c) => c.topic === doc.topic && c.id !== doc.id)
  out.push('## See also', '')
  if (siblings.length > 0)
    out.push(`- The other \`${doc.topic}\` commands: ${siblings.map((c) => `[${code(`amctl ${c.name}`)}](${pageOf(c)})`).join(', ')}`)
  out.push(`- [Every command](README.md); \`man ${manName(doc)}\` shows this page in a terminal, as does \`amctl ${doc.name} --help\``, '')
  return out.join('\n')
}

/** docs/commands/README.md: every command by topic, in the root help's groups. */
export function commandIndex(commands: readonly CommandDoc[], topics: TopicDescriptions): string {
  const out = [
    GENERATED,
    '# Command reference',
    '',
    'Every amctl command, one page each, made from the commands themselves: the same text as `amctl <command> --help` and ' +
      '`man amctl-<topic>-<verb>`. The flags every command shares, output formats, environment variables and exit codes are ' +
      'in [Scripting with amctl](../scripting.md).',
    '',
  ]
  for (const group of topicGroups(commands, topics)) {
    out.push(`## ${heading(group.title)}`, '')
    for (const topic of group.topics) {
      out.push(`### ${topic.name}`, '', inline(topic.description), '')
      out.push(
        ...table(
          ['command', 'what it does'],
          topic.commands.map((c) => [`[${code(`amctl ${c.name}`)}](${pageOf(c)})`, inline(c.summary)]),
        ),
        '',
      )
    }
  }
  return out.join('\n')
}

/** The man pages npm installs (package.json "man"), amctl(1) first. */
export function manFiles(manifest: ManifestLike): string[] {
  return ['./man/amctl.1', ...documentedCommands(manifest).map((doc) => `./man/${manName(doc)}.1`)]
}

/**
 * Every generated file, by its path in the repository: docs/commands/ and man/. `date`
 * (YYYY-MM-DD) is the man pages' date.
 */
export function generatedFiles(manifest: ManifestLike, topics: TopicDescriptions, date: string): Map<string, string> {
  const commands = documentedCommands(manifest)
  const files = new Map<string, string>()
  files.set('docs/commands/README.md', commandIndex(commands, topics))
  for (const doc of commands) files.set(`docs/commands/${pageOf(doc)}`, commandPage(doc, commands))
  files.set('man/amctl.1', manPage(manifest, topics, date))
  for (const doc of commands)
    files.set(`man/${manName(doc)}.1`, roff(commandManMarkdown(doc, commands), manName(doc), manifest.version, date))
  return files
}
