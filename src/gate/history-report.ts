import type {Run} from '../contract/types.js'
import {counted} from '../output/format.js'
import {flagDuration} from '../output/time.js'
import {fileBaselineOf} from './baseline.js'
import {type BaselineFile, fileGroupOf, groupName} from './baseline-file.js'
import {type EvalStats, type EvalStatsGroup, EvalStatsTally} from './history-stats.js'
import type {Judge} from './history-verdict.js'
import {type ReportGroup, type ReportModel, RunColumns, Statuses, type Tone} from './reports/html.js'
import type {FileChoice, WatchRules} from './rules.js'
import {HISTORY} from './stats.js'
import {oneRunMargin} from './verdict.js'

/**
 * `amctl evals report`: the history of one eval set over a window, as `evals stats` reads it
 * (./history-stats.ts EvalStatsTally: newest first, each run counted once), kept for the HTML
 * report (./reports/html.ts): every run of the window, per agent × model, as columns
 * (RunColumns: an ID, a date, a score, a status; no Run object is kept), and each group's
 * verdict and shift from the tally.
 */

/** How many points a chart of the history draws at most; beyond it, evenly spaced runs (the table keeps every run). */
export const MAX_POINTS = 2000

/** The verdicts of `evals stats` as a report colours them. */
const TONE: Record<EvalStatsGroup['verdict'], Tone> = {stable: 'pass', shifted: 'warn', flaky: 'fail', 'too-few': 'none'}

/** `--baseline-file` of `evals report`: the file, and the gate's rules its margins are computed with. */
export interface ReportBaselineFile {
  path: string
  file: BaselineFile
  /** the file records its runs' outcomes (version 2) */
  outcomes: boolean
  /** the tolerance factor and the t quantile (../stats.ts), and --confidence */
  rules: WatchRules
}

export interface HistoryReportOptions {
  now: number
  windowS: number
  judge: Judge
  org: string
  runUrl?: string
  baselineFile?: ReportBaselineFile
}

/** Keeps the runs of the window while the tally counts them: fed newest first, like EvalStatsTally. */
export class HistoryReport {
  readonly tally: EvalStatsTally
  readonly statuses = new Statuses()
  /** by agent, then model */
  private readonly groups = new Map<string | null, Map<string | null, RunColumns>>()
  private oldestFirst = false

  constructor(evalSetId: string, since: number | undefined) {
    this.tally = new EvalStatsTally(evalSetId, since, (run, target) => this.keep(run, target))
  }

  /** Counts `run` (see EvalStatsTally.add); true when it is older than the window. */
  add(run: Run): boolean {
    return this.tally.add(run)
  }

  private keep(run: Run, target: {agent: string | null; model: string | null; score: number | null; at: number}): void {
    let models = this.groups.get(target.agent)
    if (models === undefined) {
      models = new Map()
      this.groups.set(target.agent, models)
    }
    let runs = models.get(target.model)
    if (runs === undefined) {
      runs = new RunColumns()
      models.set(target.model, runs)
    }
    const status = typeof run.status === 'string' ? run.status : JSON.stringify(run.status)
    runs.add(run.id, target.at, status === 'succeeded' ? target.score : null, this.statuses.of(status), 'history')
  }

  /** The stats of the window (as `evals stats --json` gives them) and the report model. */
  result(options: HistoryReportOptions): {stats: EvalStats; model: ReportModel} {
    const stats = this.tally.result(options.windowS, options.now, options.judge)
    if (!this.oldestFirst) {
      // kept as they came, newest first: drawn oldest first (reversed in place, once)
      for (const models of this.groups.values()) for (const runs of models.values()) runs.reverse()
      this.oldestFirst = true
    }
    const file = options.baselineFile
    const banded = file === undefined ? 0 : stats.groups.filter((g) => bandable(file, g)).length
    const groups = stats.groups.map((group): ReportGroup => {
      const runs = this.groups.get(group.agent)?.get(group.model) ?? new RunColumns()
      const label = `${stats.evalSetId} ${groupName(group)}`
      const figures: Array<[string, string]> = [
        ['Runs', String(group.runs)],
        ['Scored', String(group.scored)],
        ['Mean', group.mean === null ? '—' : String(group.mean)],
        ['SD', group.sd === null ? '—' : String(group.sd)],
        ['Failed', group.share === null ? '—' : `${Number((group.share.failed * 100).toFixed(2))} %`],
        ['Cancelled', group.share === null ? '—' : `${Number((group.share.cancelled * 100).toFixed(2))} %`],
      ]
      const out: ReportGroup = {label, verdicts: [], runs, maxPoints: MAX_POINTS}
      if (group.shift !== null) {
        const {shift} = group
        out.change = {runId: shift.runId, at: Date.parse(shift.createdAt), before: shift.before, after: shift.after}
        figures.push(['Shift', `${shift.before} → ${shift.after} at ${shift.runId}`])
      }
      const entry = file === undefined ? undefined : fileGroupOf(file.file, group.agent, group.model)
      if (file !== undefined && entry !== undefined && bandable(file, group)) {
        const baseline = fileBaselineOf({file: file.file, path: file.path, maxAgeS: 0, outcomes: file.outcomes}, entry, options.now)
        const {margin, confidence} = oneRunMargin(file.rules, baseline, banded)
        out.band = {
          mean: baseline.mean,
          sd: baseline.sd,
          bar: baseline.mean - margin,
          margin,
          source: `${file.path} (${baseline.runs} runs)`,
        }
        figures.push(
          ['Baseline', `${baseline.mean} ± ${baseline.sd} (${baseline.runs})`],
          ['Margin', String(margin)],
          ['Level', String(confidence)],
        )
      } else if (group.mean !== null && group.sd !== null) {
        out.band = {mean: group.mean, sd: group.sd, source: `the window's ${group.scored} scores`}
      }
      out.verdicts.push({
        of: 'evals stats',
        verdict: group.verdict,
        tone: TONE[group.verdict],
        ...(file !== undefined && !bandable(file, group) ? {note: `${file.path} has no baseline of this agent and model`} : {}),
        figures,
      })
      return out
    })
    const facts: Array<[string, string]> = [
      ['Organization', options.org],
      ['Eval set', stats.evalSetId],
      ['Window', options.windowS === 0 ? 'every run' : `${flagDuration(options.windowS)} (since ${stats.window.since})`],
      ['Confidence', String(options.judge.confidence)],
    ]
    if (file !== undefined) facts.push(['Baseline file', `${file.path} (saved ${file.file.savedAt})`])
    const model: ReportModel = {
      title: `amctl: ${stats.evalSetId}, ${counted(stats.runs)} run${stats.runs === 1 ? '' : 's'} ${options.windowS === 0 ? 'of any date' : `within ${flagDuration(options.windowS)}`}`,
      lede: `Each agent and model of ${stats.evalSetId} over the window, with the verdict of evals stats.`,
      tone: stats.groups.some((g) => g.verdict === 'flaky') ? 'fail' : stats.groups.some((g) => g.verdict === 'shifted') ? 'warn' : 'none',
      generatedAt: options.now,
      facts,
      ...(options.runUrl === undefined ? {} : {runUrl: options.runUrl}),
      statuses: this.statuses,
      groups,
    }
    return {stats, model}
  }
}

/** Whether a group of the history has a baseline in the file: at least HISTORY.minRuns runs of its agent and model. */
function bandable(file: ReportBaselineFile, group: {agent: string | null; model: string | null}): boolean {
  const entry = fileGroupOf(file.file, group.agent, group.model)
  return entry !== undefined && entry.runs.length >= HISTORY.minRuns
}

/** A FileChoice for the margins of `evals report --baseline-file` (never updated, never stale). */
export function reportFileChoice(path: string, file: BaselineFile, outcomes: boolean, confidence: number): FileChoice {
  return {kind: 'file', path, file, outcomes, source: {path, real: path}, maxAgeS: 0, update: false, confidence}
}
