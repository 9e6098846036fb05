import type {Run} from '../contract/types.js'
import type {Column} from '../output/format.js'
import {RUN_COLUMNS} from '../output/run-columns.js'

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
