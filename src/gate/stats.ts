/**
 * Summary statistics of scores, in constant memory: Welford's online mean and variance (one pass,
 * numerically stable), used wherever amctl summarizes a series of run scores (`evals stats`
 * streams a whole history through one per agent × model; the history gate summarizes its
 * baseline runs).
 */
export class RunningStats {
  private count = 0
  private average = 0
  /** the sum of squared differences from the running mean */
  private m2 = 0

  add(value: number): void {
    this.count++
    const before = value - this.average
    this.average += before / this.count
    this.m2 += before * (value - this.average)
  }

  /** How many values were added. */
  get n(): number {
    return this.count
  }

  /** Their mean; undefined with none. */
  get mean(): number | undefined {
    return this.count === 0 ? undefined : this.average
  }

  /** The sample standard deviation (n − 1 in the denominator); undefined with fewer than two values. */
  get sd(): number | undefined {
    return this.count < 2 ? undefined : Math.sqrt(this.m2 / (this.count - 1))
  }
}

/** The mean and sample standard deviation of `values` (see RunningStats). */
export function summarize(values: Iterable<number>): {n: number; mean: number | undefined; sd: number | undefined} {
  const stats = new RunningStats()
  for (const value of values) stats.add(value)
  return {n: stats.n, mean: stats.mean, sd: stats.sd}
}
