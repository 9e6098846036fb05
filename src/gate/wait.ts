import {Errors} from '@oclif/core'
import {runPages} from '../api/runs.js'
import {commandResult, type Finished} from '../base/results.js'
import {PAGE_LIMIT} from '../contract/vocabulary.js'
import type {HttpClient} from '../core/http/client.js'
import type {IO} from '../output/io.js'
import type {Renderer} from '../output/renderer.js'
import type {Style} from '../output/style.js'
import type {Clock} from '../core/clock.js'
import {AmctlError, ExitCode, UsageError} from '../core/errors.js'
import {errorLine} from '../output/present.js'
import {flagDuration} from '../output/time.js'
import {type BaselineLookup, fileBaselines, findBaselineRun, lookUpBaselines} from './baseline.js'
import {updateBaseline, type UpdateResult, updateText} from './update.js'
import {updateWarnings} from './words.js'
import {terminalSafe} from '../output/sanitize.js'
import {type Column, plural} from '../output/format.js'
import {gatedRunColumns, groupColumns} from './columns.js'
import {pollRuns} from './poll.js'
import {writeReports} from './report.js'
import {
  type AutoReport,
  buildResult,
  type GatedGroup,
  type GatedRun,
  type GateResult,
  gatedGroups,
  gatedRuns,
  type ReportedResult,
  reportedResult,
} from './result.js'
import {ABORTED, exitCodeOf, type FinalOutcome, interruptedBy, orAbort, type WatchOptions, type WatchOutcome, watchRuns} from './watch.js'
import type {ReportTargets, WaitPlan} from './flags.js'
import type {FileChoice} from './rules.js'
import {loadQuantile, loadToleranceFactor, loadVerdictDistributions} from './stats.js'
import {WatchView} from './view.js'
import {STOP_SIGNALS, type Signals} from '../core/signals.js'
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
  /** Ctrl-C (SIGINT) and SIGTERM end the wait; the process's exit erases the live view */
  signals: Signals
}

/** What one wait adds to the command's GateDeps. */
export interface WaitCall {
  /** the command line that watches these runs again, said when Ctrl-C or SIGTERM ends the wait */
  again: string
  /** `evals run --wait`: the eval set launched (the report's suite for runs never found) */
  evalSetId?: string
  /** --repeat auto: the baselines found by the first launch's wait, kept for the next ones (looked up once) */
  lookup?: {found?: BaselineLookup}
  /** --repeat auto: the launches made so far, at most how many, and the groups the last one was made for */
  auto?: AutoReport
  /** --repeat auto: the runs of the earlier launches, whose ends were said already */
  known?: ReadonlySet<string>
  /** runs launched after the last look and never watched (the step ended before their wait): named with the runs still going */
  unwatched?: readonly string[]
}

/** How a wait ended, and its result: built once (./result.ts), read by the reports, the table and --json. */
export interface Concluded {
  outcome: FinalOutcome
  result: GateResult
}

/** One wait of --repeat auto: concluded, or undecided (every run finished, some group would take another launch). */
export type Looked = Concluded | {outcome: WatchOutcome & {end: 'undecided'}; result?: undefined}

/**
 * The org's runs, newest first, the largest page the API allows; `again` says when the list
 * answered before (a 404 is then that page's, see pages()); `signal` (Ctrl-C, SIGTERM, the time limit)
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
export async function resolveBaseline(plan: WaitPlan, deps: GateDeps, evalSetId?: string): Promise<WatchOptions> {
  const choice = plan.options.baseline
  // the t quantile of the history gate: loaded only by a wait that judges a history
  if (choice?.kind === 'history') return {...plan.options, quantile: await loadQuantile()}
  if (choice?.kind === 'file') {
    checkFileFits(choice, deps.org, evalSetId)
    if (!choice.outcomes) {
      // (a file of amctl 0.2 keeps working: its scores judged as ever, its failures as no rate explains them)
      const save = shellLine(['amctl', 'evals', 'baseline', 'save', choice.file.evalSetId, '--org', deps.org, '--file', choice.path])
      deps.out.warning(
        `${choice.path} is a baseline file of version 1: it records no failed or cancelled runs, so no failure rate explains a failed run; record them with: ${save}`,
      )
    }
    return {...plan.options, quantile: await loadQuantile(), tolerance: await loadToleranceFactor()}
  }
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
 * `--baseline-file` holds the runs of one organization and eval set: a file of another org, or
 * (`evals run`) of another eval set than the one launched, is exit 2 before anything is launched.
 */
function checkFileFits(choice: FileChoice, org: string, evalSetId: string | undefined): void {
  const {file, path} = choice
  if (file.org !== org) throw new UsageError(`--baseline-file ${path} holds runs of organization ${file.org}, not ${org}`)
  if (evalSetId !== undefined && file.evalSetId !== evalSetId) {
    throw new UsageError(`--baseline-file ${path} holds runs of eval set ${file.evalSetId}, not ${evalSetId}`)
  }
}

/**
 * The wait of `runs watch` and `evals run --wait` (contract 5): polls the organization's run
 * list (the largest page the API allows, then only as far as needed) until the runs finish,
 * showing progress on stderr; with --baseline previous it looks the baselines up once (one
 * newest-first scan, ./baseline.ts). The reports (`--junit`, `--summary`, GitHub Actions) are
 * written on every end: passed, not passed, timed out and Ctrl-C. Ctrl-C (the world's SIGINT,
 * listened to for the duration of the wait, so bin/run.cjs leaves it to us) erases the live view, writes the
 * reports of the runs seen so far, says how to watch again and exits 130; the runs go on. SIGTERM
 * (a CI system cancelling or timing out the job) ends it the same way, saying SIGTERM, with 143.
 */
export async function waitForRuns(
  ids: readonly string[],
  options: WatchOptions,
  reports: ReportTargets,
  deps: GateDeps,
  call: WaitCall,
): Promise<Concluded> {
  const looked = await waitLook(ids, options, reports, deps, call)
  if (looked.result === undefined) throw new Error('a wait ended undecided without --repeat auto')
  return looked
}

/**
 * One wait of waitForRuns; with --repeat auto (options.sequential) it may end `undecided`: every
 * run finished, and some group would take another launch. Then no report is written.
 */
export async function waitLook(
  ids: readonly string[],
  options: WatchOptions,
  reports: ReportTargets,
  deps: GateDeps,
  call: WaitCall,
): Promise<Looked> {
  const {client, org, io, out, errStyle, clock: time, signals} = deps
  const unique = [...new Set(ids)]
  const wallStart = time.wall()
  const listName = `the runs of ${org}`
  const view = new WatchView(
    io,
    out,
    errStyle,
    {...options, verbose: deps.verbose, known: call.known},
    () => time.now(),
    time.now(),
    signals,
  )
  const interrupt = new AbortController()
  // the first signal is the one the wait ends with (a second one aborts nothing more)
  const stopListening = signals.on(['SIGINT', 'SIGTERM'], (signal) => interrupt.abort(signal))
  try {
    view.start(unique.filter((id) => !call.known?.has(id)).length, org)
    const outcome = await watchRuns(unique, options, {
      // from the second poll on, the list answered before: a 404 is that poll's page, not the organization
      poll: (pending, number, stop) => pollRuns(newestRuns(client, org, number > 1 ? `at poll ${number}` : undefined, stop), pending),
      baselines: async (state, stop) => {
        const kept = call.lookup?.found
        if (kept !== undefined) return kept
        const found =
          state.rules.baseline?.kind === 'file'
            ? fileBaselines(state, state.rules.baseline, time.wall())
            : await lookUpBaselines(newestRuns(client, org, 'in the baseline search', stop), state)
        if (call.lookup !== undefined) call.lookup.found = found
        return found
      },
      listName,
      clock: time,
      signal: interrupt.signal,
      onPoll: (state, changes) => view.polled(state, changes),
      onTick: (state) => view.tick(state),
    })
    if (outcome.end === 'interrupted') view.clear()
    else view.finish(outcome)
    if (outcome.end === 'undecided') return {outcome: {...outcome, end: 'undecided'}}
    return await concludeWait({...outcome, end: outcome.end}, options, reports, deps, call, wallStart)
  } catch (error) {
    view.clear()
    throw error
  } finally {
    stopListening()
  }
}

/**
 * How a wait ends for the command: the reports of `outcome` written (whatever the end), the
 * baseline file updated after a verdict (--update-baseline), and after Ctrl-C or SIGTERM the
 * line that says how to watch again (exit 130 or 143).
 */
export async function concludeWait(
  outcome: FinalOutcome,
  options: WatchOptions,
  reports: ReportTargets,
  deps: GateDeps,
  call: WaitCall,
  wallStart: number,
): Promise<Concluded> {
  const {org, io, out} = deps
  const result = buildResult(outcome, {
    org,
    host: hostOf(deps.baseUrl),
    evalSetId: call.evalSetId,
    wallStart,
    auto: call.auto,
    unwatched: call.unwatched,
  })
  const choice = options.baseline
  if (choice?.kind === 'file' && choice.update && (outcome.end === 'passed' || outcome.end === 'not-passed')) {
    // before the reports, which say what it did
    // (the change-point test of the groups it changed needs the normal quantile: ./update.ts)
    const {normalQuantile} = await loadVerdictDistributions()
    result.baselineUpdate = updateBaseline(choice, outcome.state.runs(), deps.clock.wall(), normalQuantile)
    const {line, leftOut} = updateText(result.baselineUpdate, choice.file.keep)
    if (leftOut !== undefined) out.warning(leftOut)
    if (result.baselineUpdate.error === undefined) out.notice(line)
    else io.stderr.write(`${deps.errStyle.red(errorLine(new AmctlError(line, {code: result.baselineUpdate.error.code})))}\n`)
    // a group whose level moved or that fails more, which this update makes the baseline: one line each
    for (const warning of updateWarnings(result.baselineUpdate)) out.warning(warning)
  }
  await writeReports(result, reports, {io, out, env: deps.env, now: deps.clock.wall()})
  // the API has no way to cancel runs: those the wait leaves going are named, so they can be found
  const going = result.unfinishedRunIds
  if (going.length > 0) {
    out.notice(`${plural(going.length, 'run')} still going on the server (the API cannot cancel runs): ${shellLine(going)}`)
  }
  if (outcome.end === 'interrupted') {
    const {words} = STOP_SIGNALS[interruptedBy(outcome)]
    out.notice(`interrupted (${words}): stopped watching; the runs go on. Watch them again with: ${call.again}`)
    throw new Errors.ExitError(exitCodeOf(outcome))
  }
  return {outcome, result}
}

/**
 * The exit code a concluded wait ends the command with: its verdict's (./watch.ts exitCodeOf),
 * except that a passing step whose --update-baseline failed exits 1: it did not do all it was
 * asked, and a step that did not pass keeps its 10 or 11 (a retry on 1 must not launch again).
 */
export function concludedExitCode({outcome, result}: Concluded): number {
  const code = exitCodeOf(outcome)
  return code === ExitCode.ok && result.baselineUpdate?.error !== undefined ? ExitCode.failure : code
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

/** --json's `baselineUpdate`: what the update did (./update.ts UpdateResult) and its warnings in words. */
export type BaselineUpdateDocument = UpdateResult & {
  /** the sentences of `changes`, one each, as stderr's warning lines say them (control characters written visibly: one line each) */
  warnings: string[]
}

/** --json's `baselineUpdate` of an update. */
function updateDocument(update: UpdateResult): BaselineUpdateDocument {
  return {...update, warnings: updateWarnings(update).map((line) => terminalSafe(line))}
}

/** What the --json document of a wait holds besides the runs. */
export interface WaitExtras {
  /** with --repeat: the groups */
  groups?: GatedGroup[]
  /** the runs not finished when the wait ended, which go on on the server (the API cannot cancel runs); [] when all finished */
  unfinishedRunIds: string[]
  /** --update-baseline: what it added to the file, or why it did not, and what it took in */
  baselineUpdate?: BaselineUpdateDocument
  /** the gate's result, every report is made from it (./result.ts ReportedResult; `amctl evals comment` reads it) */
  gate: ReportedResult
}

/**
 * The end of a wait for the base to render, from its result: the runs in their last known
 * state, in the order given, as `runs list` shows them (table, TSV, or `document` under --json,
 * with the IDs of the runs not finished: WaitExtras), each with its `verdict`, and the exit code
 * (0 passed, 10 not passed, 11 timed out). With --baseline each run also carries `baseline`
 * ({"runId","score"}, the history, or null), `delta` and `margin`, shown as BASELINE, Δ, MARGIN
 * and TREND columns. With --repeat the runs carry their verdict only and `groups`
 * (./result.ts GroupResult) carry the rest; the table shows the groups.
 */
export function waitResult<D>(
  concluded: Concluded,
  document: (runs: WatchedRun[], extras: WaitExtras) => D,
  /** asGroups: the list shows the groups (--repeat), not the runs; error: what ended the step (a launch that failed), said on stderr */
  present: {asGroups?: boolean; error?: AmctlError} = {},
): Finished<unknown, D> {
  const {outcome, result} = concluded
  const exitCode = concludedExitCode(concluded)
  const kind = outcome.state.rules.baseline?.kind
  const gated = gatedRuns(result)
  const {unfinishedRunIds, baselineUpdate} = result
  const groups = gatedGroups(result)
  const update = {...(baselineUpdate === undefined ? {} : {baselineUpdate: updateDocument(baselineUpdate)}), gate: reportedResult(result)}
  const error = present.error === undefined ? {} : {error: present.error}
  // a step a launch ended before any run of it was seen: nothing to list, the runs named on stderr
  if (present.error !== undefined && result.runs.every((r) => r.run === undefined)) {
    return commandResult({
      kind: 'finished',
      exitCode,
      ...error,
      document: document(gated, {...(groups === undefined ? {} : {groups}), unfinishedRunIds, ...update}),
    })
  }
  if (groups !== undefined && present.asGroups) {
    return commandResult({
      kind: 'finished',
      exitCode,
      ...error,
      document: document(gated, {groups, unfinishedRunIds, ...update}),
      list: {items: groups as unknown[], columns: groupColumns(kind) as Column<unknown>[]},
    })
  }
  return commandResult({
    kind: 'finished',
    exitCode,
    ...error,
    document: document(gated, {...(groups === undefined ? {} : {groups}), unfinishedRunIds, ...update}),
    list: {items: gated as unknown[], columns: gatedRunColumns(kind) as Column<unknown>[]},
  })
}
