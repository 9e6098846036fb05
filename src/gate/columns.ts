import type {Run} from '../contract/types.js'
import type {Column} from '../output/format.js'
import {RUN_COLUMNS} from '../output/run-columns.js'
import {sparkline} from '../output/sparkline.js'
import {type BaselineChoice, type GateBaseline, historyText, isSample, judgesNoise, type RunVerdict} from './state.js'

/**
 * A watched run at the end of a wait: its verdict, and with --baseline its baseline, delta and
 * margin, and with a history or a baseline file the smallest drop it could have seen (what
 * `--json` and the table show).
 */
export type GatedRun = Run & {
  verdict: RunVerdict
  baseline?: GateBaseline | null
  delta?: number | null
  margin?: number | null
  detectable?: number | null
}

/** With `evals run --repeat`: one group, as `--json` (`groups`) and the table show it. */
export interface GroupRow {
  /** the agent its runs measure (null when the server sent none) */
  agent: string | null
  /** the model its runs' agent ran with (null when the server sent none) */
  model: string | null
  /** the eval set its runs measure (null when the server sent none) */
  evalSetId: string | null
  runIds: string[]
  /** each run's score (null: none), in the order of runIds */
  scores: Array<number | null>
  /** the mean of the succeeded runs' scores */
  score: number | null
  /** runs that failed or were cancelled */
  failures: number
  /** fewer than half failed: judged on the others */
  flaky: boolean
  verdict: RunVerdict
  baseline?: GateBaseline | null
  delta?: number | null
  margin?: number | null
  /** with a history or a baseline file: the smallest true drop this judgement finds 4 times in 5 */
  detectable?: number | null
  /** how many scores its mean holds */
  k: number
  /** --repeat auto: the launch that decided it (null: inconclusive, or not --repeat auto) */
  decidedAt: number | null
}

type Kind = BaselineChoice['kind'] | undefined

/** BASELINE: the baseline run's ID, or a history or a baseline file's group as `mean ± sd (n)`. */
const baselineCell = (baseline: GateBaseline | null | undefined): string | null =>
  baseline == null ? null : isSample(baseline) ? historyText(baseline) : baseline.runId

/**
 * The columns a baseline adds: BASELINE, Δ, and with history or a baseline file MARGIN and TREND
 * (a sparkline of the baseline's scores, on a terminal only).
 */
function baselineColumns<
  T extends {baseline?: GateBaseline | null; delta?: number | null; margin?: number | null; detectable?: number | null},
>(kind: Kind): Column<T>[] {
  if (kind === undefined) return []
  const columns: Column<T>[] = [
    {header: 'BASELINE', get: (r) => baselineCell(r.baseline)},
    {header: 'Δ', get: (r) => r.delta ?? null, show: 'delta'},
  ]
  if (judgesNoise(kind)) {
    columns.push(
      {header: 'MARGIN', get: (r) => r.margin ?? null, show: 'score'},
      {header: 'TREND', get: (r) => (isSample(r.baseline) ? sparkline(r.baseline.scores) : null), extra: true},
      // (a field added later: after every other one in tab-separated rows)
      {header: 'DETECTABLE', get: (r) => r.detectable ?? null, show: 'score', appended: true},
    )
  }
  return columns
}

/**
 * The runs of a wait: the columns of `runs list`, then with --baseline BASELINE, Δ (signed on a
 * terminal), and with history MARGIN and TREND (terminal only), then VERDICT — last on a
 * terminal; in tab-separated rows only agent, model and score follow it, which every run row
 * appends after its other fields, so the fields before them keep their places.
 */
export function gatedRunColumns(kind: Kind): Column<GatedRun>[] {
  return [...(RUN_COLUMNS as Column<GatedRun>[]), ...baselineColumns<GatedRun>(kind), {header: 'VERDICT', get: (r) => r.verdict}]
}

/**
 * The groups of `evals run --repeat`: eval set, agent, model, the runs, how many failed, the
 * group's score (the mean of its succeeded runs), then the baseline's columns, then VERDICT
 * (`passed (flaky)` when some runs failed, fewer than half).
 */
export function groupColumns(kind: Kind): Column<GroupRow>[] {
  return [
    {header: 'EVAL SET', get: (g) => g.evalSetId},
    {header: 'AGENT', get: (g) => g.agent, flexible: true},
    {header: 'MODEL', get: (g) => g.model, flexible: true},
    {header: 'RUN IDS', get: (g) => g.runIds, flexible: true},
    {header: 'FAILED', get: (g) => g.failures},
    {header: 'SCORE', get: (g) => g.score, show: 'score'},
    ...baselineColumns<GroupRow>(kind),
    {header: 'VERDICT', get: (g) => (g.flaky && g.verdict !== 'failed' ? `${g.verdict} (flaky)` : g.verdict)},
    // (fields added later: after every other one in tab-separated rows; DECIDED only with --repeat auto)
    {header: 'K', get: (g) => g.k, appended: true},
    {header: 'DECIDED', get: (g) => (g.decidedAt === null ? null : `launch ${g.decidedAt}`), appended: true, extra: true},
  ]
}
