import type {Run} from '../contract/types.js'
import type {Column} from '../output/format.js'
import {RUN_COLUMNS} from '../output/run-columns.js'
import {sparkline} from '../output/sparkline.js'
import {type BaselineChoice, type GateBaseline, historyText, isHistory, type RunVerdict} from './state.js'

/** A watched run at the end of a wait: its verdict, and with --baseline its baseline, delta and margin (what `--json` and the table show). */
export type GatedRun = Run & {verdict: RunVerdict; baseline?: GateBaseline | null; delta?: number | null; margin?: number | null}

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
}

type Kind = BaselineChoice['kind'] | undefined

/** What the gate adds to a run or a group: its verdict, and with --baseline its baseline, delta and margin. */
type Gated = {verdict: RunVerdict; baseline?: GateBaseline | null; delta?: number | null; margin?: number | null}

/** BASELINE: the baseline run's ID, or a history as `mean ± sd (n)`. */
const baselineCell = (baseline: GateBaseline | null | undefined): string | null =>
  baseline == null ? null : isHistory(baseline) ? historyText(baseline) : baseline.runId

/**
 * The table's columns a baseline adds (a terminal only): BASELINE, Δ, and with history MARGIN and
 * TREND (a sparkline of the history's scores).
 */
function baselineColumns<T extends Gated>(kind: Kind): Column<T>[] {
  if (kind === undefined) return []
  const columns: Column<T>[] = [
    {header: 'BASELINE', get: (r) => baselineCell(r.baseline), only: 'tty'},
    {header: 'Δ', get: (r) => r.delta ?? null, show: 'delta', only: 'tty'},
  ]
  if (kind === 'history') {
    columns.push(
      {header: 'MARGIN', get: (r) => r.margin ?? null, show: 'score', only: 'tty'},
      {header: 'TREND', get: (r) => (isHistory(r.baseline) ? sparkline(r.baseline.scores) : null), extra: true, only: 'tty'},
    )
  }
  return columns
}

const history = (r: Gated) => (isHistory(r.baseline) ? r.baseline : undefined)
const oneRun = (r: Gated) => (r.baseline != null && !isHistory(r.baseline) ? r.baseline : undefined)

/**
 * The gate's fields of a tab-separated row, after the fields of the run (or group), in ONE order
 * whatever the flags, each present and empty when it does not apply (docs/scripting.md: fields
 * are only ever added after the last one): verdict (as --json has it: `passed`, never `passed
 * (flaky)`), the baseline run's ID (previous, RUN_ID), the baseline's score (that run's, or the
 * history's mean), delta, margin (history), the history's sd and how many runs it kept.
 */
function gateFields<T extends Gated>(): Column<T>[] {
  // (in lower case: no header is ever shown for them; these are the names docs/scripting.md gives)
  const field = (header: string, get: (r: T) => unknown): Column<T> => ({header, get, appended: true, only: 'tsv'})
  return [
    field('verdict', (r) => r.verdict),
    field('baseline run', (r) => oneRun(r)?.runId ?? null),
    field('baseline score', (r) => oneRun(r)?.score ?? history(r)?.mean ?? null),
    field('delta', (r) => r.delta ?? null),
    field('margin', (r) => r.margin ?? null),
    field('baseline sd', (r) => history(r)?.sd ?? null),
    field('baseline runs', (r) => history(r)?.runs ?? null),
  ]
}

/**
 * The runs of a wait. On a terminal: the columns of `runs list`, then with --baseline BASELINE, Δ
 * (signed), and with history MARGIN and TREND, then VERDICT, last. Tab-separated: exactly the
 * fields of the run's `runs list` row (ID, status, eval set, created, agent, model, score), then
 * the gate's fields (gateFields), whatever the flags.
 */
export function gatedRunColumns(kind: Kind): Column<GatedRun>[] {
  return [
    ...(RUN_COLUMNS as Column<GatedRun>[]),
    ...baselineColumns<GatedRun>(kind),
    {header: 'VERDICT', get: (r) => r.verdict, only: 'tty'},
    ...gateFields<GatedRun>(),
  ]
}

/**
 * The groups of `evals run --repeat`: eval set, agent, model, the runs, how many failed, the
 * group's score (the mean of its succeeded runs), then on a terminal the baseline's columns and
 * VERDICT (`passed (flaky)` when some runs failed, fewer than half); tab-separated, those six
 * fields then the gate's fields (gateFields), whatever the flags.
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
    {header: 'VERDICT', get: (g) => (g.flaky && g.verdict !== 'failed' ? `${g.verdict} (flaky)` : g.verdict), only: 'tty'},
    ...gateFields<GroupRow>(),
  ]
}
