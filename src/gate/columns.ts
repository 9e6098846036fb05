import type {Column} from '../output/format.js'
import {RUN_COLUMNS} from '../output/run-columns.js'
import {type Figure, FIGURE_LIST, FIGURES, type Figured, gives, TABLE} from './figures.js'
import type {GatedGroup, GatedRun} from './result.js'
import type {BaselineChoice} from './rules.js'

type Kind = BaselineChoice['kind'] | undefined

/**
 * The gate's columns of a wait's list, from its figures (./figures.ts): on a terminal the table's
 * (TABLE's order, those the wait's baseline gives); in tab-separated rows every figure's field, in
 * FIGURES' order, whatever the flags, each present and empty where it does not apply
 * (docs/scripting.md: fields are only ever added after the last one).
 */
function gateColumns<T extends Figured>(kind: Kind, grouped: boolean): Column<T>[] {
  const table = TABLE.flatMap((key): Column<T>[] => {
    const figure: Figure = FIGURES[key]
    if (figure.table === undefined || !gives(figure, kind, grouped)) return []
    const {get, ...spec} = figure.table
    return [{...spec, get: get ?? figure.value, only: 'tty'}]
  })
  // (in lower case: no header is ever shown for them; these are the names docs/scripting.md gives)
  const fields = FIGURE_LIST.flatMap((figure): Column<T>[] =>
    figure.field === undefined ? [] : [{header: figure.field, get: figure.value, appended: true, only: 'tsv'}],
  )
  return [...table, ...fields]
}

/**
 * The runs of a wait. On a terminal: the columns of `runs list`, then with --baseline BASELINE, Δ
 * (signed), and with history or a baseline file MARGIN, TREND and DETECTABLE, then VERDICT, last.
 * Tab-separated: exactly the fields of the run's `runs list` row (ID, status, eval set, created,
 * agent, model, score), then the gate's fields, whatever the flags.
 */
export function gatedRunColumns(kind: Kind): Column<GatedRun>[] {
  return [...(RUN_COLUMNS as Column<GatedRun>[]), ...gateColumns<GatedRun>(kind, false)]
}

/**
 * The groups of `evals run --repeat`: eval set, agent, model, the runs, how many failed, the
 * group's score (the mean of its succeeded runs), then on a terminal the baseline's columns,
 * VERDICT (`passed (flaky)` when some runs failed, fewer than half), K and with --repeat auto
 * DECIDED; tab-separated, those six fields then the gate's fields, whatever the flags.
 */
export function groupColumns(kind: Kind): Column<GatedGroup>[] {
  return [
    {header: 'EVAL SET', get: (g) => g.evalSetId},
    {header: 'AGENT', get: (g) => g.agent, flexible: true},
    {header: 'MODEL', get: (g) => g.model, flexible: true},
    {header: 'RUN IDS', get: (g) => g.runIds, flexible: true},
    {header: 'FAILED', get: (g) => g.failures},
    {header: 'SCORE', get: (g) => g.score, show: 'score'},
    ...gateColumns<GatedGroup>(kind, true),
  ]
}
