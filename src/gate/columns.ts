import type {Column} from '../output/format.js'
import {RUN_COLUMNS} from '../output/run-columns.js'
import type {GatedGroup, GatedRun} from './result.js'
import {newestForTrend, sparkline} from '../output/sparkline.js'
import {type BaselineChoice, type GateBaseline, isSample, judgesNoise, type RunVerdict} from './rules.js'
import {historyText} from './words.js'

type Kind = BaselineChoice['kind'] | undefined

/** What the gate adds to a run or a group: its verdict, and with --baseline its baseline, delta, margin and detectable. */
type Gated = {
  verdict: RunVerdict
  baseline?: GateBaseline | null
  delta?: number | null
  margin?: number | null
  detectable?: number | null
  k?: number
  decidedAt?: number | null
}

/** BASELINE: the baseline run's ID, or a history or a baseline file's group as `mean ± sd (n)`. */
const baselineCell = (baseline: GateBaseline | null | undefined): string | null =>
  baseline == null ? null : isSample(baseline) ? historyText(baseline) : baseline.runId

/**
 * The table's columns a baseline adds (a terminal only): BASELINE, Δ, and with history or a
 * baseline file MARGIN, TREND (a sparkline of the baseline's scores) and DETECTABLE.
 */
function baselineColumns<T extends Gated>(kind: Kind): Column<T>[] {
  if (kind === undefined) return []
  const columns: Column<T>[] = [
    {header: 'BASELINE', get: (r) => baselineCell(r.baseline), only: 'tty'},
    {header: 'Δ', get: (r) => r.delta ?? null, show: 'delta', only: 'tty'},
  ]
  if (judgesNoise(kind)) {
    columns.push(
      {header: 'MARGIN', get: (r) => r.margin ?? null, show: 'score', only: 'tty'},
      {header: 'TREND', get: (r) => (isSample(r.baseline) ? sparkline(newestForTrend(r.baseline.scores)) : null), extra: true, only: 'tty'},
      {header: 'DETECTABLE', get: (r) => r.detectable ?? null, show: 'score', only: 'tty'},
    )
  }
  return columns
}

const sample = (r: Gated) => (isSample(r.baseline) ? r.baseline : undefined)
const file = (r: Gated) => (r.baseline != null && 'kind' in r.baseline && r.baseline.kind === 'file' ? r.baseline : undefined)
const oneRun = (r: Gated) => (r.baseline != null && !isSample(r.baseline) ? r.baseline : undefined)

/**
 * The gate's fields of a tab-separated row, after the fields of the run (or group), in ONE order
 * whatever the flags, each present and empty when it does not apply (docs/scripting.md: fields
 * are only ever added after the last one): verdict (as --json has it: `passed`, never `passed
 * (flaky)`), the baseline run's ID (previous, RUN_ID), the baseline's score (that run's, or the
 * history's or file group's mean), delta, margin (history, file), the baseline's sd and how many
 * runs it holds; then the baseline file's path and whether its group is stale (`true`/`false`),
 * detectable (history, file), and with --repeat the scores a group's mean holds (k) and with
 * --repeat auto the launch that decided it.
 */
function gateFields<T extends Gated>(): Column<T>[] {
  // (in lower case: no header is ever shown for them; these are the names docs/scripting.md gives)
  const field = (header: string, get: (r: T) => unknown): Column<T> => ({header, get, appended: true, only: 'tsv'})
  return [
    field('verdict', (r) => r.verdict),
    field('baseline run', (r) => oneRun(r)?.runId ?? null),
    field('baseline score', (r) => oneRun(r)?.score ?? sample(r)?.mean ?? null),
    field('delta', (r) => r.delta ?? null),
    field('margin', (r) => r.margin ?? null),
    field('baseline sd', (r) => sample(r)?.sd ?? null),
    field('baseline runs', (r) => sample(r)?.runs ?? null),
    field('baseline file', (r) => file(r)?.path ?? null),
    field('stale', (r) => (file(r) === undefined ? null : String(file(r)?.stale))),
    field('detectable', (r) => r.detectable ?? null),
    field('k', (r) => r.k ?? null),
    field('decided at', (r) => r.decidedAt ?? null),
  ]
}

/**
 * The runs of a wait. On a terminal: the columns of `runs list`, then with --baseline BASELINE, Δ
 * (signed), and with history or a baseline file MARGIN, TREND and DETECTABLE, then VERDICT, last.
 * Tab-separated: exactly the fields of the run's `runs list` row (ID, status, eval set, created,
 * agent, model, score), then the gate's fields (gateFields), whatever the flags.
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
 * group's score (the mean of its succeeded runs), then on a terminal the baseline's columns,
 * VERDICT (`passed (flaky)` when some runs failed, fewer than half), K and with --repeat auto
 * DECIDED; tab-separated, those six fields then the gate's fields (gateFields), whatever the flags.
 */
export function groupColumns(kind: Kind): Column<GatedGroup>[] {
  return [
    {header: 'EVAL SET', get: (g) => g.evalSetId},
    {header: 'AGENT', get: (g) => g.agent, flexible: true},
    {header: 'MODEL', get: (g) => g.model, flexible: true},
    {header: 'RUN IDS', get: (g) => g.runIds, flexible: true},
    {header: 'FAILED', get: (g) => g.failures},
    {header: 'SCORE', get: (g) => g.score, show: 'score'},
    ...baselineColumns<GatedGroup>(kind),
    {header: 'VERDICT', get: (g) => (g.flaky && g.verdict !== 'failed' ? `${g.verdict} (flaky)` : g.verdict), only: 'tty'},
    {header: 'K', get: (g) => g.k, only: 'tty'},
    {header: 'DECIDED', get: (g) => (g.decidedAt === null ? null : `launch ${g.decidedAt}`), extra: true, only: 'tty'},
    ...gateFields<GatedGroup>(),
  ]
}
