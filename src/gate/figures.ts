import type {Column} from '../output/format.js'
import {newestForTrend, sparkline} from '../output/sparkline.js'
import {type BaselineChoice, type GateBaseline, isSample, judgesNoise, type Outcomes, type RunVerdict} from './rules.js'
import {historyText, type Judgement} from './words.js'

/**
 * Every figure the gate gives of a run judged alone or of a group, and how each output shows it,
 * said once: its member in `--json` (computed from the judgement when the result is built), its
 * field in tab-separated rows (docs/scripting.md), its column in a terminal's table, its JUnit
 * property, and its column in the summary's table of figures. A new figure is one entry here
 * (and, when it is a member of --json, its type in Figures): every output then has it
 * (CONTRIBUTING.md "Adding a figure").
 */

/** The members of --json that are figures computed from a judgement (each an entry of FIGURES with `member`). */
export interface Figures {
  /** with --baseline: score minus the baseline's score (its mean), or null */
  delta?: number | null
  /** with a history or a baseline file: the noise margin */
  margin?: number | null
  /** with a history or a baseline file: the smallest true drop the judgement finds 4 times in 5 */
  detectable?: number | null
  /** with a history or a baseline file: the one-sided level the score was judged at, its share of the step's false-alarm rate once the failure test took what it spends */
  confidence?: number | null
}

/** What a figure is read from: a run judged alone or a group, as the result (and --json) holds it. */
export interface Figured extends Figures {
  verdict: RunVerdict
  baseline?: GateBaseline | null
  /** with a baseline of many runs: its runs' outcomes against the baseline's failure rate */
  outcomes?: Outcomes
  /** a group's: how many scores its mean holds */
  k?: number
  /** a group's: --repeat auto's deciding launch */
  decidedAt?: number | null
  /** a group's: some runs failed, fewer than half */
  flaky?: boolean
}

/** Which waits give a figure a value: every wait, with a baseline, with a history or a file, a group (--repeat). */
export type Given = 'always' | 'baseline' | 'noise' | 'group'

/** How the summary shows a figure's value: a score (2 decimals), signed (−0.07), a share (97.5 %), a count, a launch, a sparkline. */
export type SummaryShow = 'score' | 'signed' | 'percent' | 'count' | 'launch' | 'trend'

/** A figure's value in a row or a property: empty (null) where it does not apply. */
type Cell = string | number | null

export interface Figure {
  /** its field's name in tab-separated rows, as docs/scripting.md lists it (the fields are only ever appended); none: not a field */
  field?: string
  /** which waits give it a value */
  given: Given
  /** its value, from the run or group */
  value: (item: Figured) => Cell
  /** a member of --json, computed from the judgement and the baseline when the result is built */
  member?: keyof Figures
  compute?: (judgement: Judgement, baseline: GateBaseline | null | undefined) => number | null
  /** the terminal table's column (TABLE gives the order): its header, and how a value is shown */
  table?: Pick<Column<Figured>, 'header' | 'show' | 'extra'> & {get?: (item: Figured) => unknown}
  /** the JUnit report's properties (named `<run or group>.<name>`): its name (its value, when it has one), or names and values */
  junit?: string | ((item: Figured) => Array<[string, string]>)
  /** the summary's (and the pull-request comment's) figures, in their collapsed part: its label, and how its value is shown */
  summary?: {label: string; show: SummaryShow}
}

const sample = (r: Figured) => (isSample(r.baseline) ? r.baseline : undefined)
const file = (r: Figured) => (r.baseline != null && 'kind' in r.baseline && r.baseline.kind === 'file' ? r.baseline : undefined)
const oneRun = (r: Figured) => (r.baseline != null && !isSample(r.baseline) ? r.baseline : undefined)

/**
 * The figures, in the order of the tab-separated fields after a run's or a group's own: verdict
 * (as --json has it: `passed`, never `passed (flaky)`), the baseline run's ID (previous,
 * RUN_ID), the baseline's score (that run's, or the history's or file group's mean), delta,
 * margin (history, file), the baseline's sd and how many runs it holds; then the baseline file's
 * path and whether its group is stale (`true`/`false`), detectable (history, file), and with
 * --repeat the scores a group's mean holds (k) and with --repeat auto the launch that decided it.
 * New figures go at the end.
 */
export const FIGURES = {
  verdict: {
    field: 'verdict',
    given: 'always',
    value: (r) => r.verdict,
    // (a group that kept a failure out of its mean says so on a terminal; --json and the field say `passed`)
    table: {header: 'VERDICT', get: (r) => (r.flaky && r.verdict !== 'failed' ? `${r.verdict} (flaky)` : r.verdict)},
    junit: 'verdict',
  },
  baselineRun: {
    field: 'baseline run',
    given: 'baseline',
    value: (r) => oneRun(r)?.runId ?? null,
    // BASELINE: the baseline run's ID, or a history or a baseline file's group as `mean ± sd (n)`
    table: {
      header: 'BASELINE',
      get: (r) => (r.baseline == null ? null : isSample(r.baseline) ? historyText(r.baseline) : r.baseline.runId),
    },
    junit: (r) => {
      const history = sample(r)
      if (history !== undefined) return [['baseline', `${history.mean} ± ${history.sd} (${history.runs})`]]
      const run = oneRun(r)
      return run === undefined ? [] : [['baseline', run.runId]]
    },
  },
  baselineScore: {
    field: 'baseline score',
    given: 'baseline',
    value: (r) => oneRun(r)?.score ?? sample(r)?.mean ?? null,
    junit: (r) => {
      const history = sample(r)
      if (history !== undefined) return [['baseline-mean', String(history.mean)]]
      const run = oneRun(r)
      return run === undefined ? [] : [['baseline-score', String(run.score)]]
    },
    summary: {label: 'Baseline', show: 'score'},
  },
  delta: {
    field: 'delta',
    given: 'baseline',
    value: (r) => r.delta ?? null,
    member: 'delta',
    compute: (j) => j.delta,
    table: {header: 'Δ', show: 'delta'},
    junit: 'delta',
    summary: {label: 'Δ', show: 'signed'},
  },
  margin: {
    field: 'margin',
    given: 'noise',
    value: (r) => r.margin ?? null,
    member: 'margin',
    compute: (j) => j.margin,
    table: {header: 'MARGIN', show: 'score'},
    junit: 'margin',
    summary: {label: 'Margin', show: 'score'},
  },
  baselineSd: {
    field: 'baseline sd',
    given: 'noise',
    value: (r) => sample(r)?.sd ?? null,
    junit: 'baseline-sd',
    summary: {label: 'SD', show: 'score'},
  },
  baselineRuns: {
    field: 'baseline runs',
    given: 'noise',
    value: (r) => sample(r)?.runs ?? null,
    junit: (r) => {
      const history = sample(r)
      return history === undefined ? [] : [['baseline-runs', history.runIds.join(',')]]
    },
    summary: {label: 'Runs', show: 'count'},
  },
  baselineFile: {
    field: 'baseline file',
    given: 'noise',
    value: (r) => file(r)?.path ?? null,
    junit: 'baseline-file',
  },
  stale: {
    field: 'stale',
    given: 'noise',
    value: (r) => (file(r) === undefined ? null : String(file(r)?.stale)),
    junit: 'baseline-stale',
  },
  detectable: {
    field: 'detectable',
    given: 'noise',
    value: (r) => r.detectable ?? null,
    member: 'detectable',
    compute: (j) => j.detectable,
    table: {header: 'DETECTABLE', show: 'score'},
    junit: 'detectable',
    summary: {label: 'Detectable', show: 'score'},
  },
  k: {
    field: 'k',
    given: 'group',
    value: (r) => r.k ?? null,
    table: {header: 'K'},
    summary: {label: 'K', show: 'count'},
  },
  decidedAt: {
    field: 'decided at',
    given: 'group',
    value: (r) => r.decidedAt ?? null,
    table: {header: 'DECIDED', get: (r) => (r.decidedAt == null ? null : `launch ${r.decidedAt}`), extra: true},
    junit: 'decided-at',
    summary: {label: 'Decided', show: 'launch'},
  },
  confidence: {
    field: 'confidence',
    given: 'noise',
    value: (r) => r.confidence ?? null,
    member: 'confidence',
    compute: (j) => j.confidence,
    junit: 'confidence',
    summary: {label: 'Level', show: 'percent'},
  },
  cancelled: {
    field: 'cancelled',
    given: 'noise',
    value: (r) => r.outcomes?.cancelled ?? null,
    junit: 'cancelled',
  },
  failureRate: {
    field: 'baseline failure rate',
    given: 'noise',
    // the share of the baseline's finished runs that failed (null: unknown, a baseline file of version 1)
    value: (r) => {
      const rate = r.outcomes?.baseline
      return rate == null || rate.finished === 0 ? null : Math.round((rate.failed / rate.finished) * 1e6) / 1e6
    },
    junit: 'baseline-failure-rate',
    summary: {label: 'Failure rate', show: 'percent'},
  },
  failureP: {
    field: 'failure p',
    given: 'noise',
    // P(as many failures or more) under the baseline's rate; beyond it when at most the threshold
    value: (r) => r.outcomes?.p ?? null,
    junit: 'failure-p',
  },
  failureDetectable: {
    field: 'detectable failure rate',
    given: 'noise',
    value: (r) => r.outcomes?.detectableRate ?? null,
    junit: 'detectable-failure-rate',
    summary: {label: 'Detectable failure rate', show: 'percent'},
  },
  trend: {
    given: 'noise',
    // the baseline's newest scores as a sparkline, oldest first
    value: (r) => (isSample(r.baseline) ? sparkline(newestForTrend(r.baseline.scores)) : null),
    table: {header: 'TREND', extra: true},
    summary: {label: 'Trend', show: 'trend'},
  },
} satisfies Record<string, Figure>

export type FigureKey = keyof typeof FIGURES

/** The terminal table's gate columns, in order (after the run's or group's own, VERDICT near the end). */
export const TABLE: readonly FigureKey[] = ['baselineRun', 'delta', 'margin', 'trend', 'detectable', 'verdict', 'k', 'decidedAt']

type Kind = BaselineChoice['kind'] | undefined

/** Whether a wait whose baseline is of `kind` gives the figure (a group's: when grouped). */
export function gives(figure: Figure, kind: Kind, grouped: boolean): boolean {
  switch (figure.given) {
    case 'always':
      return true
    case 'baseline':
      return kind !== undefined
    case 'noise':
      return judgesNoise(kind)
    case 'group':
      return grouped
  }
}

/** The figures of every entry of FIGURES, as a list. */
export const FIGURE_LIST: ReadonlyArray<Figure & {key: FigureKey}> = (Object.keys(FIGURES) as FigureKey[]).map((key) => ({
  key,
  ...(FIGURES[key] as Figure),
}))

/** The --json members a judgement gives, for a wait whose baseline is of `kind` (null where the judgement has none). */
export function computedMembers(judgement: Judgement | undefined, baseline: GateBaseline | null | undefined, kind: Kind): Figures {
  const out: Figures = {}
  for (const figure of FIGURE_LIST) {
    if (figure.member === undefined || figure.compute === undefined || !gives(figure, kind, false)) continue
    out[figure.member] = judgement === undefined ? null : figure.compute(judgement, baseline)
  }
  return out
}
