import type {Run} from '../contract/types.js'
import {TERMINAL_RUN_STATUSES} from '../contract/vocabulary.js'
import {flagDuration} from '../output/time.js'
import type {FileReportBaseline} from '../output/reports/model.js'
import type {BaselineFile} from './baseline-file.js'
import {
  detectableDrop,
  lookConfidence,
  perComparison,
  predictionMargin,
  type Quantile,
  round6,
  sdFloor,
  type ToleranceFactor,
  toleranceMargin,
} from './stats.js'

/**
 * What a wait says of each run and each group, said once (docs/ci.md "Verdicts"):
 *
 * - `passed`: succeeded, met --min-score, and (with --baseline) within noise / within --max-drop
 * - `improved`: above its baseline by more than the margin (history) or --max-drop (previous, RUN_ID)
 * - `no-baseline`: passed, but no baseline was found to compare with (fails with --require-baseline)
 * - `regressed`: below its baseline by more than max(--max-drop, margin) (history) or --max-drop
 * - `failed`: failed or cancelled (a group: half its runs or more)
 * - `below-min-score`: succeeded with a score below --min-score, or none
 * - `unfinished`: not finished when the wait ended, or finished but not judged: the time limit cut
 *   the search for its baseline short
 * - `inconclusive`: (--repeat auto) neither regressed nor cleared after the last launch; fails with --fail-inconclusive
 */
export const VERDICTS = [
  'passed',
  'improved',
  'no-baseline',
  'regressed',
  'failed',
  'below-min-score',
  'unfinished',
  'inconclusive',
] as const
export type RunVerdict = (typeof VERDICTS)[number]

/** Why a finished run or group is `unfinished`: the time limit cut the search for its baseline short. */
export const NOT_JUDGED = 'not judged: the search for its baseline was cut short by --wait-timeout'

/** The verdicts that fail a step (exit 10); `no-baseline` too under --require-baseline. */
const FAILING: ReadonlySet<RunVerdict> = new Set(['regressed', 'failed', 'below-min-score'])

/** A run another is compared with (`--baseline previous|RUN_ID`): what --json shows as `baseline`. */
export interface Baseline {
  runId: string
  score: number
}

/** `--baseline history`: the earlier runs a group is judged against, as --json shows them. */
export interface HistoryBaseline {
  kind: 'history'
  /** runs kept (outliers set aside) */
  runs: number
  mean: number
  /** the sample standard deviation of the runs kept (the margin uses at least ./stats.ts sdFloor) */
  sd: number
  /** --baseline-window as given ("30d"), or null for no limit */
  window: string | null
  /** the runs kept, oldest first, and their scores in the same order */
  runIds: string[]
  scores: number[]
  /** runs set aside as outliers */
  outliers: Baseline[]
}

/** `--baseline-file`: a group's runs in the baseline file, as --json and the reports show them. */
export type FileBaseline = FileReportBaseline

/** A baseline of many runs, judged by the noise of their scores: a history, or a group of a baseline file. */
export type SampleBaseline = HistoryBaseline | FileBaseline

export type GateBaseline = Baseline | SampleBaseline

export const isHistory = (baseline: GateBaseline | null | undefined): baseline is HistoryBaseline =>
  baseline != null && 'kind' in baseline && baseline.kind === 'history'

export const isSample = (baseline: GateBaseline | null | undefined): baseline is SampleBaseline =>
  baseline != null && 'kind' in baseline && (baseline.kind === 'history' || baseline.kind === 'file')

/** Whether a choice of baseline judges the noise of many runs (a history, a baseline file): margins, the correction. */
export const judgesNoise = (kind: string | undefined): boolean => kind === 'history' || kind === 'file'

/** Where each group's baseline comes from. */
export type BaselineChoice =
  | {kind: 'previous'; windowS: number}
  | {kind: 'run'; baseline: Baseline}
  | {kind: 'history'; windowS: number; runs: number; confidence: number}
  | FileChoice

/** `--baseline-file`: the file, read and checked (./baseline-file.ts), and what to do with it. */
export interface FileChoice {
  kind: 'file'
  /** as given */
  path: string
  file: BaselineFile
  /** --baseline-max-age in seconds; 0 = never stale */
  maxAgeS: number
  /** --update-baseline */
  update: boolean
  confidence: number
}

/** What makes a finished run or group pass (contract 5, and the regression gate of docs/ci.md). */
export interface WatchRules {
  /** end at the first run or group that did not pass */
  failFast: boolean
  /** a succeeded run also needs a score of at least this (0–1) */
  minScore?: number
  /** --baseline: each group is compared with a baseline */
  baseline?: BaselineChoice
  /** --max-drop: the smallest drop that fails (previous, RUN_ID: the only rule; history: with the margin) */
  maxDrop?: number
  /** --require-baseline: a group without a baseline fails */
  requireBaseline?: boolean
  /** --repeat: the runs of one eval set, agent and model are judged as one group */
  grouped?: boolean
  /** --baseline history, --baseline-file: Student's t quantile (loaded before the wait: ./stats.ts loadQuantile) */
  quantile?: Quantile
  /** --baseline-file: the tolerance factor of a file's margin (./stats.ts loadToleranceFactor) */
  tolerance?: ToleranceFactor
  /** --repeat auto: which launch this is, of how many at most, and what the earlier ones decided */
  sequential?: Sequential
  /** --repeat auto --fail-inconclusive: a group still undecided after the last launch fails */
  failInconclusive?: boolean
}

/** `--repeat auto`: the look (launch) a wait judges, and the groups decided before it (./stats.ts lookConfidence). */
export interface Sequential {
  /** this launch, 1 … looks */
  look: number
  /** --max-repeat */
  looks: number
  /** by group ID: the judgement an earlier launch decided it with (its decidedAt says which); it stays decided */
  decided: ReadonlyMap<string, Judgement>
}

/** Which rule a run or group did not pass. */
export type GateRule = 'status' | 'min-score' | 'max-drop' | 'noise' | 'baseline' | 'inconclusive'

export interface Shortfall {
  rule: GateRule
  /** one sentence for people: "failed", "scored 0.41 (below 0.5)", "scored 0.61, 0.12 below the mean of …" */
  reason: string
}

/** One watched run: its last known state and when the watch saw it finish. */
export interface Watched {
  id: string
  /** the last known state; undefined until the first poll found it */
  run?: Run
  /** when (clock ms) a poll first found it finished */
  finishedAt?: number
  /** it was already finished when the watch first found it */
  finishedBefore?: boolean
}

/** Runs judged together: one run, or with --repeat the runs of one eval set, agent and model. */
export interface Group {
  /** a run's ID, or with --repeat "<eval set> <agent> / <model>" */
  id: string
  runIds: string[]
  /** with --baseline: its baseline, null when none was found; undefined until looked up (or when the time limit cut the search short) */
  baseline?: GateBaseline | null
  /** --baseline history without a baseline: how many earlier runs were found */
  historyFound?: number
  /** --baseline-file without a baseline: why (the file has no such group, too few runs, another eval set) */
  missing?: string
}

/** What a group's judgement says (every output renders this). */
export interface Judgement {
  verdict: RunVerdict
  /** it fails the step (a failing verdict, or no-baseline under --require-baseline) */
  fails: boolean
  /** the verdict can no longer change (every run finished, or failures alone decided it) */
  decided: boolean
  /** why, in one sentence: for a failure, and for every comparison with a history */
  shortfall?: Shortfall
  /** a sentence for the passing verdicts (within noise, improved, flaky, no baseline) */
  note?: string
  /** the group's score: the mean of its succeeded runs' scores (a run's own score alone) */
  score: number | null
  /** how many scores that mean holds */
  k: number
  /** runs that failed or were cancelled */
  failures: number
  /** some runs failed, fewer than half: judged on the others */
  flaky: boolean
  /** score minus the baseline's (its mean with history), 6 decimals */
  delta: number | null
  /** --baseline history: the prediction margin */
  margin: number | null
  /** --baseline history: the confidence each group was judged at (Bonferroni over the groups judged) */
  confidence: number | null
  /** --baseline history or --baseline-file: the smallest true drop this judgement finds 4 times in 5 (./stats.ts detectableDrop) */
  detectable: number | null
  /** --repeat auto: the launch that decided it (null: inconclusive, or not decided yet) */
  decidedAt?: number | null
  /** --repeat auto: undecided, and a further launch may decide it */
  more?: boolean
}

/** What a step could see, when it is less than --max-drop (WatchState.resolution). */
export interface Resolution {
  /** the largest `detectable` of the groups judged */
  detectable: number
  maxDrop: number
  /** the smallest --repeat that would see --max-drop, or null when none up to `upTo` would */
  repeat: number | null
  upTo: number
}

/** A run whose status a poll found changed (`from` is undefined the first time it is found). */
export interface RunChange {
  id: string
  from?: string
  to: string
  run: Run
}

/** How a wait ends; `undecided` (--repeat auto): every run finished, some group needs another launch. */
export type Verdict = 'passed' | 'not-passed' | 'undecided'

/** succeeded, failed or cancelled; any other status, known or not, counts as not finished. */
export function isFinished(run: Run | undefined): boolean {
  return run !== undefined && typeof run.status === 'string' && TERMINAL_RUN_STATUSES.includes(run.status)
}

/** A status as text, whatever the server sent (a status that is not a string is shown as JSON). */
export function statusText(run: Run): string {
  return typeof run.status === 'string' ? run.status : JSON.stringify(run.status)
}

/** Numbers as people read them in reasons: 0.27, not 0.27000000000000002. */
const shown = (n: number): string => String(Number(n.toFixed(6)))
/** Scores in sentences: two decimals. */
export const two = (n: number): string => n.toFixed(2)
/** 0.95 → "95 %", 0.975 → "97.5 %" (as the docs write it) */
export const percent = (c: number): string => `${Number((c * 100).toFixed(2))} %`

/**
 * A run's score minus its baseline's, rounded to 6 decimals (0.8 - 0.7 is 0.1, not
 * 0.10000000000000009, so --max-drop 0.1 lets it pass); null when either has no score.
 */
export function scoreDelta(run: Run, baseline: Baseline | null | undefined): number | null {
  if (baseline === null || baseline === undefined || typeof run.score !== 'number') return null
  return round6(run.score - baseline.score)
}

/** `mean ± sd (n)`: a history or a group of a baseline file as the table and the summary show it. */
export function historyText(history: SampleBaseline): string {
  return `${two(history.mean)} ± ${two(history.sd)} (${history.runs})`
}

/** "the baseline in base.json is stale: its newest run is 45d old (--baseline-max-age 30d)" */
export function staleness(baseline: FileBaseline, choice: BaselineChoice): string {
  const maxAge = choice.kind === 'file' ? flagDuration(choice.maxAgeS) : ''
  const newest = baseline.newestRunAt ?? baseline.savedAt
  return `the baseline in ${baseline.path} is stale: its newest run of this agent and model was created ${newest}, more than --baseline-max-age ${maxAge} ago`
}

/**
 * The line that says a step could not see the drop that matters (WatchState.resolution): "this
 * step could only see drops of 0.09 or more; --repeat 4 would see 0.05".
 */
export function resolutionText(hint: Resolution): string {
  const could = `this step could only see drops of ${two(hint.detectable)} or more`
  if (hint.repeat !== null) return `${could}; --repeat ${hint.repeat} would see ${hint.maxDrop}`
  return `${could}; no --repeat up to ${hint.upTo} would see ${hint.maxDrop} against baselines of so few runs (keep more)`
}

/**
 * The noise margin of the mean of `k` scores against a history (the prediction bound) or a group
 * of a baseline file (the tolerance bound: ./stats.ts), at `confidence`.
 */
export function noiseMargin(rules: WatchRules, baseline: SampleBaseline, k: number, confidence: number, floor: number): number {
  const sample = {n: baseline.runs, sd: baseline.sd}
  if (baseline.kind === 'file') {
    if (rules.tolerance === undefined) throw new Error('the baseline file is judged without its tolerance factor')
    return toleranceMargin(rules.tolerance, sample, k, confidence, floor)
  }
  if (rules.quantile === undefined) throw new Error('the history gate judges without a t quantile')
  return predictionMargin(rules.quantile, sample, k, confidence, floor)
}

/**
 * Why a finished run did not pass on its own, or undefined: its status, then --min-score, then
 * (--baseline previous|RUN_ID) --max-drop. The rules of one run judged alone against one baseline
 * run; WatchState.judge applies the same to groups and histories.
 */
export function shortfall(run: Run, rules: Pick<WatchRules, 'minScore' | 'maxDrop'>, baseline?: Baseline | null): Shortfall | undefined {
  const {minScore, maxDrop} = rules
  if (run.status !== 'succeeded') return {rule: 'status', reason: statusText(run)}
  if (minScore !== undefined) {
    if (typeof run.score !== 'number') return {rule: 'min-score', reason: `succeeded without a score (--min-score ${minScore})`}
    if (run.score < minScore) return {rule: 'min-score', reason: `scored ${run.score} (below ${minScore})`}
  }
  if (maxDrop !== undefined && baseline) {
    const against = `baseline ${baseline.runId} (${shown(baseline.score)}; --max-drop ${maxDrop})`
    const delta = scoreDelta(run, baseline)
    if (delta === null) return {rule: 'max-drop', reason: `succeeded without a score, ${against}`}
    if (-delta > maxDrop) return {rule: 'max-drop', reason: `scored ${shown(run.score as number)}, ${shown(-delta)} below ${against}`}
  }
  return undefined
}

/**
 * The state machine of a wait: each watched run's last known state, what a poll changed, the
 * groups judged (each run alone, or with --repeat the runs of one eval set, agent and model),
 * and the verdict. A run is final once finished (its later states are not read); the wait
 * passes when every group is decided and none fails, does not pass when every group is decided
 * and some fails — or, with --fail-fast, as soon as one does — and goes on otherwise.
 */
export class WatchState {
  private readonly watched: Map<string, Watched>
  private groupList?: Group[]
  private groupById?: Map<string, Group>

  /** `ids` without duplicates, in the order given. */
  constructor(
    ids: readonly string[],
    readonly rules: WatchRules,
  ) {
    this.watched = new Map(ids.map((id) => [id, {id}]))
  }

  /** Every watched run, in the order given. */
  entries(): Watched[] {
    return [...this.watched.values()]
  }

  /** The IDs a poll still looks for: every run not finished yet. */
  pending(): Set<string> {
    return new Set(
      this.entries()
        .filter((w) => !isFinished(w.run))
        .map((w) => w.id),
    )
  }

  /** Takes what a poll found for the pending runs; returns the status changes. */
  apply(found: ReadonlyMap<string, Run>, now: number): RunChange[] {
    const changes: RunChange[] = []
    for (const w of this.watched.values()) {
      const run = found.get(w.id)
      if (run === undefined || isFinished(w.run)) continue
      const from = w.run === undefined ? undefined : statusText(w.run)
      const to = statusText(run)
      if (isFinished(run)) {
        w.finishedAt = now
        w.finishedBefore = w.run === undefined
      }
      w.run = run
      if (from !== to) changes.push({id: w.id, from, to, run})
    }
    return changes
  }

  /**
   * The groups judged: each run alone, or (--repeat) the runs of one eval set, agent and model,
   * in the order their first run was given. Formed once, when every run has been found (before
   * that, a run not found yet is its own group).
   */
  groups(): Group[] {
    if (this.groupList) return this.groupList
    const entries = this.entries()
    // each run alone: known from the start; grouped: once every run is known
    const complete = !this.rules.grouped || entries.every((w) => w.run !== undefined)
    let groups: Group[]
    if (!complete || !this.rules.grouped) {
      groups = entries.map((w) => ({id: w.id, runIds: [w.id]}))
    } else {
      const byKey = new Map<string, Group>()
      for (const w of entries) {
        const run = w.run as Run
        const key = JSON.stringify([run.evalSetId, run.agent, run.model])
        const group = byKey.get(key) ?? {id: groupLabel(run), runIds: []}
        group.runIds.push(w.id)
        byKey.set(key, group)
      }
      groups = [...byKey.values()]
    }
    if (complete) {
      this.groupList = groups
      this.groupById = new Map(groups.flatMap((g) => g.runIds.map((id) => [id, g] as const)))
    }
    return groups
  }

  /** The watched runs of a group. */
  runsOf(group: Group): Watched[] {
    return group.runIds.map((id) => this.watched.get(id) as Watched)
  }

  /** The group a run belongs to. */
  groupOf(id: string): Group | undefined {
    return this.groupById?.get(id) ?? this.groups().find((g) => g.runIds.includes(id))
  }

  /** Whether the baselines are still to be looked up (--baseline, before the first verdict). */
  needsBaselines(): boolean {
    return this.rules.baseline !== undefined && this.groups().some((g) => g.baseline === undefined)
  }

  /**
   * Sets each group's baseline: from `found` (by group ID; absent = none), or the one run of
   * `--baseline RUN_ID`. `historyFound`: with --baseline history, how many earlier runs each
   * group without a baseline had.
   */
  setBaselines(
    found: ReadonlyMap<string, GateBaseline>,
    historyFound?: ReadonlyMap<string, number>,
    missing?: ReadonlyMap<string, string>,
  ): void {
    const fixed = this.rules.baseline?.kind === 'run' ? this.rules.baseline.baseline : undefined
    for (const group of this.groups()) {
      group.baseline = fixed ?? found.get(group.id) ?? null
      if (group.baseline === null && historyFound !== undefined) group.historyFound = historyFound.get(group.id) ?? 0
      if (group.baseline === null && missing?.has(group.id)) group.missing = missing.get(group.id)
    }
  }

  /** How many groups are compared with a history or a baseline file in this step (the m of the correction). */
  comparisons(): number {
    return this.groups().filter((g) => isSample(g.baseline)).length
  }

  /** The groups judged against a stale group of the baseline file. */
  stale(): Group[] {
    return this.groups().filter((g) => g.baseline != null && 'kind' in g.baseline && g.baseline.kind === 'file' && g.baseline.stale)
  }

  /** The judgement of one group (see VERDICTS and docs/ci.md "Verdicts"). */
  judge(group: Group): Judgement {
    const {rules} = this
    const runs = this.runsOf(group)
    const size = runs.length
    const failed = runs.filter((w) => isFinished(w.run) && w.run?.status !== 'succeeded')
    const failures = failed.length
    const unfinished = runs.filter((w) => !isFinished(w.run)).length
    const seq = rules.sequential
    const frozen = seq?.decided.get(group.id)
    if (frozen !== undefined) return frozen
    const stamp = (j: Judgement): Judgement =>
      seq === undefined ? j : {...j, decidedAt: j.decided && j.verdict !== 'inconclusive' ? seq.look : null}
    const empty = {score: null, k: 0, failures, flaky: false, delta: null, margin: null, confidence: null, detectable: null}
    if (failures > 0 && failures * 2 >= size) {
      const statuses = [...new Set(failed.map((w) => statusText(w.run as Run)))].join(', ')
      const reason = size === 1 ? statuses : `${failures} of ${size} runs did not succeed (${statuses})`
      return stamp({...empty, verdict: 'failed', fails: true, decided: true, shortfall: {rule: 'status', reason}})
    }
    if (unfinished > 0) return {...empty, verdict: 'unfinished', fails: false, decided: false}
    const succeeded = runs.filter((w) => w.run?.status === 'succeeded').map((w) => w.run as Run)
    const scores = succeeded.map((run) => run.score).filter((s): s is number => typeof s === 'number')
    const unscored = scores.length < succeeded.length
    const k = scores.length
    const score = k === 0 ? null : round6(scores.reduce((a, b) => a + b, 0) / k)
    const flaky = failures > 0
    const of = size === 1 ? '' : ` (mean of ${k} run${k === 1 ? '' : 's'})`
    const scored = (n: number) => `scored ${two(n)}${of}`
    const base = {score, k, failures, flaky, delta: null, margin: null, confidence: null, detectable: null}
    const flakyNote = flaky ? `flaky: ${failures} of ${size} runs did not succeed; judged on the other ${size - failures}` : undefined
    const {minScore, maxDrop} = rules
    // --min-score is judged before the baseline, whose delta and margin are still shown
    let below: Shortfall | undefined
    if (minScore !== undefined) {
      if (unscored || score === null) below = {rule: 'min-score', reason: `succeeded without a score (--min-score ${minScore})`}
      else if (score < minScore) {
        below = {rule: 'min-score', reason: size === 1 ? `scored ${score} (below ${minScore})` : `${scored(score)}, below ${minScore}`}
      }
    }
    const done = (j: Omit<Judgement, 'decided' | 'fails'> & {fails?: boolean}): Judgement => {
      if (below !== undefined) {
        return stamp({...j, verdict: 'below-min-score', shortfall: below, note: flakyNote, fails: true, decided: true, more: false})
      }
      const note = [j.note, flakyNote].filter((n) => n !== undefined).join('; ') || undefined
      return stamp({...j, note, fails: j.fails ?? FAILING.has(j.verdict), decided: true})
    }
    const choice = rules.baseline
    if (choice === undefined) return done({...base, verdict: 'passed'})
    const baseline = group.baseline
    if (baseline === undefined) {
      // never looked up (the time limit cut the search short): not judged, but --min-score is
      if (below !== undefined) return done({...base, verdict: 'below-min-score'})
      return stamp({...base, verdict: 'unfinished', fails: false, decided: false, note: NOT_JUDGED})
    }
    const noBaseline = (text: string): Judgement =>
      done({
        ...base,
        verdict: 'no-baseline',
        fails: rules.requireBaseline === true,
        ...(rules.requireBaseline ? {shortfall: {rule: 'baseline', reason: `${text} (--require-baseline)`}} : {note: text}),
      })
    if (baseline == null) {
      const why =
        choice.kind === 'history'
          ? `${group.historyFound ?? 0} earlier run${group.historyFound === 1 ? '' : 's'} of the same eval set, agent and model succeeded with a score${choice.windowS > 0 ? ` within ${flagDuration(choice.windowS)}` : ''} (at least 3 needed)`
          : choice.kind === 'file'
            ? (group.missing ?? `${choice.path} has no runs of it`)
            : 'no earlier run of the same eval set, agent and model succeeded with a score'
      return noBaseline(`no baseline: ${why}`)
    }
    if (!isSample(baseline)) {
      const delta = score === null ? null : round6(score - baseline.score)
      if (maxDrop === undefined) return done({...base, delta, verdict: 'passed'})
      const against = `baseline ${baseline.runId} (${shown(baseline.score)}; --max-drop ${maxDrop})`
      if (unscored || score === null || delta === null) {
        return done({...base, delta, verdict: 'regressed', shortfall: {rule: 'max-drop', reason: `succeeded without a score, ${against}`}})
      }
      if (-delta > maxDrop) {
        const reason = `${size === 1 ? `scored ${shown(score)}` : scored(score)}, ${shown(-delta)} below ${against}`
        return done({...base, delta, verdict: 'regressed', shortfall: {rule: 'max-drop', reason}})
      }
      if (delta > maxDrop) return done({...base, delta, verdict: 'improved', note: `${shown(delta)} above ${against}`})
      return done({...base, delta, verdict: 'passed'})
    }
    // --baseline history, --baseline-file: the noise of many runs
    const staleText = baseline.kind === 'file' && baseline.stale ? staleness(baseline, choice) : undefined
    if (staleText !== undefined && rules.requireBaseline) return noBaseline(`no baseline: ${staleText}`)
    const level = 'confidence' in choice ? choice.confidence : 0.95
    const looks = seq === undefined ? undefined : lookConfidence(level, this.comparisons(), seq.looks)
    const confidence = looks?.regress ?? perComparison(level, this.comparisons())
    // the floor of scores that move in steps: the baseline's and these, so they can only make it finer
    const floor = sdFloor([...baseline.scores, ...scores])
    const exact = noiseMargin(rules, baseline, Math.max(k, 1), confidence, floor)
    const margin = round6(exact)
    const quantile = rules.quantile as Quantile
    const detectable = round6(detectableDrop(quantile, exact, {n: baseline.runs, sd: baseline.sd}, Math.max(k, 1), floor))
    const held = `${baseline.runs} ${baseline.kind === 'file' ? `run${baseline.runs === 1 ? '' : 's'} in ${baseline.path}` : `earlier run${baseline.runs === 1 ? '' : 's'}`}`
    const history = `the mean of ${held} (${two(baseline.mean)} ± ${two(baseline.sd)})`
    const staleNote = staleText === undefined ? {} : {note: staleText}
    if (unscored || score === null) {
      return done({
        ...base,
        ...staleNote,
        margin,
        detectable,
        confidence: round6(confidence),
        verdict: 'regressed',
        shortfall: {rule: 'noise', reason: `succeeded without a score, against ${history}`},
      })
    }
    const delta = round6(score - baseline.mean)
    const judged = {...base, ...staleNote, delta, margin, detectable, confidence: round6(confidence)}
    const gap = `${two(Math.abs(delta))} ${delta < 0 ? 'below' : 'above'} ${history}`
    const atLevel = `noise at ${percent(level)}`
    const noted = (text: string) => [text, staleText].filter((n) => n !== undefined).join('; ')
    if (-delta > Math.max(maxDrop ?? 0, margin)) {
      const beyond = maxDrop !== undefined && maxDrop > margin ? `more than --max-drop ${maxDrop}` : `beyond ${atLevel}`
      return done({
        ...judged,
        verdict: 'regressed',
        shortfall: {rule: maxDrop !== undefined && maxDrop > margin ? 'max-drop' : 'noise', reason: `${scored(score)}, ${gap}: ${beyond}`},
      })
    }
    if (delta > margin) return done({...judged, verdict: 'improved', note: noted(`${scored(score)}, ${gap}: beyond ${atLevel}`)})
    if (seq === undefined || looks === undefined || maxDrop === undefined) {
      return done({...judged, verdict: 'passed', note: noted(`${scored(score)}, ${gap}: within ${atLevel}`)})
    }
    // --repeat auto: cleared when even the upper confidence bound of the drop is below D
    const upper = round6(-delta + noiseMargin(rules, baseline, Math.max(k, 1), looks.clear, floor))
    const bound = `the drop's upper bound at ${percent(level)} is ${two(upper)}`
    if (upper < maxDrop) {
      return done({...judged, verdict: 'passed', note: noted(`${scored(score)}, ${gap}: cleared, ${bound}, below --max-drop ${maxDrop}`)})
    }
    const open = `${scored(score)}, ${gap}: ${bound}, not below --max-drop ${maxDrop}, and the drop is not beyond ${atLevel}`
    if (seq.look < seq.looks) return done({...judged, verdict: 'inconclusive', fails: false, more: true, note: noted(`${open}: undecided`)})
    const after = `inconclusive after ${seq.looks} launch${seq.looks === 1 ? '' : 'es'} (--max-repeat ${seq.looks})`
    if (rules.failInconclusive) {
      return done({
        ...judged,
        verdict: 'inconclusive',
        fails: true,
        more: false,
        shortfall: {rule: 'inconclusive', reason: `${open}: ${after} (--fail-inconclusive)`},
      })
    }
    return done({...judged, verdict: 'inconclusive', fails: false, more: false, note: noted(`${open}: ${after}`)})
  }

  /** Every group with its judgement, in order. */
  judged(): Array<{group: Group; judgement: Judgement}> {
    return this.groups().map((group) => ({group, judgement: this.judge(group)}))
  }

  /** A run's own verdict: failed or unfinished on its own, else its group's. */
  runVerdict(w: Watched): RunVerdict {
    if (!isFinished(w.run)) return 'unfinished'
    if (w.run?.status !== 'succeeded') return 'failed'
    const group = this.groupOf(w.id)
    return group === undefined ? 'passed' : this.judge(group).verdict
  }

  /** The shortfall of the group of one watched run, if it is decided and fails. */
  shortfallOf(w: Watched): Shortfall | undefined {
    const group = this.groupOf(w.id)
    if (group === undefined) return undefined
    const j = this.judge(group)
    if (!j.fails || !j.decided) return undefined
    if (group.runIds.length > 1 && w.run?.status === 'succeeded' && j.shortfall?.rule === 'status') return undefined
    return j.shortfall
  }

  /** The groups decided and failing, with the rule and why (by group ID: a run's ID when each run is judged alone). */
  failures(): Array<{id: string} & Shortfall> {
    const out: Array<{id: string} & Shortfall> = []
    for (const {group, judgement} of this.judged()) {
      if (judgement.fails && judgement.decided && judgement.shortfall) out.push({id: group.id, ...judgement.shortfall})
    }
    return out
  }

  /** The runs not finished yet. */
  unfinished(): Watched[] {
    return this.entries().filter((w) => !isFinished(w.run))
  }

  /**
   * undefined while the wait goes on. A wait with no runs at all (a launch that started none) does
   * not pass. With --repeat auto, `undecided` once every group is decided but some would take
   * another launch (and none failed: then no launch can change the step's outcome).
   */
  verdict(): Verdict | undefined {
    if (this.watched.size === 0) return 'not-passed'
    const judged = this.judged().map((j) => j.judgement)
    const failed = judged.some((j) => j.fails && j.decided)
    if (failed && this.rules.failFast) return 'not-passed'
    if (judged.some((j) => !j.decided)) return undefined
    if (failed) return 'not-passed'
    return judged.some((j) => j.more) ? 'undecided' : 'passed'
  }

  /**
   * With --max-drop D > 0 and a fixed number of runs, when the step could not see a drop of D: the
   * largest `detectable` of the groups judged against a history or file, and the smallest K up to
   * `maxRepeat` whose k = K runs a group would see D (null when none would: the baseline's own
   * runs limit it). Undefined when every judged group sees D, or nothing is judged that way.
   */
  resolution(maxRepeat: number): Resolution | undefined {
    const {rules} = this
    const maxDrop = rules.maxDrop
    if (maxDrop === undefined || maxDrop <= 0 || rules.sequential !== undefined) return undefined
    const judged = this.judged().filter(({group, judgement}) => isSample(group.baseline) && judgement.detectable !== null)
    const worst = Math.max(...judged.map(({judgement}) => judgement.detectable as number))
    if (judged.length === 0 || worst <= maxDrop) return undefined
    const choice = rules.baseline
    const level = choice !== undefined && 'confidence' in choice ? choice.confidence : 0.95
    const confidence = perComparison(level, this.comparisons())
    const sees = (k: number) =>
      judged.every(({group}) => {
        const baseline = group.baseline as SampleBaseline
        const floor = sdFloor(baseline.scores)
        const margin = noiseMargin(rules, baseline, k, confidence, floor)
        return detectableDrop(rules.quantile as Quantile, margin, {n: baseline.runs, sd: baseline.sd}, k, floor) <= maxDrop
      })
    let repeat: number | null = null
    for (let k = 1; k <= maxRepeat && repeat === null; k++) if (sees(k)) repeat = k
    return {detectable: worst, maxDrop, repeat, upTo: maxRepeat}
  }

  /** The last known state of every run found so far, in the order given. */
  runs(): Run[] {
    return this.entries().flatMap((w) => (w.run === undefined ? [] : [w.run]))
  }
}

/** "<eval set> <agent> / <model>": a group as people read it. */
export function groupLabel(run: Run): string {
  const text = (v: unknown, absent: string) => (typeof v === 'string' ? v : v == null ? absent : JSON.stringify(v))
  return `${text(run.evalSetId, '(no eval set)')} ${text(run.agent, '(no agent)')} / ${text(run.model, '(no model)')}`
}
