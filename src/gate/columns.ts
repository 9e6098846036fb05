import type {Run} from '../../../contract/types.js'
import type {Column} from '../../../output/format.js'

/**
 * How runs are listed (`runs list`, `runs watch`, the newest runs after an unknown `evals run`):
 * the ID first, as scripts expect (tab-separated: ID, status, eval set, created); on a terminal also
 * agent, model and score when some run has them.
 */
export const RUN_COLUMNS: Column<Run>[] = [
  {header: 'ID', get: (r) => r.id},
  {header: 'STATUS', get: (r) => r.status, show: 'status'},
  {header: 'EVAL SET', get: (r) => r.evalSetId},
  {header: 'AGENT', get: (r) => r.agent, flexible: true, extra: true},
  {header: 'MODEL', get: (r) => r.model, flexible: true, extra: true},
  {header: 'SCORE', get: (r) => r.score, show: 'score', extra: true},
  {header: 'CREATED', get: (r) => r.createdAt, show: 'time'},
]

/** A watched run with its baseline (`--baseline`): what `--json` and the table show. */
export type GatedRun = Run & {baseline: {runId: string; score: number} | null; delta: number | null}

/**
 * The runs of a wait with --baseline: the columns of `runs list`, then BASELINE (the baseline's
 * run ID) and Δ (score minus the baseline's; signed on a terminal), in tab-separated rows too,
 * after the fields `runs list` has there.
 */
export const GATED_RUN_COLUMNS: Column<GatedRun>[] = [
  ...(RUN_COLUMNS as Column<GatedRun>[]),
  {header: 'BASELINE', get: (r) => r.baseline?.runId ?? null},
  {header: 'Δ', get: (r) => r.delta, show: 'delta'},
]
