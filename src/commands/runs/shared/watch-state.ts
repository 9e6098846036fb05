import type {Run} from '../../../contract/types.js'
import {TERMINAL_RUN_STATUSES} from '../../../contract/vocabulary.js'

/** What makes a finished run pass (contract 5). */
export interface WatchRules {
  /** end at the first finished run that did not pass */
  failFast: boolean
  /** a succeeded run also needs a score of at least this (0–1) */
  minScore?: number
}

/** One watched run: its last known state and when the watch saw it finish. */
export interface Watched {
  id: string
  /** the last known state; undefined until the first poll found it */
  run?: Run
  /** when (clock ms) a poll first found it finished */
  finishedAt?: number
  /** it was already finished when the watch first found it */
  finishedBefore?: boolean
}

/** A run whose status a poll found changed (`from` is undefined the first time it is found). */
export interface RunChange {
  id: string
  from?: string
  to: string
  run: Run
}

export type Verdict = 'passed' | 'not-passed'

/** succeeded, failed or cancelled; any other status, known or not, counts as not finished. */
export function isFinished(run: Run | undefined): boolean {
  return run !== undefined && typeof run.status === 'string' && TERMINAL_RUN_STATUSES.includes(run.status)
}

/** A status as text, whatever the server sent (a status that is not a string is shown as JSON). */
export function statusText(run: Run): string {
  return typeof run.status === 'string' ? run.status : JSON.stringify(run.status)
}

/** Why a finished run did not pass ("failed", "score 0.41 below 0.5"), or undefined when it passed. */
export function shortfall(run: Run, minScore: number | undefined): string | undefined {
  if (run.status !== 'succeeded') return statusText(run)
  if (minScore === undefined) return undefined
  if (typeof run.score !== 'number') return `succeeded without a score (--min-score ${minScore})`
  if (run.score < minScore) return `scored ${run.score} (below ${minScore})`
  return undefined
}

/**
 * The state machine of a wait: each watched run's last known state, what a poll changed, and
 * the verdict. A run is final once finished (its later states are not read); the wait passes
 * when every run succeeded (and met --min-score), does not pass when every run finished and
 * some did not pass — or, with --fail-fast, as soon as one finished without passing — and goes
 * on otherwise.
 */
export class WatchState {
  private readonly watched: Map<string, Watched>

  /** `ids` without duplicates, in the order given. */
  constructor(
    ids: readonly string[],
    readonly rules: WatchRules,
  ) {
    this.watched = new Map(ids.map((id) => [id, {id}]))
  }

  /** Every watched run, in the order given. */
  entries(): Watched[] {
    return [...this.watched.values()]
  }

  /** The IDs a poll still looks for: every run not finished yet. */
  pending(): Set<string> {
    return new Set(
      this.entries()
        .filter((w) => !isFinished(w.run))
        .map((w) => w.id),
    )
  }

  /** Takes what a poll found for the pending runs; returns the status changes. */
  apply(found: ReadonlyMap<string, Run>, now: number): RunChange[] {
    const changes: RunChange[] = []
    for (const w of this.watched.values()) {
      const run = found.get(w.id)
      if (run === undefined || isFinished(w.run)) continue
      const from = w.run === undefined ? undefined : statusText(w.run)
      const to = statusText(run)
      if (isFinished(run)) {
        w.finishedAt = now
        w.finishedBefore = w.run === undefined
      }
      w.run = run
      if (from !== to) changes.push({id: w.id, from, to, run})
    }
    return changes
  }

  /** The finished runs that did not pass, with why. */
  failures(): Array<{id: string; reason: string}> {
    const out: Array<{id: string; reason: string}> = []
    for (const w of this.watched.values()) {
      if (w.run === undefined || !isFinished(w.run)) continue
      const reason = shortfall(w.run, this.rules.minScore)
      if (reason !== undefined) out.push({id: w.id, reason})
    }
    return out
  }

  /** The runs not finished yet. */
  unfinished(): Watched[] {
    return this.entries().filter((w) => !isFinished(w.run))
  }

  /** undefined while the wait goes on. */
  verdict(): Verdict | undefined {
    const failed = this.failures().length > 0
    if (failed && this.rules.failFast) return 'not-passed'
    if (this.unfinished().length > 0) return undefined
    return failed ? 'not-passed' : 'passed'
  }

  /** The last known state of every run found so far, in the order given. */
  runs(): Run[] {
    return this.entries().flatMap((w) => (w.run === undefined ? [] : [w.run]))
  }
}
