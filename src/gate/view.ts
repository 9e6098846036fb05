import type {IO} from '../output/io.js'
import {type LiveCell, LiveView} from '../output/live.js'
import {type Part, type Renderer, styled} from '../output/renderer.js'
import {statusColour, type Style} from '../output/style.js'
import type {TableColumn} from '../output/table.js'
import {plural} from '../output/format.js'
import {flagDuration, shortDuration} from '../output/time.js'
import type {WatchOptions, WatchOutcome} from './watch.js'
import {REPEAT} from './flags.js'
import {type Group, isFinished, judgesNoise, statusText, type Watched} from './rules.js'
import {resolutionText} from './words.js'
import type {RunChange, WatchState} from './state.js'
import type {Signals} from '../core/signals.js'

const LIVE_COLUMNS: TableColumn[] = [
  {header: 'RUN', flexible: true},
  {header: 'STATUS', flexible: true},
  {header: 'ELAPSED'},
  {header: 'SCORE'},
  {header: 'VERDICT'},
]
/** How many runs a summary line names before "and N more". */
const NAMED = 5

const score = (value: unknown): string => (typeof value === 'number' ? value.toFixed(2) : '')

function named(items: string[]): string {
  return items.length <= NAMED ? items.join(', ') : `${items.slice(0, NAMED).join(', ')} and ${items.length - NAMED} more`
}

/**
 * What a wait shows on stderr while it runs (contract 5): on a terminal (without --verbose,
 * whose request lines would break it) a live view of every run — ID, coloured status, time
 * since the watch began (stopped when the run finished) and score — redrawn in place and erased
 * at the end — and each run's verdict as soon as it is known (./state.ts VERDICTS: the run
 * finished, its baseline was looked up, and with --repeat its whole group is decided); elsewhere
 * one line per status change (`run_7 running → succeeded`). Then one summary line. Server text goes through the live view or the renderer, both terminal-safe.
 */
export class WatchView {
  /** undefined when stderr is not a terminal, or --verbose writes its own lines there */
  private readonly live?: LiveView

  constructor(
    io: IO,
    private readonly out: Renderer,
    private readonly errStyle: Style,
    private readonly options: WatchOptions & {verbose: boolean; known?: ReadonlySet<string>},
    private readonly now: () => number,
    private readonly startedAt: number,
    signals: Signals,
  ) {
    const live = new LiveView(io, errStyle, signals)
    if (live.active && !options.verbose) this.live = live
  }

  /** Off a terminal: one line saying what is watched and how. */
  start(count: number, org: string): void {
    if (this.live || count === 0) return
    const limit = this.options.timeoutS > 0 ? `up to ${flagDuration(this.options.timeoutS, false)}` : 'no time limit'
    const seq = this.options.launches
    // (a plain step says so only once it relaunched)
    const launch = seq === undefined || (!seq.auto && seq.made === seq.first) ? '' : ` (launch ${seq.made} of at most ${seq.max})`
    this.out.notice(styled(`watching ${plural(count, 'run')} of ${org}${launch}: a poll every ${this.options.intervalS}s, ${limit}`, 'dim'))
  }

  polled(state: WatchState, changes: RunChange[]): void {
    if (this.live) {
      this.draw(this.live, state)
      return
    }
    for (const change of changes) {
      // (--repeat auto: the runs of earlier launches were said when they ended)
      if (this.options.known?.has(change.id)) continue
      const tail = isFinished(change.run) && typeof change.run.score === 'number' ? ` (score ${score(change.run.score)})` : ''
      const move = change.from === undefined ? change.to : `${change.from} → ${change.to}`
      this.out.notice(`${change.id} ${move}${tail}`)
    }
  }

  tick(state: WatchState): void {
    if (this.live) this.draw(this.live, state)
  }

  /** Erases the live view; then the one summary line. */
  finish(outcome: WatchOutcome): void {
    this.live?.clear()
    const {state} = outcome
    const total = state.entries().length
    const took = shortDuration((outcome.endedAt - outcome.startedAt) / 1000)
    // a group as the output shows it: its label with --repeat, else its runs (a plain step judged in groups for its relaunches)
    const nameOf = (group: Group) => (state.rules.grouped && state.rules.asGroups === false ? group.runIds.join(' ') : group.id)
    const failures = state
      .judged()
      .filter(({judgement}) => judgement.fails && judgement.decided && judgement.shortfall !== undefined)
      .map(({group, judgement}) => `${nameOf(group)} ${judgement.shortfall?.reason}`)
    const unfinished = state.unfinished().map((w) => `${w.id} ${w.run ? statusText(w.run) : 'not found yet'}`)
    if (total === 0) {
      this.out.notice(styled('✗', 'red'), ' no runs to wait for: the launch started none, so nothing passed')
      return
    }
    const choice = state.rules.baseline
    const orphans = choice === undefined ? [] : state.groups().filter((g) => g.baseline === null)
    if (orphans.length > 0 && !state.rules.requireBaseline) {
      const held = this.options.maxDrop === undefined && !judgesNoise(choice?.kind) ? '' : ': not judged against a baseline'
      const which = named(orphans.map(nameOf))
      const what =
        choice?.kind === 'file'
          ? `${choice.path} has too few runs of it, or none${orphans.length === 1 && orphans[0].missing ? `: ${orphans[0].missing}` : ''}`
          : choice?.kind === 'history'
            ? 'fewer than 3 earlier runs of the same eval set, agent and model succeeded with a score'
            : 'no earlier run of the same eval set, agent and model succeeded with a score'
      this.out.notice(styled(`no baseline for ${which} (${what})${held}`, 'dim'))
    }
    if (choice?.kind === 'file' && outcome.end !== 'undecided' && state.comparisons() > 0) {
      // (the table shows each group's mean ± sd (n); this line says whose)
      this.out.notice(styled(`judged against ${choice.path} (${choice.file.evalSetId}, saved ${choice.file.savedAt})`, 'dim'))
    }
    const stale = state.stale()
    if (stale.length > 0 && choice?.kind === 'file') {
      const fails = state.rules.requireBaseline ? ', so they fail (--require-baseline)' : ''
      this.out.warning(
        `the baseline file ${choice.path} is stale for ${named(stale.map(nameOf))}: no run newer than --baseline-max-age ${flagDuration(choice.maxAgeS)}${fails}; refresh it (evals baseline save, or --update-baseline on the default branch)`,
      )
    }
    // a group judged on its other runs: why some failed or were cancelled (within the agent's rate, or cancelled)
    const flaky = state.judged().filter(({judgement}) => judgement.flaky && judgement.verdict !== 'failed' && judgement.note !== undefined)
    for (const {group, judgement} of flaky) this.out.notice(styled('!', 'yellow'), ` ${nameOf(group)}: ${judgement.note}`)
    const seq = state.rules.launches
    if (outcome.end === 'undecided' && seq !== undefined) {
      const open = state.judged().filter(({judgement}) => judgement.more)
      const groups = state.groups().length
      const why = seq.auto ? '--repeat auto' : 'no run of them succeeded, and no failure was beyond its rate'
      this.out.notice(
        styled('…', 'dim'),
        ` launch ${seq.made} of at most ${seq.max} (${why}): ${groups - open.length} of ${plural(groups, 'group')} decided; launching again for ${named(open.map(({group}) => nameOf(group)))}`,
      )
      return
    }
    const inconclusive = state.judged().filter(({judgement}) => judgement.verdict === 'inconclusive' && !judgement.fails)
    const sequential = inconclusive.filter(({judgement}) => judgement.decision.rule === 'sequential')
    if (sequential.length > 0 && seq !== undefined) {
      const why =
        seq.made < seq.max
          ? 'undecided when the step stopped'
          : `undecided after ${seq.max} launch${seq.max === 1 ? '' : 'es'} (--max-repeat ${seq.max})`
      this.out.warning(
        `inconclusive: ${named(sequential.map(({group}) => nameOf(group)))} ${why}: neither regressed nor cleared of --max-drop ${state.rules.maxDrop ?? `${state.rules.maxDropSd}sd`}; --fail-inconclusive fails the step on it`,
      )
    }
    const unsucceeded = inconclusive.filter(({judgement}) => judgement.decision.rule === 'no-success')
    if (unsucceeded.length > 0) {
      const left = seq === undefined ? 'runs watch launches none' : `no launch was left (${seq.max} at most)`
      this.out.warning(
        `inconclusive: ${named(unsucceeded.map(({group}) => nameOf(group)))}: no run succeeded, its failures within the agent's rate or cancelled, and ${left}; --fail-inconclusive fails the step on it`,
      )
    }
    const hint = state.resolution(REPEAT.max)
    if (hint !== undefined) this.out.notice(styled('!', 'yellow'), ` ${resolutionText(hint)}`)
    switch (outcome.end) {
      case 'passed': {
        const min = this.options.minScore === undefined ? '' : `, each with a score of at least ${this.options.minScore}`
        const noise = judgesNoise(state.rules.baseline?.kind) ? ', none beyond noise' : ''
        if (state.rules.grouped && state.rules.asGroups !== false) {
          const groups = state.groups().length
          this.out.notice(
            styled('✓', 'green'),
            ` ${groups === 1 ? '1 group' : `all ${groups} groups`} of ${plural(total, 'run')} passed${min}${noise}${inconclusive.length > 0 ? `, ${inconclusive.length} inconclusive` : ''} (${took})`,
          )
          return
        }
        // (a plain step whose failures were within their agents' rates, relaunched: its runs passed, not all succeeded)
        const notSucceeded = state.entries().filter((w) => w.run?.status !== 'succeeded').length
        const runs = total === 1 ? '1 run' : `all ${total} runs`
        const within =
          notSucceeded === 0
            ? ''
            : `; ${plural(notSucceeded, 'run')} failed or cancelled within ${notSucceeded === 1 ? "its agent's rate" : "their agents' rates"}`
        this.out.notice(styled('✓', 'green'), ` ${runs} ${notSucceeded === 0 ? 'succeeded' : 'passed'}${min}${noise}${within} (${took})`)
        return
      }
      case 'not-passed': {
        const judged = state.rules.grouped && state.rules.asGroups !== false ? plural(state.groups().length, 'group') : plural(total, 'run')
        const parts: Part[] = [styled('✗', 'red'), ` ${failures.length} of ${judged} did not pass: ${named(failures)}`]
        if (unfinished.length > 0) parts.push(`; stopped at the first (--fail-fast), ${unfinished.length} not finished`)
        this.out.notice(...parts, ` (${took})`)
        return
      }
      case 'timeout': {
        const also = failures.length > 0 ? `; did not pass: ${named(failures)}` : ''
        const limit = flagDuration(this.options.timeoutS, false)
        if (outcome.cut === 'baselines') {
          const unjudged = state.entries().filter((w) => state.runVerdict(w) === 'unfinished')
          const which = `${unjudged.length} of ${plural(total, 'run')} not judged: ${named(unjudged.map((w) => w.id))}`
          this.out.notice(
            styled('!', 'yellow'),
            ` gave up after ${limit} (--wait-timeout) in the search for the baselines, which was cut short: ${which}${also}`,
          )
          return
        }
        const left = `${unfinished.length} of ${plural(total, 'run')} not finished: ${named(unfinished)}`
        this.out.notice(styled('!', 'yellow'), ` gave up after ${limit} (--wait-timeout): ${left}${also}`)
        return
      }
      case 'interrupted':
        // the command says how to watch again
        return
      case 'undecided':
        return
    }
  }

  /** Erases the live view (before an error or the Ctrl-C line). */
  clear(): void {
    this.live?.clear()
  }

  private draw(live: LiveView, state: WatchState): void {
    const now = this.now()
    // (with --repeat the groups are known once every run was found)
    const groupsKnown = !state.rules.grouped || state.entries().every((e) => e.run !== undefined)
    const rows = state
      .entries()
      .map((w): LiveCell[] => [
        {text: w.id},
        w.run ? {text: statusText(w.run), paint: statusColour(statusText(w.run), this.errStyle)} : {text: '…', paint: this.errStyle.dim},
        {text: this.elapsed(w, now)},
        {text: w.run ? score(w.run.score) : ''},
        this.verdict(state, w, groupsKnown),
      ])
    const done = state.entries().length - state.unfinished().length
    const limit = this.options.timeoutS > 0 ? ` of ${flagDuration(this.options.timeoutS, false)}` : ''
    const took = shortDuration((now - this.startedAt) / 1000)
    const footer = `${done} of ${plural(state.entries().length, 'run')} finished · ${took}${limit} · Ctrl-C stops watching, not the runs`
    live.draw(LIVE_COLUMNS, rows, {text: footer, paint: this.errStyle.dim})
  }

  /**
   * The run's verdict once it can no longer change: failing verdicts red, `no-baseline` yellow,
   * the others green; empty while the run, its baseline or (--repeat) its group is pending.
   */
  private verdict(state: WatchState, w: Watched, groupsKnown: boolean): LiveCell {
    if (!isFinished(w.run) || !groupsKnown) return {text: ''}
    const group = state.groupOf(w.id)
    if (group === undefined || (state.rules.baseline !== undefined && group.baseline === undefined)) return {text: ''}
    const judgement = state.judge(group)
    if (!judgement.decided) return {text: ''}
    const verdict = state.runVerdict(w)
    const {red, yellow, green} = this.errStyle
    return {text: verdict, paint: verdict === 'failed' || judgement.fails ? red : verdict === 'no-baseline' ? yellow : green}
  }

  /** Time since the watch began, stopped when the run finished; `—` for a run finished before. */
  private elapsed(w: Watched, now: number): string {
    if (w.finishedBefore) return '—'
    return shortDuration(((w.finishedAt ?? now) - this.startedAt) / 1000)
  }
}
