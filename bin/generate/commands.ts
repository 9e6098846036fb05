import {readdirSync, statSync} from 'node:fs'
import {join, relative, sep} from 'node:path'

/**
 * The commands as `npm run generate` sees them: their files (src/commands/<topic>/<verb>.ts, as
 * bin/build.js finds them) and the snapshot of what scripts call them with: every command's
 * flags, arguments and aliases, and the operations it declares (command-snapshot.json).
 */

export interface CommandFile {
  /** oclif's id: `runs:fork` */
  id: string
  /** absolute path of its source */
  file: string
}

/** src/commands/<topic>/<verb>.ts; a topic's `shared/` holds helpers; a topic's index.ts is the topic's own command. */
export function commandFiles(root: string): CommandFile[] {
  const base = join(root, 'src', 'commands')
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) return name === 'shared' ? [] : walk(path)
        return path.endsWith('.ts') ? [path] : []
      })
  return walk(base).map((file) => ({
    id: relative(base, file)
      .replace(/\.ts$/, '')
      .split(sep)
      .filter((part, i, parts) => !(part === 'index' && i === parts.length - 1 && i > 0))
      .join(':'),
    file,
  }))
}

/** What a snapshot needs of a command class (oclif's statics). */
export interface CommandClass {
  aliases?: string[]
  args?: Record<string, {required?: boolean; multiple?: boolean}>
  flags?: Record<string, FlagDefinition>
  baseFlags?: Record<string, FlagDefinition>
  enableJsonFlag?: boolean
  strict?: boolean
  operations?: readonly string[]
}

interface FlagDefinition {
  type: 'boolean' | 'option'
  char?: string
  aliases?: string[]
  charAliases?: string[]
  required?: boolean
  multiple?: boolean
  options?: readonly string[]
  allowNo?: boolean
  hidden?: boolean
}

export interface SnapshotFlag {
  type: 'boolean' | 'option'
  char?: string
  aliases?: string[]
  required?: true
  multiple?: true
  options?: string[]
  /** `--no-<name>` is accepted */
  allowNo?: true
}

export interface SnapshotCommand {
  command: string
  aliases: string[]
  args: {name: string; required: boolean}[]
  /** any number of the last argument */
  variadic?: true
  flags: Record<string, SnapshotFlag>
  /** the API operations it sends (help's REQUEST section) */
  operations: string[]
}

/** One command's entry: what a script may rely on when it calls it. */
export function snapshotOf(id: string, Cmd: CommandClass): SnapshotCommand {
  const definitions: Record<string, FlagDefinition> = {...Cmd.baseFlags, ...Cmd.flags}
  // oclif's own --json, when the command enables it (its help lists it as a global flag)
  if (Cmd.enableJsonFlag) definitions.json = {type: 'boolean'}
  const flags: Record<string, SnapshotFlag> = {}
  for (const name of Object.keys(definitions).sort()) {
    const f = definitions[name]
    if (f.hidden) continue
    const flag: SnapshotFlag = {type: f.type}
    if (f.char) flag.char = f.char
    const aliases = [...(f.aliases ?? []), ...(f.charAliases ?? [])]
    if (aliases.length > 0) flag.aliases = aliases.sort()
    if (f.required) flag.required = true
    if (f.multiple) flag.multiple = true
    if (f.options) flag.options = [...f.options]
    if (f.allowNo) flag.allowNo = true
    flags[name] = flag
  }
  const snapshot: SnapshotCommand = {
    command: id,
    aliases: [...(Cmd.aliases ?? [])].sort(),
    args: Object.entries(Cmd.args ?? {}).map(([name, arg]) => ({name, required: arg.required === true})),
    flags,
    operations: [...(Cmd.operations ?? [])],
  }
  if (Cmd.strict === false && snapshot.args.length > 0) snapshot.variadic = true
  return snapshot
}

/** command-snapshot.json: every command, by id. */
export function snapshotFile(commands: readonly {id: string; Cmd: CommandClass}[], firstLine: string): string {
  const entries = [...commands].sort((a, b) => a.id.localeCompare(b.id)).map(({id, Cmd}) => snapshotOf(id, Cmd))
  return generatedJson(firstLine, {commands: entries})
}

/** Pretty JSON whose first line is `{"$comment": "<firstLine>",` (a JSON file says it is generated there). */
export function generatedJson(firstLine: string, value: Record<string, unknown>): string {
  const body = JSON.stringify(value, null, 2)
  return `{"$comment": ${JSON.stringify(firstLine)}${body === '{}' ? '}' : `,${body.slice(1)}`}\n`
}
