import type {Run} from '../contract/types.js'
import {STOP_SIGNALS, type StopSignal, stopSignalOf} from '../core/signals.js'
import {flagDuration} from '../output/time.js'
import {createdMs} from './filter.js'
import {computedMembers, type Figures} from './figures.js'
import {REPEAT} from './flags.js'
import {
  type Decision,
  type GateBaseline,
  type Group,
  type Outcomes,
  isFinished,
  judgesNoise,
  type RunVerdict,
  type SampleBaseline,
  statusText,
} from './rules.js'
import type {Resolution, WatchState} from './state.js'
import type {UpdateResult} from './update.js'
import {type FinalOutcome, interruptedBy} from './watch.js'
import {type Judgement, NOT_JUDGED, type Shortfall} from './words.js'

/**
 * The gate's result: what a wait found, judged, built ONCE when the wait ends (buildResult) and
 * read by every output — the table and the tab-separated rows, `--json`, the Markdown summary,
 * the JUnit report, the GitHub annotations and the pull-request comment. Strings from the server
 * (IDs, agents, models, statuses) are kept as they came; each renderer makes them safe for its
 * own format.
 */

/**
 * How the wait ended: every run passed, some did not, the time limit came first, Ctrl-C or
 * SIGTERM (`signal` says which), or a launch of the step failed (`error` says how).
 */
export type ResultEnd = 'passed' | 'not-passed' | 'timeout' | 'interrupted' | 'error'

/** What the gate judged of a run alone or of a group, as --json gives it: the verdict, why, the baseline and the figures. */
export interface Judging extends Figures {
  /** the verdict (src/gate/rules.ts VERDICTS) */
  verdict: RunVerdict
  /** what decided the verdict, as data (absent on the runs of a group: the group's decides) */
  decision?: Decision
  /** with --baseline: its baseline ({runId, score}, the history, or a group of the baseline file), or null ("no baseline"); absent without --baseline, or when it was never looked up */
  baseline?: GateBaseline | null
  /** with a baseline of many runs: its runs that failed, were cancelled and succeeded, judged against the baseline's failure rate */
  outcomes?: Outcomes
}

/** What the gate says of a run judged alone, or of a group: its judging, and the reports' words and timing. */
export interface Assessment extends Judging {
  /** what a test report makes of it: passed, failed, or skipped (not finished, or not judged) */
  outcome: 'passed' | 'failed' | 'skipped'
  /** why it failed: the rule (status, min-score, max-drop, noise, baseline, inconclusive) and the reason, one sentence */
  failure?: Shortfall
  /** a sentence on a passing verdict: within noise, improved, flaky, no baseline */
  note?: string
  /** why it is skipped: it did not finish before the wait ended, or was not judged */
  skipped?: string
  /** seconds from its createdAt to when the wait saw it finish (or to the end of the wait); null without a createdAt */
  seconds: number | null
}

/** One watched run at the end of the wait, as the reports read it (and a wait's --json gives it in `gate`). */
export interface ReportedRun extends Assessment {
  id: string
  /** null: not known (a run the wait never found) */
  evalSetId: string | null
  agent: string | null
  model: string | null
  /** its last known status; null when the wait never found it */
  status: string | null
  score: number | null
  /** ISO 8601, as the API gave it */
  createdAt: string | null
}

/** One watched run at the end of the wait: what the reports read, and its last known state as the server gave it. */
export interface RunResult extends ReportedRun {
  /** absent when the wait never found it */
  run?: Run
}

/** With --repeat: the runs of one eval set, agent and model, judged as one. */
export interface GroupResult extends Assessment, GroupFacts {}

/** A group's own members: which runs, and what they scored. */
export interface GroupFacts {
  /** "<eval set> <agent> / <model>" */
  id: string
  /** the eval set its runs measure (null when the server sent none) */
  evalSetId: string | null
  /** the agent its runs measure (null when the server sent none) */
  agent: string | null
  /** the model its runs' agent ran with (null when the server sent none) */
  model: string | null
  runIds: string[]
  /** each run's score (null: none), in the order of runIds */
  scores: Array<number | null>
  /** each run's status (null: not found) */
  statuses: Array<string | null>
  /** the mean of the succeeded runs' scores */
  score: number | null
  /** runs that failed or were cancelled */
  failures: number
  /** fewer than half failed: judged on the others */
  flaky: boolean
  /** how many scores its mean holds */
  k: number
  /** --repeat auto: the launch that decided it (null: inconclusive, or not --repeat auto) */
  decidedAt: number | null
}

/** --repeat auto, as the result says it. */
export interface AutoReport {
  launches: number
  maxRepeat: number
  /** the groups still undecided before the last launch (none: one launch decided every group) */
  lastFor: string[]
}

/** The rules the runs were held to, as the flags gave them. */
export interface ResultRules {
  minScore?: number
  maxDrop?: number
  /** --max-drop Nsd: N, each group's bar N times its own baseline's sd */
  maxDropSd?: number
  /** `history`, `previous`, `file` or a run ID */
  baseline?: string
  /** --baseline-file: the file as given, when it was saved, and --baseline-max-age in seconds (0 = never stale) */
  baselineFile?: {path: string; savedAt: string; maxAgeS: number}
  /** --baseline history|previous: how far back, in seconds (0 = no limit) */
  baselineWindowS?: number
  /** --baseline history: --baseline-runs, --confidence, and the groups compared (the m of the correction) */
  baselineRuns?: number
  confidence?: number
  comparisons?: number
  requireBaseline?: boolean
  /** --repeat auto: how many launches were made, at most how many, and the groups the last one was made for */
  auto?: AutoReport
  /** --max-drop above what the step could see: the largest detectable, and the --repeat that would see it (null: none up to upTo) */
  resolution?: Resolution
  /** --wait-timeout in seconds (0 = no limit) */
  timeoutS: number
}

/** What the result says besides its runs: how the wait ended, the rules, the groups, the runs going on, the update. */
export interface ResultFacts {
  end: ResultEnd
  /** with end `timeout`: what the time limit cut short (the search for the baselines, or a poll) */
  cut?: 'baselines' | 'poll'
  /** with end `interrupted`: the signal that stopped the wait (absent: Ctrl-C) */
  signal?: StopSignal
  /** with end `error`: what failed, as the error line gives it */
  error?: {code: string; message: string}
  /** the organization */
  org: string
  /** the API server's host name (JUnit's `hostname`: where the runs ran) */
  host: string
  rules: ResultRules
  /** with --repeat: the groups judged (the verdict is theirs) */
  groups?: GroupResult[]
  /** the runs not finished when the wait ended, which go on on the server (the API cannot cancel runs) */
  unfinishedRunIds: string[]
  /** --update-baseline: what it added to the file, or why it did not */
  baselineUpdate?: UpdateResult
}

export interface GateResult extends ResultFacts {
  /** every watched run, in the order given */
  runs: RunResult[]
}

/** What the result of a wait is built with besides its outcome. */
export interface ResultContext {
  org: string
  /** the API's host name */
  host: string
  /** `evals run --wait`: the eval set of runs the wait never found */
  evalSetId?: string
  /** the time of day when the wait began, epoch ms (the clock's wall; its `now` is monotonic) */
  wallStart: number
  /** --repeat auto: how many launches, at most how many, and which groups the last one was made for */
  auto?: AutoReport
  /** runs launched after the last look, never watched: they go on too */
  unwatched?: readonly string[]
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : value == null ? null : JSON.stringify(value))

/** A history baseline or a group of a baseline file, or undefined. */
export function sampleOf(baseline: GateBaseline | null | undefined): SampleBaseline | undefined {
  return baseline != null && 'kind' in baseline ? baseline : undefined
}

/** What a judgement adds to a run judged alone or a group: its baseline and figures, as the choice of baseline gives them. */
function judgedFigures(state: WatchState, group: Group | undefined, judgement: Judgement | undefined): Partial<Assessment> {
  const choice = state.rules.baseline
  if (choice === undefined) return {}
  // never looked up (the search was cut short): no baseline to show, not "none found"
  return {
    ...(group?.baseline === undefined ? {} : {baseline: group.baseline}),
    ...(judgement?.outcomes === undefined ? {} : {outcomes: judgement.outcomes}),
    ...computedMembers(judgement, group?.baseline, choice.kind),
  }
}

/** What the wait saw, judged: the result every output reads. */
export function buildResult(outcome: FinalOutcome, ctx: ResultContext): GateResult {
  const {state} = outcome
  const {rules} = state
  // wall-clock ms of a moment of the wait's clock
  const wall = (at: number) => ctx.wallStart + (at - outcome.startedAt)
  const timeout = `not finished within --wait-timeout ${flagDuration(outcome.timeoutS, false)}`
  const why: Record<FinalOutcome['end'], string> = {
    passed: 'not finished',
    'not-passed': 'not finished when the wait stopped at the first run that did not pass (--fail-fast)',
    timeout,
    interrupted: `not finished when the wait was interrupted (${STOP_SIGNALS[interruptedBy(outcome)].words})`,
    error: `not judged: ${outcome.error?.message ?? 'a launch failed'}`,
  }
  // (a plain step judged in groups for its relaunches shows its runs, each with its group's judgement)
  const grouped = rules.grouped === true && rules.asGroups !== false
  const notJudged = `${NOT_JUDGED} ${flagDuration(outcome.timeoutS, false)}`
  const judged = new Map(state.judged().map(({group, judgement}) => [group, judgement]))
  const runs = state.entries().map((w): RunResult => {
    const run = w.run
    const created = run === undefined ? undefined : createdMs(run)
    const seenAt = wall(w.finishedAt ?? outcome.endedAt)
    const group = state.groupOf(w.id)
    const judgement = group === undefined ? undefined : judged.get(group)
    const failed = state.shortfallOf(w)
    const verdict = state.runVerdict(w)
    // finished, but not judged: the time limit cut the search for its baseline short
    const unjudged = isFinished(run) && verdict === 'unfinished' && outcome.cut === 'baselines'
    const item: RunResult = {
      id: w.id,
      evalSetId: run === undefined ? (ctx.evalSetId ?? null) : stringOrNull(run.evalSetId),
      agent: run === undefined ? null : stringOrNull(run.agent),
      model: run === undefined ? null : stringOrNull(run.model),
      status: run === undefined ? null : statusText(run),
      score: typeof run?.score === 'number' ? run.score : null,
      seconds: created === undefined ? null : Math.max(0, Math.round(seenAt - created) / 1000),
      createdAt: run === undefined ? null : stringOrNull(run.createdAt),
      verdict,
      outcome: failed ? 'failed' : isFinished(run) && !unjudged ? 'passed' : 'skipped',
      ...(run === undefined ? {} : {run}),
    }
    if (!grouped && judgement !== undefined) item.decision = judgement.decision
    if (failed) item.failure = {rule: failed.rule, reason: failed.reason}
    if (item.outcome === 'skipped')
      item.skipped = `${unjudged ? notJudged : why[outcome.end]}${run === undefined ? ' (not found yet)' : ` (${statusText(run)})`}`
    if (!grouped && judgement?.note !== undefined) item.note = judgement.note
    if (!grouped) Object.assign(item, judgedFigures(state, group, judgement))
    return item
  })
  const result: GateResult = {
    end: outcome.end,
    ...(outcome.cut === undefined ? {} : {cut: outcome.cut}),
    ...(outcome.end === 'interrupted' ? {signal: interruptedBy(outcome)} : {}),
    ...(outcome.end === 'error' && outcome.error !== undefined ? {error: {code: outcome.error.code, message: outcome.error.message}} : {}),
    org: ctx.org,
    host: ctx.host,
    rules: {...resultRules(outcome), auto: ctx.auto, resolution: state.resolution(REPEAT.max)},
    runs,
    unfinishedRunIds: [...state.unfinished().map((w) => w.id), ...(ctx.unwatched ?? [])],
  }
  if (grouped) {
    const byId = new Map(runs.map((r) => [r.id, r]))
    result.groups = [...judged].map(([group, judgement]) => groupResult(state, group, judgement, byId, why[outcome.end], notJudged))
  }
  return result
}

function resultRules(outcome: FinalOutcome): ResultRules {
  const {rules} = outcome.state
  const baseline = rules.baseline
  return {
    minScore: rules.minScore,
    maxDrop: rules.maxDrop,
    maxDropSd: rules.maxDropSd,
    baseline: baseline === undefined ? undefined : baseline.kind === 'run' ? baseline.baseline.runId : baseline.kind,
    baselineWindowS: baseline?.kind === 'history' || baseline?.kind === 'previous' ? baseline.windowS : undefined,
    baselineRuns: baseline?.kind === 'history' ? baseline.runs : undefined,
    baselineFile: baseline?.kind === 'file' ? {path: baseline.path, savedAt: baseline.file.savedAt, maxAgeS: baseline.maxAgeS} : undefined,
    confidence: baseline !== undefined && 'confidence' in baseline ? baseline.confidence : undefined,
    comparisons: judgesNoise(baseline?.kind) ? outcome.state.comparisons() : undefined,
    requireBaseline: rules.requireBaseline || undefined,
    timeoutS: outcome.timeoutS,
  }
}

function groupResult(
  state: WatchState,
  group: Group,
  judgement: Judgement,
  runs: ReadonlyMap<string, RunResult>,
  skippedWhy: string,
  notJudged: string,
): GroupResult {
  const members = group.runIds.map((id) => runs.get(id) as RunResult)
  const first = members[0]
  const item: GroupResult = {
    id: group.id,
    evalSetId: first?.evalSetId ?? null,
    agent: first?.agent ?? null,
    model: first?.model ?? null,
    runIds: [...group.runIds],
    scores: members.map((r) => r.score),
    statuses: members.map((r) => r.status),
    score: judgement.score,
    seconds: members.reduce<number | null>((max, r) => (r.seconds === null ? max : Math.max(max ?? 0, r.seconds)), null),
    verdict: judgement.verdict,
    outcome: judgement.fails && judgement.decided ? 'failed' : judgement.decided ? 'passed' : 'skipped',
    decision: judgement.decision,
    failures: judgement.failures,
    flaky: judgement.flaky,
    k: judgement.k,
    decidedAt: state.rules.launches?.auto ? (judgement.decidedAt ?? null) : null,
  }
  if (item.outcome === 'failed' && judgement.shortfall) item.failure = {...judgement.shortfall}
  if (item.outcome === 'skipped')
    item.skipped =
      judgement.note === NOT_JUDGED
        ? notJudged
        : `${skippedWhy} (${members.filter((r) => r.outcome === 'skipped').length} of ${members.length} runs)`
  if (judgement.note !== undefined) item.note = judgement.note
  return Object.assign(item, judgedFigures(state, group, judgement))
}

/** A watched run as `--json` and the table give it: the run as the server gave it, then what the gate judged of it. */
export type GatedRun = Run & Judging

/** A group as `--json` and the table give it. */
export type GatedGroup = GroupFacts & Judging

/**
 * The result as a wait's `--json` document gives it (`gate`): every member of the result, its
 * runs without the server's objects (the document's runs hold those). The reports can be made
 * again from it: `amctl evals comment` prints the pull-request comment of a wait from its document.
 */
export interface ReportedResult extends ResultFacts {
  /** every watched run, in the order given */
  runs: ReportedRun[]
}

export function reportedResult(result: GateResult): ReportedResult {
  return {...result, runs: result.runs.map(({run, ...rest}) => rest)}
}

/** What `--json` gives of an assessment: its judging, not the reports' words and timing. */
function judging<T extends Assessment>({
  outcome,
  failure,
  note,
  skipped,
  seconds,
  ...judged
}: T): Omit<T, Exclude<keyof Assessment, keyof Judging>> {
  return judged
}

/**
 * The runs of `result` the wait found, as `--json` and the table give them: each the run in its
 * last known state, then its assessment (with --repeat a run carries its verdict, and its group
 * the rest).
 */
export function gatedRuns(result: GateResult): GatedRun[] {
  return result.runs.flatMap(({id, evalSetId, agent, model, status, score, createdAt, run, ...assessment}): GatedRun[] =>
    run === undefined ? [] : [{...run, ...judging(assessment)}],
  )
}

/** The groups of `result` (with --repeat), as `--json` and the table give them. */
export function gatedGroups(result: GateResult): GatedGroup[] | undefined {
  return result.groups?.map(judging)
}

/** What the verdict counts: the groups with --repeat, else the runs. */
export function judgedItems(result: GateResult): Array<RunResult | GroupResult> {
  return result.groups ?? result.runs
}

/** One line: how the wait ended, in words ("1 of 3 runs did not pass"). */
export function verdictText(result: GateResult): string {
  const items = judgedItems(result)
  const total = items.length
  const noun = result.groups ? 'group' : 'run'
  const runs = (n: number) => `${n} ${noun}${n === 1 ? '' : 's'}`
  const failed = items.filter((r) => r.outcome === 'failed').length
  const unfinished = items.filter((r) => r.outcome === 'skipped').length
  switch (result.end) {
    case 'passed':
      if (total === 0) return `no ${noun}s to judge`
      return total === 1 ? `1 ${noun} passed` : `all ${total} ${noun}s passed`
    case 'not-passed':
      if (total === 0) return 'no runs to judge: the launch started none, so nothing passed'
      return `${failed} of ${runs(total)} did not pass`
    case 'timeout': {
      const what = result.cut === 'baselines' ? 'not judged (the search for baselines was cut short)' : 'not finished'
      return `${unfinished} of ${runs(total)} ${what} within --wait-timeout ${flagDuration(result.rules.timeoutS, false)}${failed > 0 ? `; ${failed} did not pass` : ''}`
    }
    case 'interrupted':
      return `interrupted (${STOP_SIGNALS[stopSignalOf(result.signal)].words}): ${unfinished} of ${runs(total)} not finished${failed > 0 ? `; ${failed} did not pass` : ''}`
    case 'error': {
      const judged = [unfinished > 0 ? `${unfinished} of ${runs(total)} not judged` : '', failed > 0 ? `${failed} did not pass` : '']
      return [result.error?.message ?? 'a launch failed', ...judged.filter((part) => part !== '')].join('; ')
    }
  }
}

/** The suite of runs whose eval set is not known (never found before the wait ended). */
export const UNKNOWN_EVAL_SET = '(unknown eval set)'

/** The runs (and with --repeat the groups) of each eval set, in the order their first run was given (one JUnit testsuite each). */
export function byEvalSet(result: GateResult): Array<{evalSetId: string; runs: RunResult[]; groups?: GroupResult[]}> {
  const sets = new Map<string, {runs: RunResult[]; groups?: GroupResult[]}>()
  const of = (evalSetId: string | null) => {
    const key = evalSetId ?? UNKNOWN_EVAL_SET
    const set = sets.get(key) ?? {runs: [], groups: result.groups ? [] : undefined}
    sets.set(key, set)
    return set
  }
  for (const run of result.runs) of(run.evalSetId).runs.push(run)
  for (const group of result.groups ?? []) of(group.evalSetId).groups?.push(group)
  return [...sets].map(([evalSetId, set]) => ({evalSetId, ...set}))
}
