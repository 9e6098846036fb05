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
import {findBaselineRun, findBaselines} from './baseline.js'
import {RUN_COLUMNS} from '../output/run-columns.js'
import {GATED_RUN_COLUMNS, type GatedRun} from './columns.js'
import {pollRuns} from './poll.js'
import {buildReport, writeReports} from './report.js'
import {EXIT_BY_END, type WatchOptions, type WatchOutcome, watchRuns} from './watch.js'
import type {ReportTargets, WaitPlan} from './flags.js'
import {scoreDelta} from './state.js'
import {WatchView} from './view.js'

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
}

/** What one wait adds to the command's GateDeps. */
export interface WaitCall {
  /** the command line that watches these runs again, said when Ctrl-C ends the wait */
  again: string
  /** `evals run --wait`: the eval set launched (the report's suite for runs never found) */
  evalSetId?: string
}

/** The org's runs, newest first, the largest page the API allows; `again` says when the list answered before (a 404 is then that page's, see pages()). */
const newestRuns = (client: HttpClient, org: string, again?: string) => runPages(client, org, {limit: PAGE_LIMIT.max, again})

/**
 * The wait's options with `--baseline RUN_ID` looked up (one scan of the run list; exit 5 when
 * the run is not there, 2 when it did not succeed with a score): before anything is launched.
 */
export async function resolveBaseline(plan: WaitPlan, deps: GateDeps): Promise<WatchOptions> {
  if (plan.baselineRunId === undefined) return plan.options
  const baseline = await findBaselineRun(newestRuns(deps.client, deps.org), plan.baselineRunId, `the runs of ${deps.org}`)
  return {...plan.options, baseline: {kind: 'run', baseline}}
}

/**
 * The wait of `runs watch` and `evals run --wait` (contract 5): polls the organization's run
 * list (the largest page the API allows, then only as far as needed) until the runs finish,
 * showing progress on stderr; with --baseline previous it looks the baselines up once (one
 * newest-first scan, ./baseline.ts). The reports (`--junit`, `--summary`, GitHub Actions) are
 * written on every end: passed, not passed, timed out and Ctrl-C. Ctrl-C (a SIGINT listener for
 * the duration of the wait, so bin/run.cjs leaves it to us) erases the live view, writes the
 * reports of the runs seen so far, says how to watch again and exits 130; the runs go on.
 */
export async function waitForRuns(
  ids: readonly string[],
  options: WatchOptions,
  reports: ReportTargets,
  deps: GateDeps,
  call: WaitCall,
): Promise<WatchOutcome> {
  const {client, org, io, out, errStyle, clock: time} = deps
  const unique = [...new Set(ids)]
  const wallStart = Date.now()
  const listName = `the runs of ${org}`
  const view = new WatchView(io, out, errStyle, {...options, verbose: deps.verbose}, () => time.now(), time.now())
  const interrupt = new AbortController()
  const onSigint = (): void => interrupt.abort()
  process.on('SIGINT', onSigint)
  try {
    view.start(unique.length, org)
    const baselineWindow = options.baseline?.kind === 'previous' ? options.baseline.windowS : 0
    const outcome = await watchRuns(unique, options, {
      // from the second poll on, the list answered before: a 404 is that poll's page, not the organization
      poll: (pending, number) => pollRuns(newestRuns(client, org, number > 1 ? `at poll ${number}` : undefined), pending),
      baselines: (runs) => findBaselines(newestRuns(client, org, 'in the baseline search'), runs, baselineWindow),
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
    if (outcome.end === 'interrupted') {
      out.notice(`interrupted: stopped watching; the runs go on. Watch them again with: ${call.again}`)
      throw new Errors.ExitError(ExitCode.interrupted)
    }
    return outcome
  } catch (error) {
    view.clear()
    throw error
  } finally {
    process.off('SIGINT', onSigint)
  }
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost'
  } catch {
    return 'localhost'
  }
}

/** A run as a wait ends with it: with --baseline, also its `baseline` and `delta`. */
export type WatchedRun = Run & Partial<Pick<GatedRun, 'baseline' | 'delta'>>

/**
 * The end of a wait for the base to render: the runs in their last known state, in the order
 * given, as `runs list` shows them (table, TSV, or `document` under --json), and the exit code
 * (0 passed, 10 not passed, 11 timed out). With --baseline each run also carries `baseline`
 * ({"runId","score"} or null) and `delta` (number or null), shown as BASELINE and Δ columns.
 */
export function waitResult<D>(outcome: WatchOutcome, document: (runs: WatchedRun[]) => D): Finished<Run, D> {
  const {state} = outcome
  const exitCode = EXIT_BY_END[outcome.end]
  if (state.rules.baseline === undefined) {
    const runs = state.runs()
    return commandResult({kind: 'finished', exitCode, document: document(runs), list: {items: runs, columns: RUN_COLUMNS}})
  }
  const gated = state.entries().flatMap((w): GatedRun[] => {
    if (w.run === undefined) return []
    return [{...w.run, baseline: w.baseline ?? null, delta: scoreDelta(w.run, w.baseline)}]
  })
  return commandResult({
    kind: 'finished',
    exitCode,
    document: document(gated),
    list: {items: gated, columns: GATED_RUN_COLUMNS as typeof RUN_COLUMNS},
  })
}
