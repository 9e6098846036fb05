import {existsSync} from 'node:fs'
import {dirname, join} from 'node:path'
import type {Run} from '../contract/types.js'
import {cacheDir} from './cache.js'
import {isJsonObject, updateJsonFile} from './fs-atomic.js'
import {privateDirs, readPrivateFile} from './own-file.js'

/**
 * The IDs amctl has seen lately, for shell completion (`amctl autocomplete`): organizations,
 * runs and eval sets, each with the organization it belongs to, when it was last seen and a
 * short note (a run's status and eval set). `runs list`, `runs watch` and `evals run` add what
 * they saw; any command that used an organization adds it. The completion script reads this
 * file and never asks the server.
 *
 * `recent.json` in the cache directory: bounded in age (RECENT_MAX_AGE_MS) and size
 * (RECENT_LIMITS, newest first), written atomically under a lock, and only when an ID is new or
 * was last seen more than an hour ago, so a command that sees the same IDs again does not write
 * at all (a write costs a lock and two fsyncs, a few milliseconds). A cache never fails a command: a file that cannot be read is taken as empty, one
 * that cannot be written is left as it is.
 */

export type RecentKind = 'orgs' | 'runs' | 'evalSets'
export const RECENT_KINDS: readonly RecentKind[] = ['orgs', 'runs', 'evalSets']

/** Something a command saw: an organization (no `org`), or a run or eval set of `org`. */
export interface Sighting {
  kind: RecentKind
  id: string
  org?: string
  note?: string
}

export interface RecentEntry {
  id: string
  org?: string
  note?: string
  /** when it was last seen, in ms since the epoch */
  at: number
}

export type Recent = Record<RecentKind, RecentEntry[]>

const DAY_MS = 24 * 3600 * 1000
/** An entry not seen for this long is gone. */
export const RECENT_MAX_AGE_MS = 30 * DAY_MS
/** At most this many entries of each kind, the most recently seen. */
export const RECENT_LIMITS: Readonly<Record<RecentKind, number>> = {orgs: 50, runs: 200, evalSets: 100}
/** An entry seen again is written again only when its last sighting is older than this. */
const REFRESH_MS = 3600 * 1000
const VERSION = 1

// an ID goes into a shell's completion list, one line each: no control character (a newline or a
// tab would break the line, others a terminal acts on), no format character (bidi controls that
// reorder the command line as shown) and no line or paragraph separator. Anything else, spaces,
// quotes, `$(…)` included, is data: each shell's script inserts it as one quoted word (scripts.ts).
const ID = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]{1,200}$/u
const NOTE = /^[^\p{Cc}]{1,100}$/u

export function recentPath(env: NodeJS.ProcessEnv): string {
  return join(cacheDir(env), 'recent.json')
}

function empty(): Recent {
  return {orgs: [], runs: [], evalSets: []}
}

/** The entries of a parsed file that are well formed and not older than the age limit, newest first. */
function entriesOf(content: unknown, now: number): Recent {
  const recent = empty()
  if (!isJsonObject(content) || content.version !== VERSION) return recent
  for (const kind of RECENT_KINDS) {
    const list = content[kind]
    if (!Array.isArray(list)) continue
    for (const item of list) {
      if (!isJsonObject(item)) continue
      const {id, org, note, at} = item
      if (typeof id !== 'string' || !ID.test(id) || typeof at !== 'number' || !(now - at <= RECENT_MAX_AGE_MS)) continue
      const entry: RecentEntry = {id, at}
      if (typeof org === 'string' && ID.test(org)) entry.org = org
      if (typeof note === 'string' && NOTE.test(note)) entry.note = note
      recent[kind].push(entry)
    }
    recent[kind].sort((a, b) => b.at - a.at)
    recent[kind].splice(RECENT_LIMITS[kind])
  }
  return recent
}

/**
 * The cache at `file`, read only when it and its directory are this user's alone (./own-file.ts,
 * as the code cache and a terminal's help are read): a file another user owns or can write, or
 * one reached through a link, is taken as empty (with `sudo -E`, a user's cache would otherwise
 * feed root's completion).
 */
function readFrom(file: string, now: number): Recent {
  try {
    const bytes = privateDirs([dirname(file)]) ? readPrivateFile(file) : undefined
    return bytes === undefined ? empty() : entriesOf(JSON.parse(bytes.toString('utf8')), now)
  } catch {
    return empty()
  }
}

/** What the cache holds now (empty when there is no file, or it cannot be read). Never throws. */
export function readRecent(env: NodeJS.ProcessEnv, now: number): Recent {
  return readFrom(recentPath(env), now)
}

const same = (a: RecentEntry, s: Sighting): boolean => a.id === s.id && a.org === s.org

/**
 * `recent` with `sightings` seen at `now` (in their order: the first of a list, the newest run,
 * comes first); `changed` says whether that is worth a write.
 */
export function mergeRecent(recent: Recent, sightings: readonly Sighting[], now: number): {next: Recent; changed: boolean} {
  const next: Recent = {orgs: [...recent.orgs], runs: [...recent.runs], evalSets: [...recent.evalSets]}
  let changed = false
  // from the last: a thing seen twice by one command is as it was seen last
  const done = new Set<string>()
  for (const sighting of [...sightings].reverse()) {
    if (!ID.test(sighting.id) || (sighting.org !== undefined && !ID.test(sighting.org))) continue
    const key = JSON.stringify([sighting.kind, sighting.org, sighting.id])
    if (done.has(key)) continue
    done.add(key)
    const list = next[sighting.kind]
    const at = list.findIndex((entry) => same(entry, sighting))
    const old = at < 0 ? undefined : list.splice(at, 1)[0]
    const note = sighting.note !== undefined && NOTE.test(sighting.note) ? sighting.note : old?.note
    // a new status alone is not worth a write (a script polling `runs list` would write at every
    // poll): it rides along with the next write
    if (old === undefined || now - old.at > REFRESH_MS) changed = true
    const entry: RecentEntry = {id: sighting.id, at: now}
    if (sighting.org !== undefined) entry.org = sighting.org
    if (note !== undefined) entry.note = note
    list.unshift(entry)
  }
  for (const kind of RECENT_KINDS) next[kind].splice(RECENT_LIMITS[kind])
  return {next, changed}
}

/**
 * Adds what a command saw to the cache, when that changes it (see above). Never throws: the
 * failure, if any, is returned for a --verbose line.
 */
export function rememberRecent(env: NodeJS.ProcessEnv, sightings: readonly Sighting[], now: number): Error | undefined {
  if (sightings.length === 0) return undefined
  const file = recentPath(env)
  try {
    if (!mergeRecent(readFrom(file, now), sightings, now).changed) return undefined
    // nothing written where it would not be read back (readFrom): a directory that is not this user's alone
    const dir = dirname(file)
    if (existsSync(dir) && !privateDirs([dir])) {
      return new Error(
        `the cache directory ${dir} is not this user's alone (another user owns it or can write it, or it is a link): recent IDs not kept`,
      )
    }
    // merged again under the lock: what another amctl wrote meanwhile is kept
    updateJsonFile<Recent & {version: number}>(
      file,
      (path) => ({version: VERSION, ...readFrom(path, now)}),
      (current) => ({version: VERSION, ...mergeRecent(current, sightings, now).next}),
    )
    return undefined
  } catch (error) {
    return error as Error
  }
}

/**
 * What a list of runs of `org` shows: each run (its status and eval set as the note) and each eval
 * set, up to the limits. The list is the server's, as it came: an item that is not a run is
 * passed over here (the renderer reports it).
 */
export function sightingsOfRuns(org: string, runs: readonly Run[]): Sighting[] {
  const sightings: Sighting[] = []
  const evalSets = new Set<string>()
  for (const run of runs.slice(0, RECENT_LIMITS.runs) as unknown[]) {
    if (!isJsonObject(run) || typeof run.id !== 'string') continue
    const note = [run.status, run.evalSetId].filter((part) => typeof part === 'string' && part !== '').join(', ')
    sightings.push({kind: 'runs', id: run.id, org, note: note || undefined})
    if (typeof run.evalSetId === 'string' && evalSets.size < RECENT_LIMITS.evalSets) evalSets.add(run.evalSetId)
  }
  for (const id of evalSets) sightings.push({kind: 'evalSets', id, org})
  return sightings
}
