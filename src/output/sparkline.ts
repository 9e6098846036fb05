/**
 * How many scores a trend shows: the newest 20. A history or baseline file holds up to 100 runs,
 * and a line of 50 bars beside a run would crowd out the table's other columns on an 80- or
 * 100-column terminal; 20 is the history gate's default number of runs, and the length of
 * `evals stats`' trend.
 */
export const TREND_LENGTH = 20

/** The newest TREND_LENGTH of `scores` (oldest first, as given): what a trend draws. */
export function newestForTrend<T>(scores: readonly T[]): T[] {
  return scores.slice(-TREND_LENGTH)
}

/** The eight heights of a sparkline, lowest first. */
export const SPARK_BARS = '▁▂▃▄▅▆▇█'

/**
 * The narrowest score range a sparkline spreads over its eight heights: 0.1 (ten points), about
 * the range of twenty scores whose noise is 0.03. Narrower ranges are widened around their middle,
 * so a steady series draws as a nearly flat line instead of its last-digit jitter blown up to full
 * height, while the noise a gate judges against (a few points) stays visible.
 */
export const MIN_SPAN = 0.1

/** The scores a sparkline's lowest and highest bars stand for. */
export interface SparkScale {
  low: number
  high: number
}

/**
 * The scale of sparklines drawn side by side (the rows of `evals stats`): the range of every
 * score of every series, at least MIN_SPAN wide and within 0–1, so their heights compare.
 */
export function sparkScale(series: ReadonlyArray<ReadonlyArray<number | null>>): SparkScale {
  const numbers = series.flat().filter((score): score is number => typeof score === 'number' && !Number.isNaN(score))
  let low = numbers.length === 0 ? 0 : Math.max(0, Math.min(...numbers))
  let high = numbers.length === 0 ? 1 : Math.min(1, Math.max(...numbers))
  if (high - low < MIN_SPAN) {
    const middle = (low + high) / 2
    low = Math.min(Math.max(0, middle - MIN_SPAN / 2), 1 - MIN_SPAN)
    high = low + MIN_SPAN
  }
  return {low, high}
}

/**
 * A trend of scores in one line of block characters, oldest first (`evals stats`, and the
 * baseline beside a gated run in the table and the Markdown summary). The heights span the
 * scores' own range (sparkScale), as sparklines do, so the run-to-run noise of a history shows;
 * lines meant to be compared share one scale. A score outside the scale is drawn at its end; one
 * that is not a number (a run without a score) is a space. Empty for no scores.
 */
export function sparkline(scores: ReadonlyArray<number | null>, scale: SparkScale = sparkScale([scores])): string {
  const {low, high} = scale
  let line = ''
  for (const score of scores) {
    if (typeof score !== 'number' || Number.isNaN(score)) {
      line += ' '
      continue
    }
    const position = (Math.min(high, Math.max(low, score)) - low) / (high - low)
    // (a hair added: 0.7 within 0.6–0.8 is 0.4999… in binary, and sits in the middle)
    line += SPARK_BARS[Math.round(position * (SPARK_BARS.length - 1) + 1e-9)]
  }
  return line
}
