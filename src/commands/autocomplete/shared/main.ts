import {readFileSync, writeSync} from 'node:fs'
import {join} from 'node:path'
import {ConfigStore} from '../../../core/config.js'
import type {ProfileValues} from '../../../core/config.js'
import {readRecent} from '../../../core/recent.js'
import {type Completion, type CompletionWorld, complete, type ManifestCommand} from './engine.js'

/**
 * `amctl __complete-v2 WORD…` and `amctl __complete-v2-stdin` (the words one per line), as the
 * completion scripts call them (./scripts.ts), and `__complete`, `__complete-stdin` as scripts of
 * earlier versions, which insert candidates unquoted, do (they get the plain candidates only): bin/run.cjs hands them here without loading the
 * CLI (dist/complete.cjs), so a Tab costs a Node start and a few file reads. The commands come
 * from oclif.manifest.json, the topics from package.json, the values from the config and the
 * completion cache. Whatever goes wrong, the shell gets an empty answer, never an error on its
 * line (AMCTL_DEBUG=1 shows it on stderr).
 */

/**
 * A candidate the scripts of earlier versions can take: they insert it as it is (bash's did, and
 * PowerShell's), so a character a shell acts on (`run_$(id)`, a server's choice of ID) would run
 * with the line. Today's scripts quote every candidate and ask with `-v2` (./scripts.ts).
 */
const PLAIN = /^[A-Za-z0-9_./:=@%+,-]*$/

/**
 * The answer as the scripts read it: `value<TAB>description` lines, then `:files` or `:`. `quoted`:
 * the script quotes each candidate (`__complete-v2`); else only plain candidates are answered.
 */
export function completionText(completion: Completion, quoted = true): string {
  // one line per candidate: a description loses what would break the line or move the cursor
  // (a value has neither: see src/core/recent.ts)
  const clean = (text: string) => text.replace(/[\p{Cc}]+/gu, ' ').trim()
  const candidates = quoted ? completion.candidates : completion.candidates.filter(({value}) => PLAIN.test(value))
  const lines = candidates.map(({value, description}) => (description ? `${value}\t${clean(description)}` : value))
  lines.push(completion.files ? ':files' : ':')
  return `${lines.join('\n')}\n`
}

async function profilesOf(env: NodeJS.ProcessEnv): Promise<Record<string, ProfileValues>> {
  try {
    const store = await ConfigStore.open(env)
    return Object.fromEntries(store.profileNames().map((name) => [name, store.profile(name)]))
  } catch {
    return {}
  }
}

/** The members of package.json completion reads: the topics' descriptions. */
export interface PackageJson {
  oclif?: {topics?: Record<string, {description?: string}>}
}

/** What the completion of `words` needs, read from the package at `root` (its package.json given) and local state. */
export async function worldOf(root: string, pjson: PackageJson, env: NodeJS.ProcessEnv, now: number): Promise<CompletionWorld> {
  const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')) as {commands: Record<string, ManifestCommand>}
  return {
    commands: manifest.commands,
    topics: pjson.oclif?.topics ?? {},
    profiles: await profilesOf(env),
    recent: readRecent(env, now),
    env,
    now,
  }
}

/** The words of `__complete-stdin`: one per line (CRLF too), each line ended by a newline. */
export function wordsFromLines(text: string): string[] {
  const lines = text.split(/\r?\n/)
  if (lines.at(-1) === '') lines.pop()
  return lines
}

/**
 * The launcher's entry: `argv` is what follows `__complete`, or undefined to read the words from
 * stdin; `root` the package's directory and `pjson` its package.json (the launcher read it);
 * `quoted`: asked as `__complete-v2`, by a script that quotes what it inserts.
 */
export async function main(argv: string[] | undefined, root: string, pjson: PackageJson, quoted = false): Promise<void> {
  // an entry point, as bin/run.cjs is: it reads the process's environment here, once, and hands it down
  const env = process.env
  let text = ':\n'
  try {
    const words = argv ?? wordsFromLines(readFileSync(0, 'utf8'))
    text = completionText(complete(words, await worldOf(root, pjson, env, Date.now())), quoted)
  } catch (error) {
    if (env.AMCTL_DEBUG === '1') process.stderr.write(`amctl __complete: ${(error as Error).stack ?? error}\n`)
  }
  writeSync(1, text)
}
