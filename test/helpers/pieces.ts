import {readdirSync, readFileSync, statSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'

/**
 * What every command needs besides its own file, checked over a tree (test/pieces.test.ts on this
 * one; the CONTRIBUTING walk-through on a copy with a piece left out): a unit test (a file under
 * test/commands/ that imports it), an end-to-end test (a `describe('amctl <topic> <verb>…')` under
 * test/e2e/), and `static operations` saying what it sends (help's REQUEST section; the unit
 * tests fail a command that sends anything else). Each piece missing is one line naming the
 * command and what to add.
 */

/** A command as the check sees it: its id, its file, its class's declaration of what it sends. */
export interface CommandPieces {
  /** oclif's id: `runs:logs` */
  id: string
  /** absolute path of its source */
  file: string
  Cmd: {operations?: readonly string[]; anyRequest?: boolean}
}

/** Every file under `dir` (absolute paths), none when it does not exist. */
function filesUnder(dir: string): string[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names.flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** The modules a file imports (static and dynamic), resolved against it, `.js` read as the `.ts` it is compiled from. */
function importsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g)].map((m) => m[2])
  return new Set(specifiers.map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts')))
}

/**
 * The commands the end-to-end suite's `describe` titles name: `amctl runs list`, `amctl runs list
 * --all: …` (words past the command are free), and several verbs of one topic as `amctl auth login
 * / status / token / logout`.
 */
export function describedCommands(titles: readonly string[], ids: readonly string[]): Set<string> {
  const byWords = new Map(ids.map((id) => [id.split(':').join(' '), id]))
  const named = new Set<string>()
  // the longest command whose words begin `words`
  const command = (words: string[]): string | undefined => {
    for (let n = words.length; n > 0; n--) {
      const id = byWords.get(words.slice(0, n).join(' '))
      if (id !== undefined) return id
    }
    return undefined
  }
  for (const title of titles) {
    if (!title.startsWith('amctl ')) continue
    const [first, ...more] = title.slice('amctl '.length).split(' / ')
    const leading = (part: string): string[] => (/^[a-z][\w-]*(?: [a-z][\w-]*)*/.exec(part)?.[0] ?? '').split(' ')
    const id = command(leading(first))
    if (id === undefined) continue
    named.add(id)
    const topic = id.split(':').slice(0, -1)
    for (const part of more) {
      const other = command([...topic, ...leading(part)])
      if (other !== undefined) named.add(other)
    }
  }
  return named
}

/** The `describe(…)` titles of the files under test/e2e/. */
function e2eTitles(root: string): string[] {
  return filesUnder(join(root, 'test', 'e2e'))
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bdescribe(?:\.\w+)*\(\s*(['"`])(.*?)\1/g)].map((m) => m[2]))
}

/** One line per piece a command lacks (none: every command has all of them). */
export function missingPieces(root: string, commands: readonly CommandPieces[]): string[] {
  const unitTests = filesUnder(join(root, 'test', 'commands')).filter((file) => file.endsWith('.test.ts'))
  const imported = new Set(unitTests.flatMap((file) => [...importsOf(file)]))
  const described = describedCommands(
    e2eTitles(root),
    commands.map(({id}) => id),
  )
  const problems: string[] = []
  for (const {id, file, Cmd} of commands) {
    const words = id.split(':').join(' ')
    const source = relative(root, file)
    const mirror = source.replace(/^src\//, 'test/').replace(/\.ts$/, '.test.ts')
    if (!imported.has(file)) {
      problems.push(`amctl ${words}: no unit test. Add ${mirror}, which runs ${source} in-process (runCommand, test/helpers/cli.ts)`)
    }
    if (!described.has(id)) {
      problems.push(
        `amctl ${words}: no end-to-end test. Add describe('amctl ${words}', …) to a file of test/e2e/commands/ (the built CLI against the dev server: useE2E, test/e2e/helpers.ts)`,
      )
    }
    if (Cmd.operations === undefined && Cmd.anyRequest !== true) {
      problems.push(
        `amctl ${words}: no static operations. Declare what it sends in ${source}: static operations: OperationId[] = ['<operationId>', …] ([] when it sends nothing)`,
      )
    }
  }
  return problems
}
