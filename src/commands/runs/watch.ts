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
    `Polls the organization's run list until every run is succeeded, failed or cancelled, then prints the runs in their last known state, in the order given, as \`runs list\` does (--json: {"items":[…],"unfinishedRunIds":[…]}). While it waits, stderr shows a live view on a terminal, one line per change elsewhere. A single - reads the run IDs from standard input.

Exit codes: 0 every run passed; 10 a run failed, was cancelled, scored below --min-score or regressed; 11 --wait-timeout came first; 5 a run is not in the organization's list; 130 Ctrl-C; 143 SIGTERM (a CI job cancelled). The API cannot cancel runs: a wait that ends early names the runs still going.

The gate: --baseline-file PATH (for pull requests: a file \`evals baseline save\` made) or --baseline history judges each run against the noise of its agent and model's earlier runs, and a failed run against their failure rate; a step whose agents did not change fails at most 1 − --confidence of the time (5 %). --max-drop D is also the bar: a smaller drop always passes. --update-baseline (the default branch) adds the runs to the file and warns when a group's level moved. --junit, --summary and --html write reports on every end.

Set it up: docs/ci.md. Every rule, output field and figure: docs/ci-reference.md.`

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
