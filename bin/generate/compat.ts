import type {SnapshotCommand, SnapshotFlag} from './commands.js'

/**
 * What a change of a generated contract file means for scripts: each difference between the
 * checked-in `--json` schema or command snapshot and the regenerated one, and whether it breaks
 * a script that relies on the old (a removed or retyped member, a member that may now be absent,
 * a removed command, flag or argument, a new required one) or not (an added member, command, flag
 * or optional argument). The unit suite fails on any difference; this says which kind it is.
 */

export interface Change {
  /** where: `runs list: items[].score`, `runs list --limit` */
  at: string
  what: string
  breaking: boolean
}

type Schema = {[key: string]: unknown}

const TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] as const

/** The JSON types a schema allows (after its `$ref`), `enum`/`const` aside. */
function typesOf(schema: Schema): Set<string> {
  if (schema.const !== undefined) return new Set([jsonType(schema.const)])
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(jsonType))
  if (schema.type === undefined) {
    if (schema.properties !== undefined) return new Set(['object'])
    if (schema.items !== undefined) return new Set(['array'])
    return new Set(TYPES)
  }
  const types = new Set(Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string])
  if (types.has('number')) types.add('integer')
  return types
}

/** `number or null`: the types for people (integer goes without saying beside number) */
function shown(types: Iterable<string>): string {
  const list = [...types]
  return list
    .filter((t) => !(t === 'integer' && list.includes('number')))
    .sort()
    .join(' or ')
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return Number.isInteger(value) ? 'integer' : typeof value
}

/** The values a schema allows, when it lists them (`enum`, `const`). */
function valuesOf(schema: Schema): unknown[] | undefined {
  if (schema.const !== undefined) return [schema.const]
  return Array.isArray(schema.enum) ? schema.enum : undefined
}

function resolver(root: Schema): (schema: Schema) => Schema {
  const definitions = (root.definitions ?? {}) as Record<string, Schema>
  return function resolve(schema: Schema): Schema {
    const ref = schema.$ref
    if (typeof ref !== 'string') return schema
    if (ref === '#') return resolve({...root, $ref: undefined})
    const name = decodeURIComponent(ref.replace('#/definitions/', ''))
    const found = definitions[name]
    if (found === undefined) throw new Error(`unresolved ${ref}`)
    return resolve(found)
  }
}

/** The variants of a union (`anyOf`/`oneOf`), or the schema itself. */
function variants(schema: Schema): Schema[] {
  const list = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  return list ?? [schema]
}

/** The differences between two versions of one `--json` schema, at `where` (the command). */
export function schemaChanges(where: string, before: Schema, after: Schema): Change[] {
  const changes: Change[] = []
  const resolveBefore = resolver(before)
  const resolveAfter = resolver(after)
  const seen = new Set<string>()

  const compare = (path: string, oldNode: Schema, newNode: Schema): void => {
    const key = `${path}|${JSON.stringify(oldNode)}|${JSON.stringify(newNode)}`
    if (seen.has(key) || path.split('.').length > 12) return
    seen.add(key)
    const a = resolveBefore(oldNode)
    const b = resolveAfter(newNode)
    const at = `${where}: ${path === '' ? 'the document' : path}`
    const oldVariants = variants(a)
    const newVariants = variants(b)
    if (oldVariants.length > 1 || newVariants.length > 1) {
      // a union: each old variant is compared with the new one at its place (a new one is an addition)
      if (newVariants.length < oldVariants.length) changes.push({at, what: 'one of its forms was removed', breaking: true})
      if (newVariants.length > oldVariants.length) changes.push({at, what: 'it has a new form a script may not expect', breaking: true})
      for (let i = 0; i < Math.min(oldVariants.length, newVariants.length); i++) compare(path, oldVariants[i], newVariants[i])
      return
    }
    const oldTypes = typesOf(a)
    const newTypes = typesOf(b)
    const added = [...newTypes].filter((t) => !oldTypes.has(t) && !(t === 'integer' && oldTypes.has('number')))
    const removed = [...oldTypes].filter((t) => !newTypes.has(t) && !(t === 'integer' && newTypes.has('number')))
    if (added.length > 0) changes.push({at, what: `may now be ${shown(added)} (was ${shown(oldTypes)})`, breaking: true})
    if (removed.length > 0 && added.length === 0) changes.push({at, what: `is no longer ${shown(removed)}`, breaking: false})
    const oldValues = valuesOf(a)
    const newValues = valuesOf(b)
    if (newValues !== undefined || oldValues !== undefined) {
      const widened = newValues === undefined ? ['any value'] : newValues.filter((v) => oldValues !== undefined && !oldValues.includes(v))
      if (oldValues !== undefined && widened.length > 0)
        changes.push({at, what: `may now be ${widened.map((v) => JSON.stringify(v)).join(', ')}`, breaking: true})
      const narrowed = oldValues === undefined ? [] : oldValues.filter((v) => newValues !== undefined && !newValues.includes(v))
      if (narrowed.length > 0)
        changes.push({at, what: `is no longer ${narrowed.map((v) => JSON.stringify(v)).join(', ')}`, breaking: false})
    }
    if (oldTypes.has('object') && newTypes.has('object')) {
      const oldProps = (a.properties ?? {}) as Record<string, Schema>
      const newProps = (b.properties ?? {}) as Record<string, Schema>
      const oldRequired = new Set((a.required ?? []) as string[])
      const newRequired = new Set((b.required ?? []) as string[])
      for (const name of Object.keys(oldProps)) {
        const member = path === '' ? name : `${path}.${name}`
        if (newProps[name] === undefined) {
          changes.push({at: `${where}: ${member}`, what: 'was removed', breaking: true})
          continue
        }
        if (oldRequired.has(name) && !newRequired.has(name))
          changes.push({at: `${where}: ${member}`, what: 'may now be absent', breaking: true})
        compare(member, oldProps[name], newProps[name])
      }
      for (const name of Object.keys(newProps)) {
        if (oldProps[name] === undefined)
          changes.push({at: `${where}: ${path === '' ? name : `${path}.${name}`}`, what: 'was added', breaking: false})
      }
    }
    if (oldTypes.has('array') && newTypes.has('array') && a.items !== undefined && b.items !== undefined) {
      compare(`${path}[]`, a.items as Schema, b.items as Schema)
    }
  }

  compare('', before, after)
  return changes
}

/** The differences between two command snapshots (command-snapshot.json's `commands`). */
export function snapshotChanges(before: readonly SnapshotCommand[], after: readonly SnapshotCommand[]): Change[] {
  const changes: Change[] = []
  const byId = (list: readonly SnapshotCommand[]) => new Map(list.map((c) => [c.command, c]))
  const oldCommands = byId(before)
  const newCommands = byId(after)
  const words = (id: string): string => id.replaceAll(':', ' ')
  for (const [id, old] of oldCommands) {
    const now = newCommands.get(id)
    if (now === undefined) {
      changes.push({at: words(id), what: 'the command was removed', breaking: true})
      continue
    }
    for (const alias of old.aliases)
      if (!now.aliases.includes(alias)) changes.push({at: words(id), what: `its alias ${alias} was removed`, breaking: true})
    for (const alias of now.aliases)
      if (!old.aliases.includes(alias)) changes.push({at: words(id), what: `it has a new alias ${alias}`, breaking: false})
    argChanges(words(id), old, now, changes)
    for (const [name, flag] of Object.entries(old.flags)) {
      const at = `${words(id)} --${name}`
      const next = now.flags[name]
      if (next === undefined) changes.push({at, what: 'the flag was removed', breaking: true})
      else flagChanges(at, flag, next, changes)
    }
    for (const [name, flag] of Object.entries(now.flags)) {
      if (old.flags[name] !== undefined) continue
      changes.push({
        at: `${words(id)} --${name}`,
        what: flag.required ? 'a new required flag' : 'a new flag',
        breaking: flag.required === true,
      })
    }
    if (JSON.stringify(old.operations) !== JSON.stringify(now.operations)) {
      changes.push({
        at: words(id),
        what: `it now sends ${now.operations.join(', ') || 'no operation'} (was ${old.operations.join(', ') || 'none'})`,
        breaking: false,
      })
    }
  }
  for (const id of newCommands.keys()) if (!oldCommands.has(id)) changes.push({at: words(id), what: 'a new command', breaking: false})
  return changes
}

function argChanges(at: string, old: SnapshotCommand, now: SnapshotCommand, changes: Change[]): void {
  for (const [i, arg] of old.args.entries()) {
    const next = now.args[i]
    if (next === undefined) changes.push({at: `${at} ${arg.name.toUpperCase()}`, what: 'the argument was removed', breaking: true})
    else if (next.name !== arg.name)
      changes.push({at: `${at} ${arg.name.toUpperCase()}`, what: `the argument is now ${next.name.toUpperCase()}`, breaking: false})
    if (next?.required && !arg.required)
      changes.push({at: `${at} ${next.name.toUpperCase()}`, what: 'the argument is now required', breaking: true})
  }
  for (const arg of now.args.slice(old.args.length)) {
    changes.push({
      at: `${at} ${arg.name.toUpperCase()}`,
      what: arg.required ? 'a new required argument' : 'a new argument',
      breaking: arg.required,
    })
  }
  if (old.variadic && !now.variadic) changes.push({at, what: 'it no longer takes any number of its last argument', breaking: true})
}

function flagChanges(at: string, old: SnapshotFlag, now: SnapshotFlag, changes: Change[]): void {
  if (old.type !== now.type)
    changes.push({at, what: `the flag is now ${now.type === 'boolean' ? 'a switch' : 'one that takes a value'}`, breaking: true})
  if (old.char !== undefined && old.char !== now.char) changes.push({at, what: `-${old.char} was removed`, breaking: true})
  if (now.char !== undefined && old.char === undefined) changes.push({at, what: `it has a new short form -${now.char}`, breaking: false})
  for (const alias of old.aliases ?? [])
    if (!(now.aliases ?? []).includes(alias)) changes.push({at, what: `its alias ${alias} was removed`, breaking: true})
  if (now.required && !old.required) changes.push({at, what: 'the flag is now required', breaking: true})
  if (old.multiple && !now.multiple) changes.push({at, what: 'the flag is no longer repeatable', breaking: true})
  if (old.allowNo && !now.allowNo) changes.push({at, what: `--no-${at.split('--').pop()} was removed`, breaking: true})
  const dropped = (old.options ?? []).filter((o) => now.options !== undefined && !now.options.includes(o))
  if (dropped.length > 0) changes.push({at, what: `no longer accepts ${dropped.join(', ')}`, breaking: true})
  if (old.options !== undefined && now.options !== undefined) {
    const more = now.options.filter((o) => !old.options?.includes(o))
    if (more.length > 0) changes.push({at, what: `also accepts ${more.join(', ')}`, breaking: false})
  }
}

/** The report of a stale contract file: its changes, breaking ones first, and how to approve them. */
export function changeReport(path: string, changes: readonly Change[]): string {
  const sorted = [...changes].sort((x, y) => Number(y.breaking) - Number(x.breaking))
  const lines = sorted.map((c) => `  ${c.breaking ? 'BREAKS SCRIPTS' : 'compatible'}: ${c.at} ${c.what}`)
  const breaking = changes.some((c) => c.breaking)
  return [
    `${path} is not what \`npm run generate\` writes from the code now:`,
    ...(lines.length > 0 ? lines : ['  (a change that neither adds nor removes anything a script can see: descriptions, order)']),
    breaking
      ? 'This breaks scripts that rely on the old form (docs/scripting.md). If it is meant: run `npm run generate`, commit the files, and say so in the release notes.'
      : 'Nothing a script relies on breaks. If it is meant: run `npm run generate` and commit the files.',
  ].join('\n')
}

/** The changes from one version of a contract file (`command-snapshot.json`, `schemas/*.json`) to another. */
function fileChanges(path: string, before: string, after: string): Change[] {
  const old = JSON.parse(before)
  const now = JSON.parse(after)
  return path === 'command-snapshot.json'
    ? snapshotChanges(old.commands, now.commands)
    : schemaChanges(`amctl ${now.title?.replace(/^amctl | --json$/g, '') ?? path}`, old, now)
}

/**
 * Undefined when a contract file (`command-snapshot.json`, `schemas/*.json`) is as generated;
 * otherwise the report of what changed (`changeReport`).
 */
export function staleReport(path: string, checkedIn: string | undefined, generated: string): string | undefined {
  if (checkedIn === generated) return undefined
  if (checkedIn === undefined) return changeReport(path, [{at: path, what: 'is new', breaking: false}])
  return changeReport(path, fileChanges(path, checkedIn, generated))
}

/**
 * Whether `version` says it may break what `released` promised: a new major version, or while
 * amctl is 0.x a new minor one (as npm reads `^0.1.0`: 0.1.x only). Plain `MAJOR.MINOR.PATCH`
 * numbers, compared by hand: two integers of each, where a semver library would be a dependency
 * for one comparison.
 */
export function allowsBreaking(released: string, version: string): boolean {
  const parse = (text: string): [number, number] => {
    const match = /^(\d+)\.(\d+)\.\d+/.exec(text)
    if (match === null) throw new Error(`"${text}" is not a version of the form MAJOR.MINOR.PATCH`)
    return [Number(match[1]), Number(match[2])]
  }
  const [oldMajor, oldMinor] = parse(released)
  const [major, minor] = parse(version)
  return major > oldMajor || (oldMajor === 0 && major === 0 && minor > oldMinor)
}

/** The next version that may break scripts, after `released`: 0.1.4 → 0.2.0, 1.3.0 → 2.0.0. */
export function nextBreakingVersion(released: string): string {
  const [major, minor] = released.split('.').map(Number)
  return major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`
}

/**
 * The contract files as released and as now, by path (`command-snapshot.json`,
 * `schemas/<name>.json`), and their versions; `from` says where the released ones are kept
 * (bin/release.js RELEASE_SNAPSHOT).
 */
export interface ContractVersions {
  released: {version: string; files: ReadonlyMap<string, string>; from: string}
  current: {version: string; files: ReadonlyMap<string, string>}
}

/** Every change from the released contract files to the current ones (a schema only one side has included). */
export function releaseChanges({released, current}: ContractVersions): Change[] {
  const changes: Change[] = []
  for (const [path, before] of released.files) {
    const after = current.files.get(path)
    if (after === undefined) {
      const title = (JSON.parse(before).title as string | undefined)?.replace(/ --json$/, '') ?? path
      changes.push({at: title, what: 'prints no --json document any more', breaking: true})
    } else if (after !== before) changes.push(...fileChanges(path, before, after))
  }
  for (const path of current.files.keys()) {
    if (!released.files.has(path)) changes.push({at: path, what: 'is new', breaking: false})
  }
  return changes
}

/**
 * Undefined when the current contract keeps every promise of the last release, or breaks some
 * with a version that says so (`allowsBreaking`); otherwise the report of each broken promise
 * and what to do.
 */
export function releaseReport(versions: ContractVersions): string | undefined {
  const breaking = releaseChanges(versions).filter((change) => change.breaking)
  const {released, current} = versions
  if (breaking.length === 0 || allowsBreaking(released.version, current.version)) return undefined
  return [
    `These changes break scripts written for amctl ${released.version}, the last release (${released.from}):`,
    ...breaking.map((c) => `  BREAKS SCRIPTS: ${c.at} ${c.what}`),
    `package.json's version ${current.version} does not say so. Keep the old form, or set the version to ${nextBreakingVersion(released.version)} ` +
      '(a new major version; while amctl is 0.x, a new minor one) and name each change in the release notes (docs/scripting.md).',
  ].join('\n')
}
