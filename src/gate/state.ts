import type {Run} from '../contract/types.js'
import {
  type GateBaseline,
  type Group,
  groupLabel,
  type RunVerdict,
  isFinished,
  isSample,
  type SampleBaseline,
  statusText,
  type Watched,
  type WatchRules,
} from './rules.js'
import {detectableDrop, perComparison, type Quantile, sdFloor} from './stats.js'
import {judgeGroup, levelOf, noiseMargin} from './verdict.js'
import {type Judgement, type Shortfall, worded} from './words.js'

/** What a step could see, when it is less than --max-drop (WatchState.resolution). */
export interface Resolution {
  /** the largest `detectable` of the groups judged */
  detectable: number
  maxDrop: number
  /** the smallest --repeat that would see --max-drop, or null when none up to `upTo` would */
  repeat: number | null
  upTo: number
  /** `max-drop`: --max-drop is above a group's noise margin, so it is the bar (a drop of D is regressed about half the time) */
  bar?: 'max-drop'
}

/** A run whose status a poll found changed (`from` is undefined the first time it is found). */
export interface RunChange {
  id: string
  from?: string
  to: string
  run: Run
}

/** How a wait ends; `undecided` (--repeat auto): every run finished, some group needs another launch. */
export type Verdict = 'passed' | 'not-passed' | 'undecided'

/**
 * The state machine of a wait: each watched run's last known state, what a poll changed, the
 * groups judged (each run alone, or with --repeat the runs of one eval set, agent and model),
 * and the verdict. A run is final once finished (its later states are not read); the wait
 * passes when every group is decided and none fails, does not pass when every group is decided
 * and some fails — or, with --fail-fast, as soon as one does — and goes on otherwise.
 */
export class WatchState {
  private readonly watched: Map<string, Watched>
  private groupList?: Group[]
  private groupById?: Map<string, Group>
  /**
   * Each group's judgement, kept until a poll changes one of its runs or its baseline is set
   * (issue 37 item 11): the wait, the live view and the reports read every group's after each
   * poll, which judged all of them again each time (and each run's, through runVerdict).
   */
  private readonly kept = new Map<Group, Judgement>()
  /** comparisons(), once the groups are formed, until the baselines are set */
  private compared?: number

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
      this.forget(w.id)
      if (from !== to) changes.push({id: w.id, from, to, run})
    }
    return changes
  }

  /**
   * The groups judged: each run alone, or (--repeat) the runs of one eval set, agent and model,
   * in the order their first run was given. Formed once, when every run has been found (before
   * that, a run not found yet is its own group).
   */
  groups(): Group[] {
    if (this.groupList) return this.groupList
    const entries = this.entries()
    // each run alone: known from the start; grouped: once every run is known
    const complete = !this.rules.grouped || entries.every((w) => w.run !== undefined)
    let groups: Group[]
    if (!complete || !this.rules.grouped) {
      groups = entries.map((w) => ({id: w.id, runIds: [w.id]}))
    } else {
      const byKey = new Map<string, Group>()
      for (const w of entries) {
        const run = w.run as Run
        const key = JSON.stringify([run.evalSetId, run.agent, run.model])
        const group = byKey.get(key) ?? {id: groupLabel(run), runIds: []}
        group.runIds.push(w.id)
        byKey.set(key, group)
      }
      groups = [...byKey.values()]
    }
    if (complete) {
      this.groupList = groups
      this.groupById = new Map(groups.flatMap((g) => g.runIds.map((id) => [id, g] as const)))
    }
    return groups
  }

  /** Drops the kept judgement of the group of run `id` (before the groups are formed, none is kept). */
  private forget(id: string): void {
    const group = this.groupById?.get(id)
    if (group !== undefined) this.kept.delete(group)
  }

  /** The watched runs of a group. */
  runsOf(group: Group): Watched[] {
    return group.runIds.map((id) => this.watched.get(id) as Watched)
  }

  /** The group a run belongs to. */
  groupOf(id: string): Group | undefined {
    return this.groupById?.get(id) ?? this.groups().find((g) => g.runIds.includes(id))
  }

  /** Whether the baselines are still to be looked up (--baseline, before the first verdict). */
  needsBaselines(): boolean {
    return this.rules.baseline !== undefined && this.groups().some((g) => g.baseline === undefined)
  }

  /**
   * Sets each group's baseline: from `found` (by group ID; absent = none), or the one run of
   * `--baseline RUN_ID`. `historyFound`: with --baseline history, how many earlier runs each
   * group without a baseline had.
   */
  setBaselines(
    found: ReadonlyMap<string, GateBaseline>,
    historyFound?: ReadonlyMap<string, number>,
    missing?: ReadonlyMap<string, string>,
  ): void {
    const fixed = this.rules.baseline?.kind === 'run' ? this.rules.baseline.baseline : undefined
    for (const group of this.groups()) {
      group.baseline = fixed ?? found.get(group.id) ?? null
      if (group.baseline === null && historyFound !== undefined) group.historyFound = historyFound.get(group.id) ?? 0
      if (group.baseline === null && missing?.has(group.id)) group.missing = missing.get(group.id)
    }
    this.kept.clear()
    this.compared = undefined
  }

  /** How many groups are compared with a history or a baseline file in this step (the m of the correction). */
  comparisons(): number {
    if (this.compared !== undefined) return this.compared
    const count = this.groups().filter((g) => isSample(g.baseline)).length
    // (kept once the groups are formed: before that, a group is each run found so far)
    if (this.groupList !== undefined) this.compared = count
    return count
  }

  /** The groups judged against a stale group of the baseline file. */
  stale(): Group[] {
    return this.groups().filter((g) => g.baseline != null && 'kind' in g.baseline && g.baseline.kind === 'file' && g.baseline.stale)
  }

  /** The judgement of one group, in data and in words (./verdict.ts, ./words.ts); a group --repeat auto decided earlier keeps its judgement. */
  judge(group: Group): Judgement {
    const frozen = this.rules.launches?.decided.get(group.id)
    if (frozen !== undefined) return worded(frozen)
    let judgement = this.kept.get(group)
    if (judgement === undefined) {
      judgement = worded(judgeGroup({rules: this.rules, group, runs: this.runsOf(group), comparisons: this.comparisons()}))
      // (a group of the formed list only: before that, groups() makes new ones at each call)
      if (this.groupById?.get(group.runIds[0] as string) === group) this.kept.set(group, judgement)
    }
    return judgement
  }

  /** Every group with its judgement, in order. */
  judged(): Array<{group: Group; judgement: Judgement}> {
    return this.groups().map((group) => ({group, judgement: this.judge(group)}))
  }

  /**
   * A run's verdict: unfinished on its own, else its group's (a failed run whose failure is within
   * its agent's rate is in a group judged on its other runs: the group's verdict is its).
   */
  runVerdict(w: Watched): RunVerdict {
    if (!isFinished(w.run)) return 'unfinished'
    const group = this.groupOf(w.id)
    if (group === undefined) return w.run?.status === 'succeeded' ? 'passed' : 'failed'
    return this.judge(group).verdict
  }

  /** The shortfall of the group of one watched run, if it is decided and fails. */
  shortfallOf(w: Watched): Shortfall | undefined {
    const group = this.groupOf(w.id)
    if (group === undefined) return undefined
    const j = this.judge(group)
    if (!j.fails || !j.decided) return undefined
    if (group.runIds.length > 1 && w.run?.status === 'succeeded' && j.shortfall?.rule === 'status') return undefined
    return j.shortfall
  }

  /** The groups decided and failing, with the rule and why (by group ID: a run's ID when each run is judged alone). */
  failures(): Array<{id: string} & Shortfall> {
    const out: Array<{id: string} & Shortfall> = []
    for (const {group, judgement} of this.judged()) {
      if (judgement.fails && judgement.decided && judgement.shortfall) out.push({id: group.id, ...judgement.shortfall})
    }
    return out
  }

  /** The runs not finished yet. */
  unfinished(): Watched[] {
    return this.entries().filter((w) => !isFinished(w.run))
  }

  /**
   * undefined while the wait goes on. A wait with no runs at all (a launch that started none) does
   * not pass. With --repeat auto, `undecided` once every group is decided but some would take
   * another launch (and none failed: then no launch can change the step's outcome).
   */
  verdict(): Verdict | undefined {
    if (this.watched.size === 0) return 'not-passed'
    const judged = this.judged().map((j) => j.judgement)
    const failed = judged.some((j) => j.fails && j.decided)
    if (failed && this.rules.failFast) return 'not-passed'
    if (judged.some((j) => !j.decided)) return undefined
    if (failed) return 'not-passed'
    return judged.some((j) => j.more) ? 'undecided' : 'passed'
  }

  /**
   * With --max-drop D > 0 and a fixed number of runs, when the step could not see a drop of D
   * (issue 35 §4): when D is above a group's noise margin it is the bar, and a drop of D itself is
   * regressed only about half the time (`bar`: the largest `detectable` of those groups, D plus the
   * spread of the observed drop); otherwise, when the margin hides D, the largest `detectable` of
   * the groups judged against a history or file, and the smallest K up to `maxRepeat` whose k = K
   * runs a group would see D (null when none would: the baseline's own runs limit it). Undefined
   * when nothing is judged that way, or every judged group sees D.
   */
  resolution(maxRepeat: number): Resolution | undefined {
    const {rules} = this
    if (rules.launches?.auto) return undefined
    const dropOf = (j: Judgement) => j.maxDrop ?? rules.maxDrop
    const judged = this.judged().filter(({group, judgement}) => {
      const d = dropOf(judgement)
      return (
        isSample(group.baseline) && judgement.detectable !== null && judgement.margin !== null && d !== undefined && d !== null && d > 0
      )
    })
    if (judged.length === 0) return undefined
    const barred = judged.filter(({judgement}) => (dropOf(judgement) as number) > (judgement.margin as number))
    if (barred.length > 0) {
      const worst = barred.reduce((a, b) => ((b.judgement.detectable as number) > (a.judgement.detectable as number) ? b : a))
      return {
        detectable: worst.judgement.detectable as number,
        maxDrop: dropOf(worst.judgement) as number,
        repeat: null,
        upTo: maxRepeat,
        bar: 'max-drop',
      }
    }
    const blind = judged.filter(({judgement}) => (judgement.detectable as number) > (dropOf(judgement) as number))
    if (blind.length === 0) return undefined
    const worst = blind.reduce((a, b) => ((b.judgement.detectable as number) > (a.judgement.detectable as number) ? b : a))
    const confidence = perComparison(levelOf(rules.baseline), this.comparisons())
    const sees = (k: number) =>
      judged.every(({group, judgement}) => {
        const baseline = group.baseline as SampleBaseline
        const floor = sdFloor(baseline.scores)
        const margin = noiseMargin(rules, baseline, k, confidence, floor)
        return (
          detectableDrop(rules.quantile as Quantile, margin, {n: baseline.runs, sd: baseline.sd}, k, floor) <= (dropOf(judgement) as number)
        )
      })
    let repeat: number | null = null
    for (let k = 1; k <= maxRepeat && repeat === null; k++) if (sees(k)) repeat = k
    return {detectable: worst.judgement.detectable as number, maxDrop: dropOf(worst.judgement) as number, repeat, upTo: maxRepeat}
  }

  /** The last known state of every run found so far, in the order given. */
  runs(): Run[] {
    return this.entries().flatMap((w) => (w.run === undefined ? [] : [w.run]))
  }
}
