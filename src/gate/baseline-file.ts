import {readFileSync, statSync} from 'node:fs'
import {resolve} from 'node:path'
import type {Run} from '../contract/types.js'
import {UsageError} from '../core/errors.js'
import {fileSystemError, isJsonObject, writeFileAtomic} from '../core/fs-atomic.js'
import {MAX_INPUT_BYTES} from '../input/files.js'
import type {Column} from '../output/format.js'
import {newestForTrend, sparkline} from '../output/sparkline.js'
import {createdMs} from './filter.js'
import {FILE, HISTORY, type Quantile, robustSummary, round6, summarize} from './stats.js'

/**
 * The baseline file (`amctl evals baseline save|show`, `--baseline-file`, docs/ci.md "The baseline
 * file"): per agent × model of one eval set, the runs a gate judges against — reviewed like code,
 * changed only on purpose (`evals baseline save`) or by the default branch's own runs
 * (`--update-baseline`), never by what a pull request runs. Its JSON Schema is
 * schemas/baseline-file.json (generated from BaselineFile below).
 *
 * The text is written in one stable form (members in a fixed order, groups by agent then model,
 * runs oldest first, one run a line), so that the `git diff` of an update shows the runs that
 * came and went and nothing else. It is written atomically (src/core/fs-atomic.ts), mode 0644
 * (a file of the repository). Whatever reads it checks it first: a file that is not valid (not
 * JSON, another version, a score outside 0–1, a run listed twice, a mean or sd that is not its
 * runs', a member this amctl does not know) is exit 2 naming the file and what is wrong.
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
  /** runs `evals baseline save` set aside as outliers (the rule of --baseline history), oldest first; never judged against */
  setAside: BaselineFileRun[]
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

const MODE = 0o644
/** the members of each object, in the order they are written */
const FILE_KEYS = ['version', 'org', 'evalSetId', 'savedAt', 'keep', 'groups'] as const
const GROUP_KEYS = ['agent', 'model', 'mean', 'sd', 'runs', 'setAside'] as const
const RUN_KEYS = ['id', 'score', 'createdAt'] as const

/** "codex / gpt-5" */
export function groupName(group: {agent: string | null; model: string | null}): string {
  return `${group.agent ?? '(no agent)'} / ${group.model ?? '(no model)'}`
}

/** The group of `file` that holds the runs of this agent and model. */
export function fileGroupOf(file: BaselineFile, agent: unknown, model: unknown): BaselineFileGroup | undefined {
  return file.groups.find((g) => g.agent === (agent ?? null) && g.model === (model ?? null))
}

/** The mean and sd a group's runs give (6 decimals; sd 0 for one run). */
export function groupStats(runs: readonly BaselineFileRun[]): {mean: number; sd: number} {
  const {mean, sd} = summarize(runs.map((r) => r.score))
  return {mean: round6(mean ?? 0), sd: round6(sd ?? 0)}
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

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

/** ISO 8601 with a zone, of a day that exists (Date.parse rolls 2026-02-30 over into March). */
function isDate(value: unknown): value is string {
  if (typeof value !== 'string') return false
  const m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/.exec(value)
  if (m === null || Number.isNaN(Date.parse(value))) return false
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return day.getUTCMonth() === Number(m[2]) - 1 && day.getUTCDate() === Number(m[3])
}

function checkKeys(label: string, where: string, value: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!keys.includes(key)) throw invalid(label, `${where}has a member this amctl does not know: "${key}" (it knows ${keys.join(', ')})`)
  }
  for (const key of keys) if (!(key in value)) throw invalid(label, `${where}has no "${key}"`)
}

function checkRun(label: string, where: string, value: unknown): BaselineFileRun {
  if (!isJsonObject(value)) throw invalid(label, `${where} is not an object {"id","score","createdAt"}`)
  checkKeys(label, `${where} `, value, RUN_KEYS)
  const {id, score, createdAt} = value
  if (typeof id !== 'string' || id.trim() === '') throw invalid(label, `${where}.id is not a run ID: ${shown(id)}`)
  if (typeof score !== 'number' || !Number.isFinite(score) || score < 0 || score > 1) {
    throw invalid(label, `${where}.score is not a score from 0 to 1: ${shown(score)}`)
  }
  if (!isDate(createdAt)) throw invalid(label, `${where}.createdAt is not an ISO 8601 date-time: ${shown(createdAt)}`)
  return {id, score, createdAt}
}

/**
 * The file `text` holds, checked (see the top of this file); `label` names it in errors (its path
 * as given). Every problem is exit 2, `baseline file PATH: <what is wrong>`.
 */
export function parseBaselineFile(text: string, label: string): BaselineFile {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw invalid(label, `not JSON (${(error as Error).message})`)
  }
  if (!isJsonObject(value)) throw invalid(label, 'not a baseline file: the document is not a JSON object')
  if (value.version !== FILE.version) {
    throw invalid(label, `version ${shown(value.version)} is not one this amctl reads (${FILE.version})`)
  }
  checkKeys(label, '', value, FILE_KEYS)
  const {org, evalSetId, savedAt, keep, groups} = value
  if (typeof org !== 'string' || org.trim() === '') throw invalid(label, `"org" is not an organization: ${shown(org)}`)
  if (typeof evalSetId !== 'string' || evalSetId.trim() === '')
    throw invalid(label, `"evalSetId" is not an eval set ID: ${shown(evalSetId)}`)
  if (!isDate(savedAt)) throw invalid(label, `"savedAt" is not an ISO 8601 date-time: ${shown(savedAt)}`)
  if (typeof keep !== 'number' || !Number.isInteger(keep) || keep < HISTORY.minRuns || keep > HISTORY.maxRuns) {
    throw invalid(label, `"keep" is not a whole number from ${HISTORY.minRuns} to ${HISTORY.maxRuns}: ${shown(keep)}`)
  }
  if (!Array.isArray(groups)) throw invalid(label, `"groups" is not a list: ${shown(groups)}`)
  const seen = new Map<string, string>()
  const names = new Set<string>()
  const parsed = groups.map((group, g): BaselineFileGroup => {
    const where = `groups[${g}]`
    if (!isJsonObject(group)) throw invalid(label, `${where} is not an object`)
    checkKeys(label, `${where} `, group, GROUP_KEYS)
    const {agent, model, mean, sd} = group
    for (const [name, v] of [
      ['agent', agent],
      ['model', model],
    ] as const) {
      if (v !== null && (typeof v !== 'string' || v === '')) throw invalid(label, `${where}.${name} is not a name or null: ${shown(v)}`)
    }
    const named = groupName({agent: agent as string | null, model: model as string | null})
    if (names.has(named)) throw invalid(label, `${where} is ${named} again: each agent × model has one group`)
    names.add(named)
    const list = (key: 'runs' | 'setAside'): BaselineFileRun[] => {
      const items = group[key]
      if (!Array.isArray(items)) throw invalid(label, `${where}.${key} is not a list: ${shown(items)}`)
      return items.map((item, i) => {
        const run = checkRun(label, `${where}.${key}[${i}]`, item)
        const before = seen.get(run.id)
        if (before !== undefined) throw invalid(label, `run ${run.id} is listed twice (${before} and ${where}.${key}[${i}])`)
        seen.set(run.id, `${where}.${key}[${i}]`)
        return run
      })
    }
    const runs = list('runs')
    const setAside = list('setAside')
    if (runs.length > keep) throw invalid(label, `${where} (${named}) holds ${runs.length} runs, more than "keep" ${keep}`)
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
    return {agent: agent as string | null, model: model as string | null, mean: expected.mean, sd: expected.sd, runs, setAside}
  })
  return {version: FILE.version, org, evalSetId, savedAt, keep, groups: parsed}
}

/**
 * The baseline file at `path`, checked (exit 2 naming `label` and what is wrong; a file that
 * cannot be read is exit 2 too: it is the step's own input).
 */
export function readBaselineFile(path: string, label = path): BaselineFile {
  let text: string
  try {
    const info = statSync(path)
    if (info.isDirectory()) throw invalid(label, 'it is a directory')
    if (!info.isFile()) throw invalid(label, 'it is not a regular file')
    if (info.size > MAX_INPUT_BYTES) throw invalid(label, `it is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`)
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if (error instanceof UsageError) throw error
    const code = (error as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT' ? 'no such file (make one with `amctl evals baseline save`)' : fileSystemError('read', label, error).message
    throw invalid(label, why)
  }
  return parseBaselineFile(text, label)
}

// ——————————————————————————————————————— writing ———————————————————————————————————————

/** The file as text, in its one stable form (see the top of this file). */
export function baselineFileText(file: BaselineFile): string {
  const value = (v: unknown) => JSON.stringify(v)
  // an object's members, or a list's items, one a line below `indent`
  const object = (indent: string, members: Array<[string, string]>) =>
    `{\n${members.map(([k, v]) => `${indent}  ${value(k)}: ${v}`).join(',\n')}\n${indent}}`
  const list = (indent: string, items: string[]) =>
    items.length === 0 ? '[]' : `[\n${items.map((i) => `${indent}  ${i}`).join(',\n')}\n${indent}]`
  // a run on one line
  const run = (r: BaselineFileRun) => `{${RUN_KEYS.map((k) => `${value(k)}: ${value(r[k])}`).join(', ')}}`
  const group = (g: BaselineFileGroup) =>
    object(
      '    ',
      GROUP_KEYS.map((k) => [k, k === 'runs' || k === 'setAside' ? list('      ', g[k].map(run)) : value(g[k])]),
    )
  return `${object(
    '',
    FILE_KEYS.map((k) => [k, k === 'groups' ? list('  ', file.groups.map(group)) : value(file[k])]),
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

const byTime = (a: BaselineFileRun, b: BaselineFileRun): number =>
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

/** A run of the API as a run of the file: only a succeeded run with a score (and a createdAt) is one. */
export function fileRun(run: Run): BaselineFileRun | undefined {
  if (run.status !== 'succeeded' || typeof run.score !== 'number' || createdMs(run) === undefined) return undefined
  return {id: run.id, score: run.score, createdAt: new Date(createdMs(run) as number).toISOString()}
}

function withStats(group: Omit<BaselineFileGroup, 'mean' | 'sd'>): BaselineFileGroup {
  const {agent, model, runs, setAside} = group
  return {agent, model, ...groupStats(runs), runs, setAside}
}

/**
 * A new file (`evals baseline save`): the succeeded, scored `runs` of `evalSetId`, by agent ×
 * model, each group's newest `keep`, outliers set aside by the rule of --baseline history
 * (./stats.ts robustSummary) and recorded as set aside.
 */
export function newBaselineFile(
  head: Pick<BaselineFile, 'org' | 'evalSetId' | 'savedAt' | 'keep'>,
  runs: readonly Run[],
  quantile: Quantile,
): BaselineFile {
  const groups = new Map<string, {agent: string | null; model: string | null; runs: BaselineFileRun[]}>()
  for (const run of runs) {
    const entry = run.evalSetId === head.evalSetId ? fileRun(run) : undefined
    if (entry === undefined) continue
    const {agent, model} = targetOf(run)
    const key = JSON.stringify([agent, model])
    const group = groups.get(key) ?? {agent, model, runs: []}
    group.runs.push(entry)
    groups.set(key, group)
  }
  const made = [...groups.values()].map((group) => {
    const newest = [...group.runs].sort(byTime).slice(-head.keep)
    const summary = robustSummary(
      newest.map((r) => r.score),
      quantile,
    )
    return withStats({
      agent: group.agent,
      model: group.model,
      runs: summary.kept.map((i) => newest[i]),
      setAside: summary.outliers.map((i) => newest[i]),
    })
  })
  return {version: FILE.version, ...head, groups: made.sort(byAgentAndModel)}
}

/** What an update added, for the one line that says so. */
export interface BaselineUpdate {
  file: BaselineFile
  /** runs added, by group name ("codex / gpt-5") */
  added: Map<string, number>
  /** groups the file did not have */
  started: string[]
  /** runs that fell out (each group keeps its newest `keep`) */
  dropped: number
}

/**
 * `--update-baseline`: every succeeded, scored run of `runs` of the file's eval set (its status
 * whatever the verdict was: the default branch's runs are the accepted state) added to its group
 * (a group new to the file is started), each group keeping its newest `keep` runs; runs the file
 * already holds are not added again, and runs set aside older than a group's oldest run go.
 * No outlier rule here: a change the default branch made must come in, however large.
 */
export function updateBaselineFile(file: BaselineFile, runs: readonly Run[], savedAt: string): BaselineUpdate {
  const held = new Set(file.groups.flatMap((g) => [...g.runs, ...g.setAside].map((r) => r.id)))
  const groups = file.groups.map((g) => ({...g, runs: [...g.runs], setAside: [...g.setAside]}))
  const added = new Map<string, number>()
  const started: string[] = []
  for (const run of runs) {
    const entry = run.evalSetId === file.evalSetId && !held.has(run.id) ? fileRun(run) : undefined
    if (entry === undefined) continue
    held.add(run.id)
    const {agent, model} = targetOf(run)
    let group = groups.find((g) => g.agent === agent && g.model === model)
    if (group === undefined) {
      group = {agent, model, mean: 0, sd: 0, runs: [], setAside: []}
      groups.push(group)
      started.push(groupName(group))
    }
    group.runs.push(entry)
    added.set(groupName(group), (added.get(groupName(group)) ?? 0) + 1)
  }
  let dropped = 0
  const kept = groups.map((group) => {
    const sorted = group.runs.sort(byTime)
    const runsKept = sorted.slice(-file.keep)
    dropped += sorted.length - runsKept.length
    const oldest = runsKept.length > 0 ? Date.parse(runsKept[0].createdAt) : Number.POSITIVE_INFINITY
    const setAside = group.setAside.filter((r) => Date.parse(r.createdAt) >= oldest).sort(byTime)
    return withStats({agent: group.agent, model: group.model, runs: runsKept, setAside})
  })
  return {file: {...file, savedAt, groups: kept.sort(byAgentAndModel)}, added, started, dropped}
}

// ——————————————————————————————————————— showing ———————————————————————————————————————

/** A group as `evals baseline show|save` show it: the file's group and its newest run's time. */
export type BaselineFileGroupView = BaselineFileGroup & {
  /** the newest createdAt of its runs, or null without runs */
  newestRunAt: string | null
}

/** `evals baseline show|save --json`: the file as it is on disk, where it is, and each group's newest run. */
export type BaselineFileDocument = Omit<BaselineFile, 'groups'> & {
  /** the file's path, as given */
  path: string
  groups: BaselineFileGroupView[]
}

export function baselineDocument(file: BaselineFile, path: string): BaselineFileDocument {
  return {path, ...file, groups: file.groups.map((g) => ({...g, newestRunAt: newestRunAt(g)}))}
}

/** The table of a file: AGENT, MODEL, RUNS, MEAN, SD, NEWEST (its age on a terminal), SET ASIDE, and TREND on a terminal. */
export const BASELINE_FILE_COLUMNS: Column<BaselineFileGroupView>[] = [
  {header: 'AGENT', get: (g) => g.agent, flexible: true},
  {header: 'MODEL', get: (g) => g.model, flexible: true},
  {header: 'RUNS', get: (g) => g.runs.length},
  {header: 'MEAN', get: (g) => (g.runs.length === 0 ? null : g.mean), show: 'score'},
  {header: 'SD', get: (g) => (g.runs.length < 2 ? null : g.sd), show: 'score'},
  {header: 'NEWEST', get: (g) => g.newestRunAt, show: 'time'},
  {header: 'SET ASIDE', get: (g) => g.setAside.length},
  {header: 'TREND', get: (g) => sparkline(newestForTrend(g.runs).map((r) => r.score)), extra: true},
]
