import {CADENCES} from '../../../contract/vocabulary.js'
import {HELP_TOPICS} from '../../../base/help/topics.js'
import {CONFIG_KEYS, DEFAULT_BASE_URL, DEFAULT_PROFILE, type ProfileValues} from '../../../core/config.js'
import type {Recent, RecentEntry} from '../../../core/recent.js'
import {BASELINE_WORDS} from '../../../gate/baseline-words.js'
import {STATUS_FILTERS} from '../../../gate/filter.js'

/**
 * Shell completion, as gh's `__complete` does it: the shell's script hands amctl the words of the
 * command line (the last is the word being completed) and prints what comes back. Commands, topics
 * and flags come from the manifest; the values of flags and arguments from local state only — the
 * profiles in the config, the IDs amctl saw lately (src/core/recent.ts), the lists amctl knows
 * (statuses, cadences, config keys). Nothing here sends a request.
 */

/** A flag as oclif's manifest describes it. */
export interface ManifestFlag {
  name: string
  type: 'boolean' | 'option'
  char?: string
  hidden?: boolean
  multiple?: boolean
  options?: readonly string[]
  helpValue?: string
  summary?: string
  description?: string
}

export interface ManifestArg {
  name: string
  description?: string
  options?: readonly string[]
  hidden?: boolean
}

export interface ManifestCommand {
  id: string
  summary?: string
  description?: string
  hidden?: boolean
  strict?: boolean
  aliases?: readonly string[]
  flags: Record<string, ManifestFlag>
  args: Record<string, ManifestArg>
}

/** What completion knows: the commands, the topics' descriptions, and local state. */
export interface CompletionWorld {
  commands: Record<string, ManifestCommand>
  topics: Record<string, {description?: string}>
  /** every profile of the config, by name */
  profiles: Record<string, ProfileValues>
  recent: Recent
  env: NodeJS.ProcessEnv
  /** ms since the epoch (for "seen 2 hours ago") */
  now: number
}

export interface Candidate {
  value: string
  description?: string
}

/** The candidates for the word being completed, or `files`: let the shell complete a path. */
export interface Completion {
  candidates: Candidate[]
  files: boolean
}

/** Where the values of a flag or an argument come from. */
type Source =
  | 'orgs'
  | 'profiles'
  | 'base-urls'
  | 'runs'
  | 'eval-sets'
  | 'statuses'
  | 'baseline'
  | 'config-keys'
  | 'config-value'
  | 'files'
  | {options: readonly string[]}

/** Flags whose values amctl can offer, by name (the same flag means the same thing in every command). */
const FLAG_SOURCES: Record<string, Source> = {
  org: 'orgs',
  profile: 'profiles',
  'base-url': 'base-urls',
  status: 'statuses',
  'eval-set': 'eval-sets',
  baseline: 'baseline',
  cadence: {options: CADENCES},
}

/** Arguments whose values amctl can offer, by name. */
const ARG_SOURCES: Record<string, Source> = {
  run_id: 'runs',
  eval_set_id: 'eval-sets',
  key: 'config-keys',
  value: 'config-value',
  path: 'files',
}

/** At most this many candidates: a shell's list is for choosing, not reading. */
const MAX_CANDIDATES = 200

const summaryOf = (text: {summary?: string; description?: string}): string | undefined =>
  (text.summary ?? text.description)?.split('\n')[0] || undefined

/** The flags and positional arguments before the word being completed. */
interface Parsed {
  positionals: string[]
  given: Set<string>
  values: Record<string, string>
  /** the option flag whose value the word being completed is */
  expecting?: ManifestFlag
  /** after `--`: no more flags */
  ended: boolean
}

function findFlag(command: ManifestCommand, word: string): ManifestFlag | undefined {
  if (word.startsWith('--')) return command.flags[word.slice(2)]
  return Object.values(command.flags).find((flag) => flag.char !== undefined && flag.char === word[1])
}

function parseWords(command: ManifestCommand, words: readonly string[]): Parsed {
  const parsed: Parsed = {positionals: [], given: new Set(), values: {}, ended: false}
  for (const word of words) {
    if (parsed.expecting) {
      // bash splits `--org=acme` into `--org`, `=`, `acme`
      if (word === '=') continue
      parsed.values[parsed.expecting.name] = word
      parsed.expecting = undefined
      continue
    }
    if (parsed.ended || word === '-' || !word.startsWith('-')) {
      parsed.positionals.push(word)
      continue
    }
    if (word === '--') {
      parsed.ended = true
      continue
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1
    const flag = findFlag(command, eq < 0 ? word : word.slice(0, eq))
    if (flag === undefined) continue
    parsed.given.add(flag.name)
    if (flag.type !== 'option') continue
    if (eq >= 0) parsed.values[flag.name] = word.slice(eq + 1)
    else if (!word.startsWith('--') && word.length > 2) parsed.values[flag.name] = word.slice(2)
    else parsed.expecting = flag
  }
  return parsed
}

/** The next words under `path` (topics and commands), for the word being completed. */
function subcommands(world: CompletionWorld, path: readonly string[]): Candidate[] {
  const prefix = path.length === 0 ? '' : `${path.join(':')}:`
  const next = new Map<string, Candidate>()
  for (const command of Object.values(world.commands)) {
    if (command.hidden || !command.id.startsWith(prefix) || command.id === prefix.slice(0, -1)) continue
    const word = command.id.slice(prefix.length).split(':')[0]
    const id = `${prefix}${word}`
    const own = world.commands[id]
    const description = own && !own.hidden ? summaryOf(own) : world.topics[id]?.description
    if (!next.has(word) || own) next.set(word, {value: word, description})
  }
  return [...next.values()].sort((a, b) => (a.value < b.value ? -1 : 1))
}

/** The longest run of leading words that names a command, and the topic path they reach. */
function commandOf(world: CompletionWorld, words: readonly string[]): {path: string[]; command?: ManifestCommand; rest: string[]} {
  const path: string[] = []
  let command: ManifestCommand | undefined
  let used = 0
  const ids = Object.keys(world.commands)
  for (const word of words) {
    const id = [...path, word].join(':')
    const isTopic = ids.some((known) => known.startsWith(`${id}:`))
    if (!world.commands[id] && !isTopic) break
    path.push(word)
    if (world.commands[id]) {
      command = world.commands[id]
      used = path.length
    }
  }
  // words after the command that did not name a deeper command are its arguments
  return {path: path.slice(0, command ? used : path.length), command, rest: words.slice(command ? used : path.length)}
}

/**
 * How long ago an entry was seen, in the shortest words ("5m ago", "2d ago"). Not output/time.ts's
 * relativeTime: Intl.RelativeTimeFormat loads ICU's data, many times the rest of a Tab's work.
 */
function ago(entry: RecentEntry, now: number): string {
  const minutes = Math.floor((now - entry.at) / 60_000)
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes}m ago`
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)}h ago`
  return `${Math.floor(minutes / (24 * 60))}d ago`
}

/** The organization the command line would use (--org, AMCTL_ORG, the profile's), if any. */
function orgInEffect(world: CompletionWorld, parsed: Parsed): string | undefined {
  const profile = parsed.values.profile ?? (world.env.AMCTL_PROFILE || DEFAULT_PROFILE)
  return parsed.values.org ?? (world.env.AMCTL_ORG || world.profiles[profile]?.org)
}

/** Runs or eval sets seen lately, of the organization in effect when there is one; newest first. */
function seen(world: CompletionWorld, entries: readonly RecentEntry[], org: string | undefined): Candidate[] {
  const ids = new Set<string>()
  const out: Candidate[] = []
  for (const entry of entries) {
    if ((org !== undefined && entry.org !== org) || ids.has(entry.id)) continue
    ids.add(entry.id)
    const where = org === undefined && entry.org !== undefined ? `${entry.org}, ` : ''
    out.push({value: entry.id, description: `${entry.note ? `${entry.note}, ` : ''}${where}seen ${ago(entry, world.now)}`})
  }
  return out
}

function orgs(world: CompletionWorld): Candidate[] {
  const out = new Map<string, Candidate>()
  for (const [name, values] of Object.entries(world.profiles)) {
    if (values.org && !out.has(values.org)) out.set(values.org, {value: values.org, description: `org of profile "${name}"`})
  }
  for (const entry of world.recent.orgs) {
    if (!out.has(entry.id)) out.set(entry.id, {value: entry.id, description: `used ${ago(entry, world.now)}`})
  }
  return [...out.values()]
}

function profiles(world: CompletionWorld): Candidate[] {
  const names = new Set([DEFAULT_PROFILE, ...Object.keys(world.profiles)])
  return [...names].map((name) => {
    const values = world.profiles[name] ?? {}
    const said = [values['base-url'], values.org && `org ${values.org}`].filter(Boolean).join(', ')
    return {value: name, description: said || undefined}
  })
}

function baseUrls(world: CompletionWorld): Candidate[] {
  const out = new Map<string, Candidate>()
  for (const [name, values] of Object.entries(world.profiles)) {
    const url = values['base-url']
    if (url && !out.has(url)) out.set(url, {value: url, description: `base URL of profile "${name}"`})
  }
  if (!out.has(DEFAULT_BASE_URL)) out.set(DEFAULT_BASE_URL, {value: DEFAULT_BASE_URL, description: 'the default: amctl dev server'})
  return [...out.values()]
}

/** A comma-separated list (--status failed,cancelled): the values not listed yet, after what was typed. */
function commaList(values: readonly string[], word: string): Candidate[] {
  const cut = word.lastIndexOf(',')
  const head = word.slice(0, cut + 1)
  const listed = new Set(head.split(',').filter(Boolean))
  return values.filter((value) => !listed.has(value)).map((value) => ({value: `${head}${value}`}))
}

function valuesOf(world: CompletionWorld, source: Source, word: string, parsed: Parsed): Completion {
  const org = () => orgInEffect(world, parsed)
  const list = (candidates: Candidate[]): Completion => ({candidates, files: false})
  if (typeof source === 'object') return list(source.options.map((value) => ({value})))
  switch (source) {
    case 'orgs':
      return list(orgs(world))
    case 'profiles':
      return list(profiles(world))
    case 'base-urls':
      return list(baseUrls(world))
    case 'runs':
      return list(seen(world, world.recent.runs, org()))
    case 'eval-sets':
      return list(seen(world, world.recent.evalSets, org()))
    case 'statuses':
      return list(commaList(STATUS_FILTERS, word))
    case 'baseline':
      return list([...BASELINE_WORDS, ...seen(world, world.recent.runs, org())])
    case 'config-keys':
      return list(CONFIG_KEYS.map((value) => ({value})))
    case 'config-value': {
      const key = parsed.positionals[0]
      if (key === 'org') return list(orgs(world))
      if (key === 'base-url') return list(baseUrls(world))
      return list([])
    }
    case 'files':
      return {candidates: [], files: true}
  }
}

function flagSource(flag: ManifestFlag): Source | undefined {
  if (FLAG_SOURCES[flag.name]) return FLAG_SOURCES[flag.name]
  if (flag.options) return {options: flag.options}
  if (flag.helpValue && /FILE|PATH/.test(flag.helpValue)) return 'files'
  return undefined
}

function argSource(arg: ManifestArg): Source | undefined {
  return arg.options ? {options: arg.options} : ARG_SOURCES[arg.name]
}

function flagNames(command: ManifestCommand, parsed: Parsed): Candidate[] {
  const names = Object.values(command.flags)
    .filter((flag) => !flag.hidden && (flag.multiple || !parsed.given.has(flag.name)))
    .map((flag) => ({value: `--${flag.name}`, description: summaryOf(flag)}))
    .sort((a, b) => (a.value < b.value ? -1 : 1))
  return [...names, {value: '--help', description: 'show help for this command'}]
}

const NOTHING: Completion = {candidates: [], files: false}

/** What the word being completed (the last of `words`, the words after `amctl`) may be. */
export function complete(words: readonly string[], world: CompletionWorld): Completion {
  const word = words.at(-1) ?? ''
  const completion = completeWord(words.slice(0, -1), word, world)
  const typed = completion.typed ?? word
  const candidates: Candidate[] = []
  for (const candidate of completion.candidates) {
    if (candidate.value.startsWith(typed)) candidates.push(candidate)
    if (candidates.length === MAX_CANDIDATES) break
  }
  return {candidates, files: completion.files}
}

/** A completion, and what the candidates must start with when that is not the word itself. */
type WordCompletion = Completion & {typed?: string}

function completeWord(before: readonly string[], word: string, world: CompletionWorld): WordCompletion {
  const {path, command, rest} = commandOf(world, before)
  if (command?.id === 'help') {
    // `amctl help runs list`: the words after help name a command, as at the start, or a help topic
    if (rest.some((w) => w.startsWith('-')) || word.startsWith('-')) return NOTHING
    const named = completeWord(rest, word, {...world, commands: withoutHelp(world)})
    if (rest.length > 0) return named
    const topics = HELP_TOPICS.map((topic) => ({value: topic.name, description: topic.summary}))
    return {candidates: [...named.candidates, ...topics], files: false}
  }
  if (command === undefined) {
    // words that name no command: nothing to offer after them
    if (rest.length > 0) return NOTHING
    if (word.startsWith('-')) return {candidates: path.length === 0 ? ROOT_FLAGS : [], files: false}
    return {candidates: subcommands(world, path), files: false}
  }
  const parsed = parseWords(command, rest)
  if (parsed.expecting) {
    const source = flagSource(parsed.expecting)
    // (bash: the cursor right after `--org=` completes the word `=`, which stands for nothing typed)
    const typed = word === '=' ? '' : word
    return source === undefined ? NOTHING : {...valuesOf(world, source, typed, parsed), typed}
  }
  if (!parsed.ended && word.startsWith('--') && word.includes('=')) {
    const name = word.slice(2, word.indexOf('='))
    const flag = command.flags[name]
    const source = flag?.type === 'option' ? flagSource(flag) : undefined
    if (source === undefined) return NOTHING
    const head = `--${name}=`
    const values = valuesOf(world, source, word.slice(head.length), parsed)
    return {candidates: values.candidates.map((c) => ({...c, value: `${head}${c.value}`})), files: values.files}
  }
  if (!parsed.ended && word.startsWith('-') && word !== '-') return {candidates: flagNames(command, parsed), files: false}
  const args = Object.values(command.args)
  const index = parsed.positionals.length
  const arg = args[index] ?? (command.strict === false ? args.at(-1) : undefined)
  const deeper = index === 0 ? subcommands(world, path) : []
  const source = arg && !arg.hidden ? argSource(arg) : undefined
  const values = source === undefined ? NOTHING : valuesOf(world, source, word, parsed)
  return {candidates: [...deeper, ...values.candidates], files: values.files}
}

const ROOT_FLAGS: Candidate[] = [
  {value: '--help', description: 'show help'},
  {value: '--version', description: 'show the version'},
]

function withoutHelp(world: CompletionWorld): Record<string, ManifestCommand> {
  const {help: _, ...rest} = world.commands
  return rest
}
