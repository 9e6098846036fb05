import {Args} from '@oclif/core'
import type {Finished} from '../../base/results.js'
import {UsageError} from '../../core/errors.js'
import {readStream} from '../../input/files.js'
import {requireId} from '../../input/values.js'
import {GateCommand} from '../../gate/command.js'
import {checkReportPaths} from '../../gate/report.js'
import {resolveBaseline, waitForRuns, waitResult, type WatchedRun, type BaselineUpdateDocument} from '../../gate/wait.js'
import {againCommand, parseWatchOptions, watchFlags} from '../../gate/flags.js'
import type {OperationId} from '../../contract/routes.js'
import {sightingsOfRuns} from '../../core/recent.js'
import type {ReportedResult} from '../../gate/result.js'

/** --json: the runs in their last known state, in the order given, and those not finished when the wait ended. */
export interface WatchDocument {
  items: WatchedRun[]
  /** the runs not finished when the wait ended (a timeout, --fail-fast): they go on on the server, which cannot cancel runs */
  unfinishedRunIds: string[]
  /** --update-baseline: what it added to the baseline file, or why it did not, and the groups whose level moved or that fail more */
  baselineUpdate?: BaselineUpdateDocument
  /** the gate's result, as every report is made from it (src/gate/result.ts ReportedResult) */
  gate: ReportedResult
}

export default class RunsWatch extends GateCommand {
  static override summary = 'Wait until runs finish; exit 0 only when all of them succeeded'
  static operations: OperationId[] = ['listRuns']
  static override description =
    `Polls the organization's run list (every --interval seconds, newest first, only as far as the watched runs) until every run is succeeded, failed or cancelled, then prints the runs in their last known state, in the order given, as \`runs list\` does (a table, tab-separated rows, or {"items":[…],"unfinishedRunIds":[…]} with --json). While it waits, stderr shows a live view on a terminal, or one line per status change elsewhere.

Exit codes: 0 every run passed (succeeded, met --min-score, did not regress); 10 some run failed, was cancelled, scored below --min-score (or has no score), or regressed against its baseline (or had none, with --require-baseline); 11 --wait-timeout came first, which bounds the whole wait, the search for baselines included (the runs are still printed; a run whose baseline search it cut short is "unfinished"); 5 a run is not in the organization's list; 130 Ctrl-C, which stops the watching, not the runs; 143 SIGTERM (a CI job cancelled or timed out), which ends it as Ctrl-C does. The API cannot cancel runs: a wait that ends before they finish (11, --fail-fast, Ctrl-C, SIGTERM) names the runs still going on stderr, in one line, and in "unfinishedRunIds".

--baseline history (recommended) judges each run against the newest --baseline-runs (default 20) earlier runs of the same eval set, agent and model that succeeded with a score, within --baseline-window (default 30d): a run regresses when it scores below their mean by more than the noise margin at --confidence C (default 0.95, for the whole step: Bonferroni over the runs judged; a step whose agents did not change fails at most 1 − C of the time) and --max-drop (default 0); fewer than 3 such runs is no baseline. --baseline previous compares each run with the newest such run, and --baseline RUN_ID every run with that run, failing a drop of more than --max-drop. --json then gives each run "verdict", "baseline" (the history, {"runId","score"}, or null), "delta" (its score minus the baseline's) and with history "margin"; the table adds BASELINE, Δ (and MARGIN, TREND) and VERDICT. A run without a baseline passes unjudged unless --require-baseline.

--baseline-file PATH (the gate for pull requests) judges each run against the runs of its agent and model in a baseline file made by \`evals baseline save\`, with the statistics of --baseline history and a margin that holds the file's own false-alarm rate (a tolerance bound); no history scan is made. A group of the file whose newest run is older than --baseline-max-age (default 30d) is stale: a warning, and with --require-baseline a failure. --update-baseline (on the default branch) adds the watched runs that succeeded with a score to the file after the verdict, each group keeping its newest runs, and warns of each group whose level moved or that fails more (--json: "baselineUpdate": {"changes"}). Every run judged against a history or a file also says "detectable": the smallest drop it could have seen; when --max-drop is below it, one line says which --repeat would see it.

Piped, each row is the run's \`runs list\` row (ID, status, eval set, created, agent, model, score), then verdict, baseline run, baseline score (with history: its mean), delta, margin, baseline sd and baseline runs: fourteen fields whatever the flags, empty where they do not apply (cut -f8 is the verdict).

--junit PATH and --summary PATH write a JUnit XML report and a Markdown summary on every end (0, 10, 11, Ctrl-C and SIGTERM; runs not finished are skipped), atomically; a path that cannot be written exits 2 before any request. In GitHub Actions (GITHUB_ACTIONS=true) the summary is also appended to $GITHUB_STEP_SUMMARY and each failing run gets an ::error line on stderr (--no-ci-annotations: neither).

A single - reads the run IDs from standard input, separated by whitespace.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> run_acme_0251 run_acme_0250 --org acme',
    {
      description:
        'Fail a run that scores below the noise of the earlier runs of the same eval set, agent and model (false alarms: at most 5 % of unchanged steps); write a JUnit report',
      command: '<%= config.bin %> <%= command.id %> run_acme_0251 --org acme --baseline history --junit evals.xml',
    },
    {
      description: 'Launch an eval set and wait for its runs, at most 15 minutes, each scoring at least 0.4',
      command:
        "<%= config.bin %> evals run es_acme_checkout --org acme --jq '.runIds[]' | " +
        '<%= config.bin %> <%= command.id %> - --org acme --wait-timeout 15m --min-score 0.4',
    },
  ]

  static override strict = false
  static override args = {
    run_id: Args.string({
      description: 'ID of a run to watch (give several to watch them together); - alone reads the IDs from stdin',
      required: true,
    }),
  }

  static override flags = {...watchFlags}

  async run(): Promise<Finished<unknown, WatchDocument>> {
    const {argv, flags} = await this.parse(RunsWatch)
    const plan = parseWatchOptions(flags, this.ctx.env, this.clock.wall())
    const ids = await this.runIds(argv as string[])
    if (plan.baselineRunId !== undefined && ids.includes(plan.baselineRunId)) {
      throw new UsageError(`--baseline ${plan.baselineRunId} is one of the watched runs: a run cannot be its own baseline`)
    }
    checkReportPaths(plan)
    const gate = await this.gate()
    const options = await resolveBaseline(plan, gate)
    const concluded = await waitForRuns(ids, options, plan.reports, gate, {again: againCommand(ids, gate.org, flags)})
    const result = waitResult(concluded, (items, extras): WatchDocument => ({items, ...extras}))
    this.ctx.saw(sightingsOfRuns(gate.org, concluded.outcome.state.runs()))
    return result
  }

  /** The IDs given, or read from stdin for a lone `-`; each checked like any ID (exit 2). */
  private async runIds(args: string[]): Promise<string[]> {
    // RUN_ID… takes any number of IDs, so oclif leaves unknown flags among them: one that starts
    // with - is a flag amctl does not know, unless it comes after -- (an ID may start with -)
    const end = this.argv.indexOf('--')
    const afterEnd = end < 0 ? [] : this.argv.slice(end + 1)
    const flag = args.find((arg) => arg.startsWith('-') && arg !== '-' && !afterEnd.includes(arg))
    if (flag !== undefined) throw new UsageError(`unknown flag ${flag.split('=')[0]}`)
    if (!args.includes('-')) return args.map((id) => requireId('RUN_ID', id))
    if (args.length > 1) throw new UsageError('RUN_ID - (read the IDs from stdin) must be the only RUN_ID')
    if (this.io.stdinIsTTY) this.out.notice('Type the run IDs, then press Ctrl-D:')
    const ids = (await readStream(this.io.stdin, 'RUN_ID -', 'standard input')).split(/\s+/).filter((id) => id !== '')
    if (ids.length === 0) throw new UsageError('RUN_ID -: no run IDs on standard input')
    return ids.map((id) => requireId('RUN_ID (stdin)', id))
  }
}
