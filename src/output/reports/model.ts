import {flagDuration} from '../time.js'

/**
 * What the CI reports of a wait say (`--junit`, `--summary`, GitHub Actions annotations): typed
 * data the wait hands over (src/gate/report.ts builds it), rendered by the
 * modules beside this one. Strings that came from the server (IDs, agents, models, statuses)
 * are made safe by each renderer for its own format.
 */

/** How the wait ended: every run passed, some did not, the time limit came first, Ctrl-C. */
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
  /** why it failed: the rule (status, min-score, max-drop) and the reason */
  failure?: {rule: string; reason: string}
  /** why it is skipped: it did not finish before the wait ended */
  skipped?: string
  /** with --baseline: its baseline, or null ("no baseline"); absent without --baseline */
  baseline?: {runId: string; score: number} | null
  /** with --baseline: score minus the baseline's score, or null */
  delta?: number | null
}

export interface CiReport {
  end: ReportEnd
  /** the organization */
  org: string
  /** the API server's host name (JUnit's `hostname`: where the runs ran) */
  host: string
  /** the rules the runs were held to, as the flags gave them */
  rules: {
    minScore?: number
    maxDrop?: number
    /** `previous` or a run ID */
    baseline?: string
    /** --baseline previous: how far back, in seconds (0 = no limit) */
    baselineWindowS?: number
    /** --wait-timeout in seconds (0 = no limit) */
    timeoutS: number
  }
  /** every watched run, in the order given */
  runs: ReportRun[]
}

/** One line: how the wait ended, in words ("1 of 3 runs did not pass"). */
export function verdictText(report: CiReport): string {
  const total = report.runs.length
  const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`
  const failed = report.runs.filter((r) => r.outcome === 'failed').length
  const unfinished = report.runs.filter((r) => r.outcome === 'skipped').length
  switch (report.end) {
    case 'passed':
      return total === 1 ? '1 run passed' : `all ${total} runs passed`
    case 'not-passed':
      return `${failed} of ${runs(total)} did not pass`
    case 'timeout':
      return `${unfinished} of ${runs(total)} not finished within --wait-timeout ${flagDuration(report.rules.timeoutS, false)}${failed > 0 ? `; ${failed} did not pass` : ''}`
    case 'interrupted':
      return `interrupted (Ctrl-C): ${unfinished} of ${runs(total)} not finished${failed > 0 ? `; ${failed} did not pass` : ''}`
  }
}

/** The runs of each eval set, in the order their first run was given (one JUnit testsuite each). */
export function byEvalSet(report: CiReport): Array<{evalSetId: string; runs: ReportRun[]}> {
  const groups = new Map<string, ReportRun[]>()
  for (const run of report.runs) {
    const key = run.evalSetId ?? UNKNOWN_EVAL_SET
    const group = groups.get(key) ?? []
    group.push(run)
    groups.set(key, group)
  }
  return [...groups].map(([evalSetId, runs]) => ({evalSetId, runs}))
}

/** The suite of runs whose eval set is not known (never found before the wait ended). */
export const UNKNOWN_EVAL_SET = '(unknown eval set)'
