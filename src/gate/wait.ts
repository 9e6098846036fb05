import {Errors} from '@oclif/core'
import {runPages} from '../api/runs.js'
import {commandResult, type Finished} from '../base/results.js'
import type {Run} from '../contract/types.js'
import {ExitCode, PAGE_LIMIT} from '../contract/vocabulary.js'
import type {HttpClient} from '../core/http/client.js'
import type {IO} from '../output/io.js'
import type {Renderer} from '../output/renderer.js'
import type {Style} from '../output/style.js'
import type {Clock} from '../core/clock.js'
import {AmctlError} from '../core/errors.js'
import {flagDuration} from '../output/time.js'
import {findBaselineRun, lookUpBaselines} from './baseline.js'
import type {Column} from '../output/format.js'
import {type GatedRun, type GroupRow, gatedRunColumns, groupColumns} from './columns.js'
import {pollRuns} from './poll.js'
import {buildReport, writeReports} from './report.js'
import {ABORTED, EXIT_BY_END, orAbort, type WatchOptions, type WatchOutcome, watchRuns} from './watch.js'
import type {ReportTargets, WaitPlan} from './flags.js'
import type {GateBaseline, Judgement, Watched, WatchState} from './state.js'
import {loadQuantile} from './stats.js'
import {WatchView} from './view.js'
import type {Signals} from '../core/signals.js'
import {shellLine} from '../output/shell.js'

/**
 * What a wait needs from the command that runs it, made once per command by GateCommand
 * (./command.ts) from its context: the API, the organization, the command's streams, the clock.
 */
export interface GateDeps {
  client: HttpClient
  org: string
  io: IO
  out: Renderer
  errStyle: Style
  /** --verbose: request lines go to stderr, so no live view there */
  verbose: boolean
  /** the environment (GitHub Actions' $GITHUB_STEP_SUMMARY) */
  env: NodeJS.ProcessEnv
  /** the API's base URL (its host names the JUnit report's `hostname`) */
  baseUrl: string
  clock: Clock
  /** Ctrl-C (SIGINT) ends the wait; the process's exit erases the live view */
  signals: Signals
}

/** What one wait adds to the command's GateDeps. */
export interface WaitCall {
  /** the command line that watches these runs again, said when Ctrl-C ends the wait */
  again: string
  /** `evals run --wait`: the eval set launched (the report's suite for runs never found) */
  evalSetId?: string
}

/**
 * The org's runs, newest first, the largest page the API allows; `again` says when the list
 * answered before (a 404 is then that page's, see pages()); `signal` (Ctrl-C, the time limit)
 * cancels the request in flight and its retries, so nothing of a wait outlives it.
 */
const newestRuns = (client: HttpClient, org: string, again?: string, signal?: AbortSignal) =>
  runPages(client, org, {query: {limit: PAGE_LIMIT.max}, again, signal})

/**
 * The wait's options with `--baseline RUN_ID` looked up (one scan of the run list; exit 5 when
 * the run is not there, 2 when it did not succeed with a score): before anything is launched.
 * The scan is part of the wait: --wait-timeout counts from its start and cuts it off (exit 11,
 * code wait_timeout, nothing launched or watched), so a list whose pages never end cannot hold
 * the command.
 */
export async function resolveBaseline(plan: WaitPlan, deps: GateDeps): Promise<WatchOptions> {
  // the t quantile of the history gate: loaded only by a wait that judges a history
  if (plan.options.baseline?.kind === 'history') return {...plan.options, quantile: await loadQuantile()}
  const runId = plan.baselineRunId
  if (runId === undefined) return plan.options
  const {clock, org} = deps
  const {timeoutS} = plan.options
  const limitFrom = clock.now()
  const limit = timeoutS > 0 ? clock.timeout(timeoutS * 1000) : undefined
  const baseline = await orAbort(findBaselineRun(newestRuns(deps.client, org, undefined, limit), runId, `the runs of ${org}`), limit)
  if (baseline === ABORTED) {
    throw new AmctlError(
      `--baseline ${runId}: gave up after ${flagDuration(timeoutS, false)} (--wait-timeout) looking for it among the runs of ${org}; nothing was launched or watched`,
      {code: 'wait_timeout', exitCode: ExitCode.waitTimeout},
    )
  }
  return {...plan.options, baseline: {kind: 'run', baseline}, limitFrom}
}

/**
 * The wait of `runs watch` and `evals run --wait` (contract 5): polls the organization's run
 * list (the largest page the API allows, then only as far as needed) until the runs finish,
 * showing progress on stderr; with --baseline previous it looks the baselines up once (one
 * newest-first scan, ./baseline.ts). The reports (`--junit`, `--summary`, GitHub Actions) are
 * written on every end: passed, not passed, timed out and Ctrl-C. Ctrl-C (the world's SIGINT,
 * listened to for the duration of the wait, so bin/run.cjs leaves it to us) erases the live view, writes the
 * reports of the runs seen so far, says how to watch again and exits 130; the runs go on.
 */
export async function waitForRuns(
  ids: readonly string[],
  options: WatchOptions,
  reports: ReportTargets,
  deps: GateDeps,
  call: WaitCall,
): Promise<WatchOutcome> {
  const {client, org, io, out, errStyle, clock: time, signals} = deps
  const unique = [...new Set(ids)]
  const wallStart = time.wall()
  const listName = `the runs of ${org}`
  const view = new WatchView(io, out, errStyle, {...options, verbose: deps.verbose}, () => time.now(), time.now(), signals)
  const interrupt = new AbortController()
  const stopListening = signals.on(['SIGINT'], () => interrupt.abort())
  try {
    view.start(unique.length, org)
    const outcome = await watchRuns(unique, options, {
      // from the second poll on, the list answered before: a 404 is that poll's page, not the organization
      poll: (pending, number, stop) => pollRuns(newestRuns(client, org, number > 1 ? `at poll ${number}` : undefined, stop), pending),
      baselines: (state, stop) => lookUpBaselines(newestRuns(client, org, 'in the baseline search', stop), state),
      listName,
      clock: time,
      signal: interrupt.signal,
      onPoll: (state, changes) => view.polled(state, changes),
      onTick: (state) => view.tick(state),
    })
    if (outcome.end === 'interrupted') view.clear()
    else view.finish(outcome)
    const report = buildReport(outcome, {org, host: hostOf(deps.baseUrl), evalSetId: call.evalSetId, wallStart})
    await writeReports(report, reports, {io, out, env: deps.env})
    // the API has no way to cancel runs: those the wait leaves going are named, so they can be found
    const going = goingOn(outcome.state)
    if (going.length > 0) {
      out.notice(
        `${going.length === 1 ? '1 run' : `${going.length} runs`} still going on the server (the API cannot cancel runs): ${shellLine(going)}`,
      )
    }
    if (outcome.end === 'interrupted') {
      out.notice(`interrupted: stopped watching; the runs go on. Watch them again with: ${call.again}`)
      throw new Errors.ExitError(ExitCode.interrupted)
    }
    return outcome
  } catch (error) {
    view.clear()
    throw error
  } finally {
    stopListening()
  }
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost'
  } catch {
    return 'localhost'
  }
}

/** A run as a wait ends with it: its `verdict`; with --baseline, also its `baseline`, `delta` and `margin`. */
export type WatchedRun = GatedRun

/**
 * The watched runs not finished when the wait ended (a timeout, --fail-fast, Ctrl-C), runs it
 * never found among them: they go on on the server, which has no way to cancel a run.
 */
function goingOn(state: WatchState): string[] {
  return state.unfinished().map((w) => w.id)
}

/** What the --json document of a wait holds besides the runs. */
export interface WaitExtras {
  /** with --repeat: the groups */
  groups?: GroupRow[]
  /** the runs not finished when the wait ended, which go on on the server (the API cannot cancel runs); [] when all finished */
  unfinishedRunIds: string[]
}

/**
 * The end of a wait for the base to render: the runs in their last known state, in the order
 * given, as `runs list` shows them (table, TSV, or `document` under --json, with the IDs of the
 * runs not finished: WaitExtras), each with its `verdict`, and the exit code (0 passed, 10 not
 * passed, 11 timed out). With --baseline each run also carries `baseline` ({"runId","score"},
 * the history, or null), `delta` and `margin`, shown as BASELINE, Δ, MARGIN and TREND columns.
 * With --repeat the runs carry their verdict only and `groups` (./columns.ts GroupRow) carry the
 * rest; the table shows the groups.
 */
export function waitResult<D>(outcome: WatchOutcome, document: (runs: WatchedRun[], extras: WaitExtras) => D): Finished<unknown, D> {
  const {state} = outcome
  const exitCode = EXIT_BY_END[outcome.end]
  const choice = state.rules.baseline
  const gated = state.entries().flatMap((w): GatedRun[] => (w.run === undefined ? [] : [gatedRun(state, w)]))
  const unfinishedRunIds = goingOn(state)
  if (state.rules.grouped) {
    const groups = groupRows(state)
    return commandResult({
      kind: 'finished',
      exitCode,
      document: document(gated, {groups, unfinishedRunIds}),
      list: {items: groups as unknown[], columns: groupColumns(choice?.kind) as Column<unknown>[]},
    })
  }
  return commandResult({
    kind: 'finished',
    exitCode,
    document: document(gated, {unfinishedRunIds}),
    list: {items: gated as unknown[], columns: gatedRunColumns(choice?.kind) as Column<unknown>[]},
  })
}

/** A watched run with its verdict, and with --baseline (each run judged alone) its baseline, delta and margin. */
function gatedRun(state: WatchState, w: Watched): GatedRun {
  const run = w.run as Run
  const verdict = state.runVerdict(w)
  const choice = state.rules.baseline
  if (choice === undefined || state.rules.grouped) return {...run, verdict}
  const group = state.groupOf(w.id)
  const judgement: Judgement | undefined = group === undefined ? undefined : state.judge(group)
  // `baseline` is absent when it was never looked up (the time limit cut the search short)
  const out: GatedRun = {...run, verdict, ...lookedUp(group?.baseline), delta: judgement?.delta ?? null}
  if (choice.kind === 'history') out.margin = judgement?.margin ?? null
  return out
}

/** `{baseline}` as --json gives it (null: none found), or nothing when it was never looked up (the search was cut short). */
const lookedUp = (baseline: GateBaseline | null | undefined): {baseline?: GateBaseline | null} => (baseline === undefined ? {} : {baseline})

/** The groups of a wait with --repeat, as --json and the table show them. */
function groupRows(state: WatchState): GroupRow[] {
  const choice = state.rules.baseline
  return state.judged().map(({group, judgement}) => {
    const runs = state.runsOf(group).map((w) => w.run as Run)
    const first = runs[0]
    const row: GroupRow = {
      agent: first?.agent ?? null,
      model: first?.model ?? null,
      evalSetId: first?.evalSetId ?? null,
      runIds: [...group.runIds],
      scores: runs.map((run) => (typeof run?.score === 'number' ? run.score : null)),
      score: judgement.score,
      failures: judgement.failures,
      flaky: judgement.flaky,
      verdict: judgement.verdict,
    }
    if (choice !== undefined) {
      Object.assign(row, lookedUp(group.baseline))
      row.delta = judgement.delta
      if (choice.kind === 'history') row.margin = judgement.margin
    }
    return row
  })
}
