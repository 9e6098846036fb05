import type {Run} from '../contract/types.js'
import {TERMINAL_RUN_STATUSES} from '../contract/vocabulary.js'

/** A run another is compared with (`--baseline`): what --json shows as `baseline`. */
export interface Baseline {
  runId: string
  score: number
}

/** Where each watched run's baseline comes from: the newest earlier run like it, or one run for all. */
export type BaselineChoice = {kind: 'previous'; windowS: number} | {kind: 'run'; baseline: Baseline}

/** What makes a finished run pass (contract 5, and the regression gate of the CI reports). */
export interface WatchRules {
  /** end at the first finished run that did not pass */
  failFast: boolean
  /** a succeeded run also needs a score of at least this (0–1) */
  minScore?: number
  /** --baseline: each run is compared with a baseline (its delta shown, --max-drop applied) */
  baseline?: BaselineChoice
  /** --max-drop: a succeeded run must score no more than this below its baseline (0–1) */
  maxDrop?: number
}

/** Which rule a finished run did not pass: its status, --min-score or --max-drop. */
export type GateRule = 'status' | 'min-score' | 'max-drop'

export interface Shortfall {
  rule: GateRule
  /** for people: "failed", "scored 0.41 (below 0.5)", "scored 0.61, 0.27 below baseline run_9 (0.88; --max-drop 0.1)" */
  reason: string
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
  /** with --baseline: its baseline, or null when none was found; undefined until looked up */
  baseline?: Baseline | null
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

/** Numbers as people read them in reasons: 0.27, not 0.27000000000000002. */
const shown = (n: number): string => String(Number(n.toFixed(6)))

/**
 * A run's score minus its baseline's, rounded to 6 decimals (0.8 - 0.7 is 0.1, not
 * 0.10000000000000009, so --max-drop 0.1 lets it pass); null when either has no score.
 */
export function scoreDelta(run: Run, baseline: Baseline | null | undefined): number | null {
  if (baseline === null || baseline === undefined || typeof run.score !== 'number') return null
  return Math.round((run.score - baseline.score) * 1e6) / 1e6
}

/**
 * Why a finished run did not pass, or undefined when it passed: its status (failed, cancelled),
 * then --min-score (a score below it, or none), then --max-drop (a score more than that below
 * its baseline's, or none while the baseline has one). A run without a baseline is not held to
 * --max-drop.
 */
export function shortfall(run: Run, rules: Pick<WatchRules, 'minScore' | 'maxDrop'>, baseline?: Baseline | null): Shortfall | undefined {
  const {minScore, maxDrop} = rules
  if (run.status !== 'succeeded') return {rule: 'status', reason: statusText(run)}
  if (minScore !== undefined) {
    if (typeof run.score !== 'number') return {rule: 'min-score', reason: `succeeded without a score (--min-score ${minScore})`}
    if (run.score < minScore) return {rule: 'min-score', reason: `scored ${run.score} (below ${minScore})`}
  }
  if (maxDrop !== undefined && baseline) {
    const against = `baseline ${baseline.runId} (${shown(baseline.score)}; --max-drop ${maxDrop})`
    const delta = scoreDelta(run, baseline)
    if (delta === null) return {rule: 'max-drop', reason: `succeeded without a score, ${against}`}
    if (-delta > maxDrop) return {rule: 'max-drop', reason: `scored ${shown(run.score as number)}, ${shown(-delta)} below ${against}`}
  }
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

  /** Whether the baselines are still to be looked up (--baseline previous, before the first verdict). */
  needsBaselines(): boolean {
    return this.rules.baseline !== undefined && this.entries().some((w) => w.baseline === undefined)
  }

  /** Sets each run's baseline: from `found` (by run ID; absent = none), or the one run of `--baseline RUN_ID`. */
  setBaselines(found: ReadonlyMap<string, Baseline>): void {
    const fixed = this.rules.baseline?.kind === 'run' ? this.rules.baseline.baseline : undefined
    for (const w of this.watched.values()) w.baseline = fixed ?? found.get(w.id) ?? null
  }

  /** The shortfall of one watched run, if it finished without passing. */
  shortfallOf(w: Watched): Shortfall | undefined {
    if (w.run === undefined || !isFinished(w.run)) return undefined
    return shortfall(w.run, this.rules, w.baseline)
  }

  /** The finished runs that did not pass, with the rule and why. */
  failures(): Array<{id: string} & Shortfall> {
    const out: Array<{id: string} & Shortfall> = []
    for (const w of this.watched.values()) {
      const failed = this.shortfallOf(w)
      if (failed !== undefined) out.push({id: w.id, ...failed})
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
