/** The eight heights of a sparkline, lowest first. */
export const SPARK_BARS = '▁▂▃▄▅▆▇█'

/**
 * A trend of scores in one line of block characters, oldest first (`evals stats`, and the
 * baseline beside a gated run in the table and the Markdown summary). Each score is placed on
 * the fixed scale 0–1, not stretched to the values' own range, so a flat line means a steady
 * score and two sparklines side by side compare; a score outside 0–1 is clamped and one that is
 * not a number (a run without a score) is a space. Empty for no scores.
 */
export function sparkline(scores: ReadonlyArray<number | null>): string {
  let line = ''
  for (const score of scores) {
    if (typeof score !== 'number' || Number.isNaN(score)) {
      line += ' '
      continue
    }
    const clamped = Math.min(1, Math.max(0, score))
    line += SPARK_BARS[Math.min(SPARK_BARS.length - 1, Math.floor(clamped * SPARK_BARS.length))]
  }
  return line
}
