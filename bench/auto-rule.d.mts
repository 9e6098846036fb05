/** A baseline as the rule reads it: its runs, their mean and sample sd (and, drawn, the scores). */
export interface Sample {
  n: number
  mean: number
  sd: number
  scores?: number[]
}

/** The draws of one step of `--repeat auto` (bench/auto-rule.mjs). */
export interface Step {
  baselines: Sample[]
  /** by group, the score of each launch */
  launches: number[][]
}

export type Levels = {regress: number; clear: number}

export function drawStep(
  z: () => number,
  options: {groups: number; runs: number; looks: number; sd: number; drop: number; mean?: number},
): Step

export function judgeLook(
  scores: readonly number[],
  baseline: Sample,
  maxDrop: number,
  levels: Levels,
  margin: (baseline: Sample, k: number, level: number) => number,
): 'regressed' | 'improved' | 'passed' | 'undecided'

export function autoStep(
  step: Step,
  rule: {
    maxDrop: number
    looks: number
    confidence: number
    levels: (confidence: number, m: number, looks: number, n: number) => Levels
    margin: (baseline: Sample, k: number, level: number) => number
  },
): {launches: number; verdicts: Array<'regressed' | 'improved' | 'passed' | 'undecided'>; outcome: 'regressed' | 'inconclusive' | 'passed'}
