/**
 * The words `--baseline` takes besides a run ID, said once for the flag (./flags.ts) and for shell
 * completion (src/commands/autocomplete/shared/engine.ts, which loads nothing more of the gate).
 */

/** `--baseline previous`: each run's own newest earlier run like it. */
export const PREVIOUS = 'previous'
/** `--baseline history`: the earlier runs like it, with a confidence. */
export const HISTORY_BASELINE = 'history'

/** Each word and what it compares with, as completion describes it; the recommended one first. */
export const BASELINE_WORDS: ReadonlyArray<{value: string; description: string}> = [
  {value: HISTORY_BASELINE, description: 'the earlier runs of the same eval set, agent and model: regression or noise (recommended)'},
  {value: PREVIOUS, description: 'the newest earlier run of the same eval set, agent and model'},
]
