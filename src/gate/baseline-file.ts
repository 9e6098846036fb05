import {resolve} from 'node:path'
// (the bundle takes its ES module build: bin/build.js)
import {type ParseErrorCode, printParseErrorCode, visit} from 'jsonc-parser'
import type {Run} from '../contract/types.js'
import {UsageError} from '../core/errors.js'
import {type FileRead, readFile, vetRead} from '../core/file-policy.js'
import {fileSystemError, isJsonObject, writeFileAtomic} from '../core/fs-atomic.js'
import {MAX_INPUT_BYTES} from '../input/files.js'
import type {Column} from '../output/format.js'
import {newestForTrend, sparkline} from '../output/sparkline.js'
import {createdMs} from './filter.js'
import {type EvalStatsShift, type Judge, judgeRuns, shiftColumns, type Verdict} from './history-verdict.js'
import {outcomeOf, type Rate} from './rules.js'
import {FILE, HISTORY, type Quantile, robustSummary, round6, summarize} from './stats.js'

/**
 * The baseline file (`amctl evals baseline save|show`, `--baseline-file`, docs/ci.md "The baseline
 * file"): per agent × model of one eval set, the runs a gate judges against — reviewed like code,
 * changed only on purpose (`evals baseline save`) or by the default branch's own runs
 * (`--update-baseline`), never by what a pull request runs. Its JSON Schema is
 * schemas/baseline-file.json (generated from BaselineFile below).
 *
 * Version 2 records each group's failed and cancelled runs beside its scored ones: the failure
 * rate a step's failed runs are judged against (./outcomes.ts). A file of version 1 is still read,
 * its outcomes unknown (every failed run then fails the step), and updated as version 1; `evals
 * baseline save` writes version 2.
 *
 * The text is written in one stable form (members in a fixed order, groups by agent then model,
 * runs oldest first, one run a line), so that the `git diff` of an update shows the runs that
 * came and went and nothing else. It is written atomically (src/core/fs-atomic.ts), mode 0644
 * (a file of the repository). Whatever reads it checks it first: a file that is not valid (not
 * JSON, another version, a member given twice, a score outside 0–1, a run listed twice, a date in
 * the future, a mean or sd that is not its runs', more runs than it keeps, a member this amctl
 * does not know) is exit 2 naming the file, where, and what is wrong — never what it holds. What
 * is written is held to the same rules first: a run a file cannot hold (an ID of spaces, a date
 * past year 9999 or in the future) is left out, and said so.
 */

/** One run a group is judged against: its ID, score and creation time (ISO 8601). */
export interface BaselineFileRun {
  /** @minLength 1 */
  id: string
  /**
   * from 0 to 1
   * @minimum 0
   * @maximum 1
   */
  score: number
  /** @format date-time */
  createdAt: string
}

/** A run that failed or was cancelled: its ID and creation time. */
export interface BaselineFileOutcome {
  /** @minLength 1 */
  id: string
  /** @format date-time */
  createdAt: string
}

/** The runs of one agent × model. */
export interface BaselineFileGroup {
  /** the agent (null: runs without one) */
  agent: string | null
  /** the model (null: runs without one) */
  model: string | null
  /** the mean of the runs' scores, 6 decimals: for a reader (it must be the runs' mean) */
  mean: number
  /** their sample standard deviation (n − 1; 0 for one run), 6 decimals: for a reader */
  sd: number
  /** the runs judged against, oldest first: at most `keep` */
  runs: BaselineFileRun[]
  /** runs `evals baseline save` set aside as outliers (the rule of --baseline history), oldest first, at most `keep`; never judged against */
  setAside: BaselineFileRun[]
  /** the runs that failed, created since the oldest of `runs`, oldest first, at most `keep`: with the runs and those set aside, the group's failure rate */
  failed: BaselineFileOutcome[]
  /** the runs that were cancelled (a person or a pipeline cancels them: never a failure of the agent), likewise */
  cancelled: BaselineFileOutcome[]
}

/** A baseline file (schemas/baseline-file.json). */
export interface BaselineFile {
  /** the format's version */
  version: typeof FILE.version
  /**
   * the organization whose runs these are
   * @minLength 1
   */
  org: string
  /**
   * the eval set whose runs these are
   * @minLength 1
   */
  evalSetId: string
  /**
   * when it was saved or last updated (ISO 8601, UTC)
   * @format date-time
   */
  savedAt: string
  /**
   * how many runs a group keeps (--update-baseline keeps the newest this many)
   * @minimum 3
   * @maximum 100
   */
  keep: number
  /** one per agent × model, by agent then model (null last) */
  groups: BaselineFileGroup[]
}

/** A file as read: its groups in version 2's form, and whether it records its runs' outcomes (version 1 does not). */
export interface ReadBaseline {
  file: BaselineFile
  /** false: a file of version 1, whose failed and cancelled runs were never recorded */
  outcomes: boolean
}

const MODE = 0o644
/** the members of each object, in the order they are written */
const FILE_KEYS = ['version', 'org', 'evalSetId', 'savedAt', 'keep', 'groups'] as const
const GROUP_KEYS = ['agent', 'model', 'mean', 'sd', 'runs', 'setAside', 'failed', 'cancelled'] as const
/** version 1 had no outcomes */
const V1_GROUP_KEYS = GROUP_KEYS.filter((k) => k !== 'failed' && k !== 'cancelled')
const RUN_KEYS = ['id', 'score', 'createdAt'] as const
const OUTCOME_KEYS = ['id', 'createdAt'] as const
/** the lists of a group that hold runs */
const LISTS = ['runs', 'setAside', 'failed', 'cancelled'] as const

/** A date this far past now is in the future (a clock a day off is a clock, not a run from the future). */
const FUTURE_MS = 24 * 3600 * 1000

/** "codex / gpt-5" */
export function groupName(group: {agent: string | null; model: string | null}): string {
  return `${group.agent ?? '(no agent)'} / ${group.model ?? '(no model)'}`
}

/** The key of an agent × model: the pair itself, never its display name ("a / b" + "c" is not "a" + "b / c"). */
const keyOf = (agent: string | null, model: string | null): string => JSON.stringify([agent, model])

/** The group of `file` that holds the runs of this agent and model. */
export function fileGroupOf(file: BaselineFile, agent: unknown, model: unknown): BaselineFileGroup | undefined {
  return file.groups.find((g) => g.agent === (agent ?? null) && g.model === (model ?? null))
}

/** The mean and sd a group's runs give (6 decimals; sd 0 for one run). */
export function groupStats(runs: readonly BaselineFileRun[]): {mean: number; sd: number} {
  const {mean, sd} = summarize(runs.map((r) => r.score))
  return {mean: round6(mean ?? 0), sd: round6(sd ?? 0)}
}

/**
 * A group's failure rate as the gate judges failures against it (./outcomes.ts): of its finished
 * runs (succeeded with a score, set aside, or failed; cancelled runs say nothing about the agent),
 * how many failed.
 */
export function fileRate(group: BaselineFileGroup): Rate {
  return {failed: group.failed.length, finished: group.failed.length + group.runs.length + group.setAside.length}
}

/** The newest createdAt of a group's runs (ISO 8601 as written), or null without runs. */
export function newestRunAt(group: BaselineFileGroup): string | null {
  let newest: BaselineFileRun | undefined
  for (const run of group.runs) if (newest === undefined || Date.parse(run.createdAt) > Date.parse(newest.createdAt)) newest = run
  return newest?.createdAt ?? null
}

// ——————————————————————————————————————— reading ———————————————————————————————————————

/** What is wrong with a file, as the one line exit 2 gives: `baseline file PATH: …`. */
function invalid(label: string, problem: string): UsageError {
  return new UsageError(`baseline file ${label}: ${problem}`)
}

/** A value a reader may see in an error: a number, a boolean or null as it is, text only as what kind it is (never its content). */
const shown = (value: unknown): string => {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value)
  if (typeof value === 'string') return value === '' ? '""' : `text of ${value.length} character${value.length === 1 ? '' : 's'}`
  return value === undefined ? 'undefined' : Array.isArray(value) ? 'a list' : 'an object'
}

/** ISO 8601 with a zone, of a day that exists (Date.parse rolls 2026-02-30 over into March), four-digit years only. */
function isDate(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/.exec(value)
  if (m === null || Number.isNaN(Date.parse(value))) return false
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return day.getUTCMonth() === Number(m[2]) - 1 && day.getUTCDate() === Number(m[3])
}

/** Why `value` cannot be a date of a file read at `now`, or undefined. */
function dateProblem(value: unknown, now: number): string | undefined {
  if (!isDate(value)) return `is not an ISO 8601 date-time: ${shown(value)}`
  if (Date.parse(value) > now + FUTURE_MS) return `is in the future: ${value}`
  return undefined
}

/** Why a run ID cannot be one of a file's, or undefined. */
const idProblem = (id: unknown): string | undefined =>
  typeof id !== 'string' || id.trim() === '' ? `is not a run ID: ${shown(id)}` : undefined

/** The words of jsonc-parser's error codes. */
const SYNTAX: Partial<Record<string, string>> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a number that is not one',
  PropertyNameExpected: 'a member name expected',
  ValueExpected: 'a value expected',
  ColonExpected: 'a colon expected',
  CommaExpected: 'a comma expected',
  CloseBraceExpected: 'a } expected',
  CloseBracketExpected: 'a ] expected',
  EndOfFileExpected: 'more after the end of the document',
  InvalidCommentToken: 'a comment (JSON has none)',
  UnexpectedEndOfComment: 'a comment (JSON has none)',
  UnexpectedEndOfString: 'a text that does not end',
  UnexpectedEndOfNumber: 'a number that does not end',
  InvalidUnicode: 'an escape that is not one',
  InvalidEscapeCharacter: 'an escape that is not one',
  InvalidCharacter: 'a control character in a text',
}

/**
 * The JSON of `text` checked as a reader of the diff sees it (before it is parsed): well-formed
 * (an error names its line and column, never what stands there), each member of an object given
 * once (the last one would win where a reviewer reads the first), and no list of runs longer than
 * a group can keep (HISTORY.maxRuns), which stops a file of a million runs before it is held.
 */
function checkSyntax(text: string, label: string): void {
  const members: Array<Set<string>> = []
  const at = (line: number, column: number) => `line ${line + 1}, column ${column + 1}`
  visit(
    text,
    {
      onObjectBegin: (_offset, _length, line, column, path) => {
        members.push(new Set())
        const where = path()
        // an item of a group's list: ['groups', g, 'runs', i]
        if (where.length === 4 && where[0] === 'groups' && typeof where[3] === 'number' && where[3] >= HISTORY.maxRuns) {
          throw invalid(
            label,
            `groups[${where[1]}].${where[2]} holds more than ${HISTORY.maxRuns} runs (${at(line, column)}): a group keeps at most ${HISTORY.maxRuns}`,
          )
        }
      },
      onObjectEnd: () => {
        members.pop()
      },
      onObjectProperty: (name, _offset, _length, line, column) => {
        const seen = members[members.length - 1]
        if (seen?.has(name))
          throw invalid(
            label,
            `${at(line, column)}: the member ${JSON.stringify(name.slice(0, 40))} is given twice in one object; give each once`,
          )
        seen?.add(name)
      },
      onError: (error: ParseErrorCode, _offset, _length, line, column) => {
        const code = printParseErrorCode(error)
        throw invalid(label, `not JSON at ${at(line, column)}: ${SYNTAX[code] ?? code}`)
      },
    },
    {disallowComments: true, allowTrailingComma: false, allowEmptyContent: false},
  )
}

function checkKeys(label: string, where: string, value: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key))
      throw invalid(
        label,
        `${where}has a member this amctl does not know: ${JSON.stringify(key.slice(0, 40))} (it knows ${keys.join(', ')})`,
      )
  }
  for (const key of keys) if (!(key in value)) throw invalid(label, `${where}has no "${key}"`)
}

function checkRun(label: string, where: string, value: unknown, now: number): BaselineFileRun {
  if (!isJsonObject(value)) throw invalid(label, `${where} is not an object {"id","score","createdAt"}`)
  checkKeys(label, `${where} `, value, RUN_KEYS)
  const {id, score, createdAt} = value
  const badId = idProblem(id)
  if (badId !== undefined) throw invalid(label, `${where}.id ${badId}`)
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
    throw invalid(label, `${where}.score is not a score from 0 to 1: ${shown(score)}`)
  }
  const badDate = dateProblem(createdAt, now)
  if (badDate !== undefined) throw invalid(label, `${where}.createdAt ${badDate}`)
  return {id: id as string, score, createdAt: createdAt as string}
}

function checkOutcome(label: string, where: string, value: unknown, now: number): BaselineFileOutcome {
  if (!isJsonObject(value)) throw invalid(label, `${where} is not an object {"id","createdAt"}`)
  checkKeys(label, `${where} `, value, OUTCOME_KEYS)
  const {id, createdAt} = value
  const badId = idProblem(id)
  if (badId !== undefined) throw invalid(label, `${where}.id ${badId}`)
  const badDate = dateProblem(createdAt, now)
  if (badDate !== undefined) throw invalid(label, `${where}.createdAt ${badDate}`)
  return {id: id as string, createdAt: createdAt as string}
}

/**
 * The file `text` holds, checked (see the top of this file) as of `now` (epoch ms: dates past it
 * by more than a day are refused); `label` names it in errors (its path as given). Every problem
 * is exit 2, `baseline file PATH: <what is wrong>`.
 */
export function parseBaselineFile(text: string, label: string, now: number): ReadBaseline {
  checkSyntax(text, label)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // (what jsonc-parser took for JSON and JSON.parse does not: still never its content)
    throw invalid(label, 'not JSON')
  }
  if (!isJsonObject(value)) throw invalid(label, 'not a baseline file: the document is not a JSON object')
  if (value.version !== FILE.version && value.version !== 1) {
    throw invalid(label, `version ${shown(value.version)} is not one this amctl reads (1 or ${FILE.version})`)
  }
  const outcomes = value.version === FILE.version
  checkKeys(label, '', value, FILE_KEYS)
  const {org, evalSetId, savedAt, keep, groups} = value
  if (typeof org !== 'string' || org.trim() === '') throw invalid(label, `"org" is not an organization: ${shown(org)}`)
  if (typeof evalSetId !== 'string' || evalSetId.trim() === '')
    throw invalid(label, `"evalSetId" is not an eval set ID: ${shown(evalSetId)}`)
  const badSaved = dateProblem(savedAt, now)
  if (badSaved !== undefined) throw invalid(label, `"savedAt" ${badSaved}`)
  if (typeof keep !== 'number' || !Number.isInteger(keep) || keep < HISTORY.minRuns || keep > HISTORY.maxRuns) {
    throw invalid(label, `"keep" is not a whole number from ${HISTORY.minRuns} to ${HISTORY.maxRuns}: ${shown(keep)}`)
  }
  if (!Array.isArray(groups)) throw invalid(label, `"groups" is not a list: ${shown(groups)}`)
  const seen = new Map<string, string>()
  const pairs = new Map<string, number>()
  const parsed = groups.map((group, g): BaselineFileGroup => {
    const where = `groups[${g}]`
    if (!isJsonObject(group)) throw invalid(label, `${where} is not an object`)
    checkKeys(label, `${where} `, group, outcomes ? GROUP_KEYS : V1_GROUP_KEYS)
    const {agent, model, mean, sd} = group
    for (const [name, v] of [
      ['agent', agent],
      ['model', model],
    ] as const) {
      if (v !== null && typeof v !== 'string') throw invalid(label, `${where}.${name} is not a name or null: ${shown(v)}`)
    }
    const named = groupName({agent: agent as string | null, model: model as string | null})
    const key = keyOf(agent as string | null, model as string | null)
    if (pairs.has(key)) throw invalid(label, `${where} is ${named} again (as groups[${pairs.get(key)}]): each agent × model has one group`)
    pairs.set(key, g)
    const list = <T extends {id: string}>(name: (typeof LISTS)[number], check: (where: string, item: unknown) => T): T[] => {
      const items = name === 'failed' || name === 'cancelled' ? (outcomes ? group[name] : []) : group[name]
      if (!Array.isArray(items)) throw invalid(label, `${where}.${name} is not a list: ${shown(items)}`)
      if (items.length > keep)
        throw invalid(
          label,
          `${where} (${named}) holds ${items.length} ${name === 'runs' ? 'runs' : `${name} runs`}, more than "keep" ${keep}`,
        )
      return items.map((item, i) => {
        const run = check(`${where}.${name}[${i}]`, item)
        const before = seen.get(run.id)
        if (before !== undefined) throw invalid(label, `run ${run.id} is listed twice (${before} and ${where}.${name}[${i}])`)
        seen.set(run.id, `${where}.${name}[${i}]`)
        return run
      })
    }
    const scored = (w: string, item: unknown) => checkRun(label, w, item, now)
    const outcome = (w: string, item: unknown) => checkOutcome(label, w, item, now)
    const runs = list('runs', scored)
    const setAside = list('setAside', scored)
    const failed = list('failed', outcome)
    const cancelled = list('cancelled', outcome)
    const expected = groupStats(runs)
    if (typeof mean !== 'number' || Math.abs(mean - expected.mean) > 1e-6) {
      throw invalid(label, `${where}.mean ${shown(mean)} is not the mean of its runs (${expected.mean}): change the runs, not the mean`)
    }
    if (typeof sd !== 'number' || Math.abs(sd - expected.sd) > 1e-6) {
      throw invalid(
        label,
        `${where}.sd ${shown(sd)} is not the standard deviation of its runs (${expected.sd}): change the runs, not the sd`,
      )
    }
    return {
      agent: agent as string | null,
      model: model as string | null,
      mean: expected.mean,
      sd: expected.sd,
      runs,
      setAside,
      failed,
      cancelled,
    }
  })
  return {file: {version: FILE.version, org, evalSetId, savedAt: savedAt as string, keep, groups: parsed}, outcomes}
}

/** The file's own error: exit 2 naming the file and why it could not be read (a missing file says how to make one). */
function unreadable(label: string, error: unknown): UsageError {
  if (error instanceof UsageError) return error
  const code = (error as NodeJS.ErrnoException).code
  return invalid(
    label,
    code === 'ENOENT' ? 'no such file (make one with `amctl evals baseline save`)' : fileSystemError('read', label, error).message,
  )
}

/**
 * The baseline file at `path`, checked as of `now` (exit 2 naming `label` and what is wrong; a
 * file that cannot be read is exit 2 too: it is the step's own input), and where it was read
 * (its real path and which file it was: an update replaces that one, src/core/file-policy.ts).
 */
export function readBaselineFile(path: string, now: number, label = path): ReadBaseline & {source: FileRead} {
  try {
    vetRead('baseline file', path)
    const source = readFile(path, MAX_INPUT_BYTES, (what) => invalid(label, what))
    return {...parseBaselineFile(source.text, label, now), source}
  } catch (error) {
    throw unreadable(label, error)
  }
}

// ——————————————————————————————————————— writing ———————————————————————————————————————

/** The file as text, in its one stable form (see the top of this file), as version 2, or as version 1 (no outcomes). */
export function baselineFileText(file: BaselineFile, version: 1 | typeof FILE.version = FILE.version): string {
  const value = (v: unknown) => JSON.stringify(v)
  // an object's members, or a list's items, one a line below `indent`
  const object = (indent: string, members: Array<[string, string]>) =>
    `{\n${members.map(([k, v]) => `${indent}  ${value(k)}: ${v}`).join(',\n')}\n${indent}}`
  const list = (indent: string, items: string[]) =>
    items.length === 0 ? '[]' : `[\n${items.map((i) => `${indent}  ${i}`).join(',\n')}\n${indent}]`
  // a run on one line
  const line = (r: Record<string, unknown>, keys: readonly string[]) => `{${keys.map((k) => `${value(k)}: ${value(r[k])}`).join(', ')}}`
  const keys = version === 1 ? V1_GROUP_KEYS : GROUP_KEYS
  const group = (g: BaselineFileGroup) =>
    object(
      '    ',
      keys.map((k): [string, string] => {
        if (k === 'runs' || k === 'setAside')
          return [
            k,
            list(
              '      ',
              g[k].map((r) => line(r as unknown as Record<string, unknown>, RUN_KEYS)),
            ),
          ]
        if (k === 'failed' || k === 'cancelled')
          return [
            k,
            list(
              '      ',
              g[k].map((r) => line(r as unknown as Record<string, unknown>, OUTCOME_KEYS)),
            ),
          ]
        return [k, value(g[k])]
      }),
    )
  return `${object(
    '',
    FILE_KEYS.map((k) => [k, k === 'groups' ? list('  ', file.groups.map(group)) : k === 'version' ? value(version) : value(file[k])]),
  )}\n`
}

/** Writes `file` to `path` atomically (mode 0644); a failure is exit 1 naming the path. */
export function writeBaselineFile(path: string, file: BaselineFile): void {
  try {
    writeFileAtomic(resolve(path), baselineFileText(file), MODE)
  } catch (error) {
    throw fileSystemError('write', path, error)
  }
}

const byTime = (a: {id: string; createdAt: string}, b: {id: string; createdAt: string}): number =>
  Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** Groups by agent, then model; a group without one last (the file's order, and `evals stats`' rows). */
export function byAgentAndModel(a: {agent: string | null; model: string | null}, b: {agent: string | null; model: string | null}): number {
  const order = (x: string | null, y: string | null) => (x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1)
  return order(a.agent, b.agent) || order(a.model, b.model)
}

/** A run's agent and model as the file names them (null: none). */
export function targetOf(run: Run): {agent: string | null; model: string | null} {
  return {agent: typeof run.agent === 'string' ? run.agent : null, model: typeof run.model === 'string' ? run.model : null}
}

/** Where a run of the API goes in a file: its scored runs, its failed ones, its cancelled ones, or nowhere. */
type Place = 'runs' | 'failed' | 'cancelled'

/** A run of the API as a run of a file, where it goes (only a succeeded run with a score is a scored one), or why it cannot be one. */
function entryOf(run: Run, now: number): {place: Place; entry: BaselineFileRun | BaselineFileOutcome} | {problem: string} | undefined {
  const outcome = outcomeOf(run)
  const place: Place | undefined = outcome === 'scored' ? 'runs' : outcome === 'failed' || outcome === 'cancelled' ? outcome : undefined
  if (place === undefined) return undefined
  const ms = createdMs(run)
  const badId = idProblem(run.id)
  if (badId !== undefined) return {problem: `its ID ${badId}`}
  if (ms === undefined) return {problem: 'it has no createdAt'}
  const createdAt = new Date(ms).toISOString()
  if (!isDate(createdAt)) return {problem: `its createdAt is past the year 9999: ${createdAt}`}
  const badDate = dateProblem(createdAt, now)
  if (badDate !== undefined) return {problem: `its createdAt ${badDate}`}
  return {place, entry: place === 'runs' ? {id: run.id, score: run.score as number, createdAt} : {id: run.id, createdAt}}
}

/** A run of the API as a scored run of a file: only a succeeded run with a score (and a createdAt a file can hold) is one. */
export function fileRun(run: Run, now: number): BaselineFileRun | undefined {
  const found = entryOf(run, now)
  return found !== undefined && 'place' in found && found.place === 'runs' ? (found.entry as BaselineFileRun) : undefined
}

/** What a write left out: each run a file cannot hold, and why (one warning line says them). */
export interface LeftOut {
  id: string
  problem: string
}

/** A group being built: its runs in each list, before they are sorted, cut to `keep` and summed up. */
interface Draft {
  agent: string | null
  model: string | null
  runs: BaselineFileRun[]
  setAside: BaselineFileRun[]
  failed: BaselineFileOutcome[]
  cancelled: BaselineFileOutcome[]
}

/**
 * A group as written: its runs sorted and cut to the newest `keep`; the runs set aside, failed
 * and cancelled since its oldest kept run (all of them when it has none), the newest `keep` of
 * each; its mean and sd.
 */
function finished(draft: Draft, keep: number): BaselineFileGroup & {dropped: number} {
  const runs = [...draft.runs].sort(byTime)
  const kept = runs.slice(-keep)
  const oldest = kept.length > 0 ? Date.parse(kept[0].createdAt) : Number.NEGATIVE_INFINITY
  const since = <T extends {id: string; createdAt: string}>(items: T[]) =>
    items
      .filter((r) => Date.parse(r.createdAt) >= oldest)
      .sort(byTime)
      .slice(-keep)
  return {
    agent: draft.agent,
    model: draft.model,
    ...groupStats(kept),
    runs: kept,
    setAside: since(draft.setAside),
    failed: since(draft.failed),
    cancelled: since(draft.cancelled),
    dropped: runs.length - kept.length,
  }
}

/**
 * A new file (`evals baseline save`, as of `now`): the runs of `evalSetId`, by agent × model —
 * each group's newest `keep` succeeded, scored runs, outliers set aside by the rule of
 * --baseline history (./stats.ts robustSummary) and recorded as set aside, and its failed and
 * cancelled runs since the oldest of them. Runs a file cannot hold are left out and returned.
 */
export function newBaselineFile(
  head: Pick<BaselineFile, 'org' | 'evalSetId' | 'savedAt' | 'keep'>,
  runs: readonly Run[],
  quantile: Quantile,
  now: number,
): {file: BaselineFile; leftOut: LeftOut[]} {
  const drafts = new Map<string, Draft>()
  const leftOut: LeftOut[] = []
  const seen = new Set<string>()
  for (const run of runs) {
    if (run.evalSetId !== head.evalSetId || seen.has(run.id)) continue
    const found = entryOf(run, now)
    if (found === undefined) continue
    if ('problem' in found) {
      leftOut.push({id: run.id, problem: found.problem})
      continue
    }
    seen.add(run.id)
    const {agent, model} = targetOf(run)
    const key = keyOf(agent, model)
    const draft = drafts.get(key) ?? {agent, model, runs: [], setAside: [], failed: [], cancelled: []}
    if (found.place === 'runs') draft.runs.push(found.entry as BaselineFileRun)
    else draft[found.place].push(found.entry)
    drafts.set(key, draft)
  }
  const groups = [...drafts.values()].map((draft) => {
    const newest = [...draft.runs].sort(byTime).slice(-head.keep)
    const summary =
      newest.length === 0
        ? {kept: [], outliers: []}
        : robustSummary(
            newest.map((r) => r.score),
            quantile,
          )
    const {dropped: _, ...group} = finished(
      {...draft, runs: summary.kept.map((i) => newest[i]), setAside: summary.outliers.map((i) => newest[i])},
      head.keep,
    )
    return group
  })
  // a group of failures alone is one the file holds (its failure rate), though it has no score to judge
  return {file: {version: FILE.version, ...head, groups: groups.sort(byAgentAndModel)}, leftOut}
}

/** What an update added, for the one line that says so. */
export interface BaselineUpdate {
  file: BaselineFile
  /** scored runs added to each group (its name: "codex / gpt-5"), in the order they came */
  added: Array<{group: string; runs: number}>
  /** failed and cancelled runs added (a file of version 1 records none) */
  outcomes: number
  /** groups the file did not have */
  started: string[]
  /** scored runs that fell out (each group keeps its newest `keep`) */
  dropped: number
  /** runs the file cannot hold, left out */
  leftOut: LeftOut[]
}

/**
 * `--update-baseline` (as of `now`): every run of `runs` of the file's eval set, whatever the
 * verdict was (the default branch's runs are the accepted state): a succeeded, scored one added
 * to its group's runs, a failed or cancelled one to its outcomes (a file of version 1, which
 * records none, takes only the scored ones); a group new to the file is started; each group keeps
 * its newest `keep` runs, and the runs set aside, failed and cancelled since its oldest. Runs the
 * file already holds are not added again; runs it cannot hold are left out. No outlier rule here:
 * a change the default branch made must come in, however large.
 */
export function updateBaselineFile(read: ReadBaseline, runs: readonly Run[], savedAt: string, now: number): BaselineUpdate {
  const {file} = read
  const held = new Set(file.groups.flatMap((g) => LISTS.flatMap((list) => g[list].map((r) => r.id))))
  const drafts = file.groups.map(
    (g): Draft => ({...g, runs: [...g.runs], setAside: [...g.setAside], failed: [...g.failed], cancelled: [...g.cancelled]}),
  )
  // (by agent × model: two groups whose names read the same are two groups)
  const added = new Map<Draft, {group: string; runs: number}>()
  const started: string[] = []
  const leftOut: LeftOut[] = []
  let outcomes = 0
  for (const run of runs) {
    if (run.evalSetId !== file.evalSetId || held.has(run.id)) continue
    const found = entryOf(run, now)
    if (found === undefined || ('place' in found && found.place !== 'runs' && !read.outcomes)) continue
    if ('problem' in found) {
      leftOut.push({id: run.id, problem: found.problem})
      continue
    }
    held.add(run.id)
    const {agent, model} = targetOf(run)
    let draft = drafts.find((g) => g.agent === agent && g.model === model)
    if (draft === undefined) {
      draft = {agent, model, runs: [], setAside: [], failed: [], cancelled: []}
      drafts.push(draft)
      started.push(groupName(draft))
    }
    if (found.place === 'runs') {
      draft.runs.push(found.entry as BaselineFileRun)
      const count = added.get(draft) ?? {group: groupName(draft), runs: 0}
      count.runs++
      added.set(draft, count)
    } else {
      draft[found.place].push(found.entry)
      outcomes++
    }
  }
  let dropped = 0
  const groups = drafts.map((draft) => {
    const {dropped: gone, ...group} = finished(draft, file.keep)
    dropped += gone
    return group
  })
  return {file: {...file, savedAt, groups: groups.sort(byAgentAndModel)}, added: [...added.values()], outcomes, started, dropped, leftOut}
}

/** "2 runs left out (the file cannot hold them): run_1 (its ID is not a run ID: \"\"), …" */
export function leftOutText(leftOut: readonly LeftOut[]): string | undefined {
  if (leftOut.length === 0) return undefined
  const named = leftOut.slice(0, 3).map((r) => `${JSON.stringify(r.id)} (${r.problem})`)
  const more = leftOut.length > 3 ? ` and ${leftOut.length - 3} more` : ''
  return `${leftOut.length} run${leftOut.length === 1 ? '' : 's'} left out, which a baseline file cannot hold: ${named.join(', ')}${more}`
}

// ——————————————————————————————————————— showing ———————————————————————————————————————

/** A group as `evals baseline show|save` show it: the file's group, its newest run's time, and the verdict of `evals stats` on it. */
export type BaselineFileGroupView = BaselineFileGroup & {
  /** the newest createdAt of its runs, or null without runs */
  newestRunAt: string | null
  /**
   * the verdict of `evals stats` on its runs, at confidence 0.95 (docs/ci.md "When the scores
   * moved: the verdicts"): shifted (its runs changed level), flaky (more failed runs than a
   * failure rate of 5 % explains; never in a file of version 1, which records none), too-few
   * (fewer than 10 runs), stable
   */
  verdict: Verdict
  /** with `shifted`, the newest change of level: its first run, the mean score before it and since; otherwise null */
  shift: EvalStatsShift | null
}

/** `evals baseline show|save --json`: the file as it is on disk, where it is, and each group's newest run and verdict. */
export type BaselineFileDocument = Omit<BaselineFile, 'groups'> & {
  /** the file's path, as given */
  path: string
  groups: BaselineFileGroupView[]
}

/**
 * The document of `file` at `path`: each group with its newest run's time and the verdict of
 * `evals stats` (./history-verdict.ts judgeRuns, fed as ./history-stats.ts feeds it: its scored
 * runs oldest first, its failed runs of its finished ones, the cancelled counted as finished).
 */
export function baselineDocument(file: BaselineFile, path: string, judge: Judge): BaselineFileDocument {
  return {
    path,
    ...file,
    groups: file.groups.map((g) => {
      const finished = g.runs.length + g.setAside.length + g.failed.length + g.cancelled.length
      const {verdict, shift} = judgeRuns({failed: g.failed.length, finished, runs: g.runs}, judge)
      return {...g, newestRunAt: newestRunAt(g), verdict, shift}
    }),
  }
}

/**
 * The table of a file: AGENT, MODEL, RUNS, MEAN, SD, NEWEST (its age on a terminal), ASIDE (the
 * runs set aside), VERDICT, and TREND on a terminal (short headers: a file of 50 runs keeps its
 * agent, model and 20-score trend on a 100-column terminal); piped, after the runs set aside, the
 * verdict and the shift's run ID, createdAt, level before, level after and delta (empty unless
 * shifted), appended as in `evals stats`.
 */
export const BASELINE_FILE_COLUMNS: Column<BaselineFileGroupView>[] = [
  {header: 'AGENT', get: (g) => g.agent, flexible: true},
  {header: 'MODEL', get: (g) => g.model, flexible: true},
  {header: 'RUNS', get: (g) => g.runs.length},
  {header: 'MEAN', get: (g) => (g.runs.length === 0 ? null : g.mean), show: 'score'},
  {header: 'SD', get: (g) => (g.runs.length < 2 ? null : g.sd), show: 'score'},
  {header: 'NEWEST', get: (g) => g.newestRunAt, show: 'time'},
  {header: 'ASIDE', get: (g) => g.setAside.length},
  {header: 'VERDICT', get: (g) => g.verdict, appended: true},
  {header: 'TREND', get: (g) => sparkline(newestForTrend(g.runs).map((r) => r.score)), extra: true},
  ...shiftColumns((g: BaselineFileGroupView) => g.shift),
]
