import {STOP_SIGNALS, type StopSignal, stopSignalOf} from '../../core/signals.js'
import {flagDuration} from '../time.js'

/**
 * What the CI reports of a wait say (`--junit`, `--summary`, GitHub Actions annotations): typed
 * data the wait hands over (src/gate/report.ts builds it), rendered by the
 * modules beside this one. Strings that came from the server (IDs, agents, models, statuses)
 * are made safe by each renderer for its own format.
 */

/** How the wait ended: every run passed, some did not, the time limit came first, Ctrl-C or SIGTERM (`signal` says which). */
export type ReportEnd = 'passed' | 'not-passed' | 'timeout' | 'interrupted'

export interface ReportRun {
  id: string
  /** null: not known (a run the wait never found) */
  evalSetId: string | null
  agent: string | null
  model: string | null
  /** its last known status; null when the wait never found it */
  status: string | null
  score: number | null
  /** seconds from its createdAt to when the wait saw it finish (or to the end of the wait); null without a createdAt */
  seconds: number | null
  /** ISO 8601, as the API gave it */
  createdAt: string | null
  outcome: 'passed' | 'failed' | 'skipped'
  /** the verdict (src/gate/state.ts VERDICTS) */
  verdict: string
  /** why it failed: the rule (status, min-score, max-drop, noise, baseline) and the reason, one sentence */
  failure?: {rule: string; reason: string}
  /** a sentence on a passing verdict: within noise, improved, flaky, no baseline */
  note?: string
  /** why it is skipped: it did not finish before the wait ended */
  skipped?: string
  /** with --baseline: its baseline ({runId, score}, or the history), or null ("no baseline"); absent without --baseline */
  baseline?: ReportBaseline | null
  /** with --baseline: score minus the baseline's score (its mean), or null */
  delta?: number | null
  /** with --baseline history: the noise margin */
  margin?: number | null
  /** with a history or a baseline file: the smallest true drop the judgement finds 4 times in 5 */
  detectable?: number | null
}

/** A baseline as the reports show it: one run, a history of runs, or a group of a baseline file. */
export type ReportBaseline =
  | {runId: string; score: number}
  | {
      kind: 'history'
      runs: number
      mean: number
      sd: number
      runIds: string[]
      scores: number[]
      outliers: Array<{runId: string; score: number}>
    }
  | FileReportBaseline

/** `--baseline-file`: a group's runs in the baseline file (src/gate/state.ts FileBaseline). */
export interface FileReportBaseline {
  kind: 'file'
  /** the file, as given */
  path: string
  /** how many runs the group holds there */
  runs: number
  mean: number
  /** the sample standard deviation of those runs (the margin uses at least the sd floor) */
  sd: number
  /** the runs, oldest first, and their scores in the same order */
  runIds: string[]
  scores: number[]
  /** when the file was saved or last updated */
  savedAt: string
  /** the group's newest run's createdAt */
  newestRunAt: string | null
  /** its newest run is older than --baseline-max-age */
  stale: boolean
}

/** A baseline of many runs (a history or a group of a baseline file). */
export type SampleReportBaseline = Extract<ReportBaseline, {kind: string}>

/** With `evals run --repeat`: the runs of one eval set, agent and model, judged as one. */
export interface ReportGroup extends Omit<ReportRun, 'id' | 'status' | 'createdAt'> {
  /** "<eval set> <agent> / <model>" */
  id: string
  runIds: string[]
  /** each run's score (null: none), in the order of runIds */
  scores: Array<number | null>
  /** each run's status (null: not found) */
  statuses: Array<string | null>
  /** runs that failed or were cancelled */
  failures: number
  /** fewer than half failed: judged on the others */
  flaky: boolean
  /** how many scores its mean holds */
  k: number
  /** --repeat auto: the launch that decided it (null: inconclusive) */
  decidedAt?: number | null
}

/** A history baseline or a group of a baseline file, or undefined. */
export function historyOf(baseline: ReportBaseline | null | undefined): SampleReportBaseline | undefined {
  return baseline != null && 'kind' in baseline ? baseline : undefined
}

export interface CiReport {
  end: ReportEnd
  /** with end `timeout`: what the time limit cut short (the search for the baselines, or a poll) */
  cut?: 'baselines' | 'poll'
  /** with end `interrupted`: the signal that stopped the wait (absent: Ctrl-C) */
  signal?: StopSignal
  /** the organization */
  org: string
  /** the API server's host name (JUnit's `hostname`: where the runs ran) */
  host: string
  /** the rules the runs were held to, as the flags gave them */
  rules: {
    minScore?: number
    maxDrop?: number
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
    auto?: {launches: number; maxRepeat: number; lastFor: string[]}
    /** --max-drop above what the step could see: the largest detectable, and the --repeat that would see it (null: none up to upTo) */
    resolution?: {detectable: number; maxDrop: number; repeat: number | null; upTo: number}
    /** --wait-timeout in seconds (0 = no limit) */
    timeoutS: number
  }
  /** every watched run, in the order given */
  runs: ReportRun[]
  /** with --repeat: the groups judged (the verdict is theirs) */
  groups?: ReportGroup[]
}

/** What the verdict counts: the groups with --repeat, else the runs. */
export function judgedItems(report: CiReport): Array<ReportRun | ReportGroup> {
  return report.groups ?? report.runs
}

/** One line: how the wait ended, in words ("1 of 3 runs did not pass"). */
export function verdictText(report: CiReport): string {
  const items = judgedItems(report)
  const total = items.length
  const noun = report.groups ? 'group' : 'run'
  const runs = (n: number) => `${n} ${noun}${n === 1 ? '' : 's'}`
  const failed = items.filter((r) => r.outcome === 'failed').length
  const unfinished = items.filter((r) => r.outcome === 'skipped').length
  switch (report.end) {
    case 'passed':
      if (total === 0) return `no ${noun}s to judge`
      return total === 1 ? `1 ${noun} passed` : `all ${total} ${noun}s passed`
    case 'not-passed':
      if (total === 0) return 'no runs to judge: the launch started none, so nothing passed'
      return `${failed} of ${runs(total)} did not pass`
    case 'timeout': {
      const what = report.cut === 'baselines' ? 'not judged (the search for baselines was cut short)' : 'not finished'
      return `${unfinished} of ${runs(total)} ${what} within --wait-timeout ${flagDuration(report.rules.timeoutS, false)}${failed > 0 ? `; ${failed} did not pass` : ''}`
    }
    case 'interrupted':
      return `interrupted (${STOP_SIGNALS[stopSignalOf(report.signal)].words}): ${unfinished} of ${runs(total)} not finished${failed > 0 ? `; ${failed} did not pass` : ''}`
  }
}

/** The runs (and with --repeat the groups) of each eval set, in the order their first run was given (one JUnit testsuite each). */
export function byEvalSet(report: CiReport): Array<{evalSetId: string; runs: ReportRun[]; groups?: ReportGroup[]}> {
  const sets = new Map<string, {runs: ReportRun[]; groups?: ReportGroup[]}>()
  const of = (evalSetId: string | null) => {
    const key = evalSetId ?? UNKNOWN_EVAL_SET
    const set = sets.get(key) ?? {runs: [], groups: report.groups ? [] : undefined}
    sets.set(key, set)
    return set
  }
  for (const run of report.runs) of(run.evalSetId).runs.push(run)
  for (const group of report.groups ?? []) of(group.evalSetId).groups?.push(group)
  return [...sets].map(([evalSetId, set]) => ({evalSetId, ...set}))
}

/** The suite of runs whose eval set is not known (never found before the wait ended). */
export const UNKNOWN_EVAL_SET = '(unknown eval set)'
